// Auto-generated file. Do not edit!
//   Template: reorder.mlir.j2
//   Generator: kgen 0.1.0
!src_buf = tensor<53312xf32>
!dst_buf = tensor<100352xf32>

stream.executable private @reorder_1x17x56x56__f32_abcd__to_f32_aBcd16b_shuffle {
    stream.executable.export public @reorder_1x17x56x56__f32_abcd__to_f32_aBcd16b_shuffle workgroups() -> (index, index, index) {
      %x = arith.constant 16 : index
      %y = arith.constant 1 : index
      %z = arith.constant 2 : index
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @reorder_1x17x56x56__f32_abcd__to_f32_aBcd16b_shuffle(%x_binding: !stream.binding, %y_binding: !stream.binding) {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c2 = arith.constant 2 : index
        %c3 = arith.constant 3 : index
        %c4 = arith.constant 4 : index
        %c5 = arith.constant 5 : index
        %c6 = arith.constant 6 : index
        %c7 = arith.constant 7 : index
        %c8 = arith.constant 8 : index
        %c9 = arith.constant 9 : index
        %c10 = arith.constant 10 : index
        %c11 = arith.constant 11 : index
        %c12 = arith.constant 12 : index
        %c13 = arith.constant 13 : index
        %c14 = arith.constant 14 : index
        %c15 = arith.constant 15 : index
        %c16 = arith.constant 16 : index
        %zv = arith.constant dense<0.0> : vector<16xf32>
        %x_raw = stream.binding.subspan %x_binding[%c0] : !stream.binding -> memref<53312xf32>
        %x = memref.reinterpret_cast %x_raw to offset: [0], sizes: [1, 2, 16, 3136], strides: [53312, 50176, 3136, 1] : memref<53312xf32> to memref<1x2x16x3136xf32, strided<[53312, 50176, 3136, 1], offset: 0>>
        %y_raw = stream.binding.subspan %y_binding[%c0] : !stream.binding -> memref<100352xf32>
        %y = memref.reinterpret_cast %y_raw to offset: [0], sizes: [1, 2, 3136, 16], strides: [100352, 50176, 16, 1] : memref<100352xf32> to memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>
        %w = hal.interface.workgroup.id[0] : index
        %b = hal.interface.workgroup.id[1] : index
        %b2 = hal.interface.workgroup.id[2] : index
        %span = arith.constant 208 : index
        %sf = arith.constant 3136 : index
        %rf = arith.constant 16 : index
        %lo = arith.muli %w, %span : index
        %end = arith.addi %lo, %span : index
        %hi = arith.minui %end, %sf : index
        %last_block = arith.constant 1 : index
        %is_last_block = arith.cmpi eq, %b2, %last_block : index
        scf.if %is_last_block {
        scf.for %ps1 = %lo to %hi step %c16 {
          %pt0_ri0 = arith.addi %c0, %c0 : index
          %pt0_r0 = vector.load %x[%b, %b2, %pt0_ri0, %ps1] : memref<1x2x16x3136xf32, strided<[53312, 50176, 3136, 1], offset: 0>>, vector<16xf32>
          %pt0_a0 = vector.shuffle %pt0_r0, %zv [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %pt0_a1 = vector.shuffle %pt0_r0, %zv [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %pt0_a2 = vector.shuffle %zv, %zv [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %pt0_a3 = vector.shuffle %zv, %zv [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %pt0_a4 = vector.shuffle %zv, %zv [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %pt0_a5 = vector.shuffle %zv, %zv [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %pt0_a6 = vector.shuffle %zv, %zv [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %pt0_a7 = vector.shuffle %zv, %zv [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %pt0_a8 = vector.shuffle %zv, %zv [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %pt0_a9 = vector.shuffle %zv, %zv [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %pt0_a10 = vector.shuffle %zv, %zv [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %pt0_a11 = vector.shuffle %zv, %zv [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %pt0_a12 = vector.shuffle %zv, %zv [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %pt0_a13 = vector.shuffle %zv, %zv [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %pt0_a14 = vector.shuffle %zv, %zv [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %pt0_a15 = vector.shuffle %zv, %zv [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %pt0_b0 = vector.shuffle %pt0_a0, %pt0_a2 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %pt0_b1 = vector.shuffle %pt0_a0, %pt0_a2 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_b2 = vector.shuffle %pt0_a1, %pt0_a3 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %pt0_b3 = vector.shuffle %pt0_a1, %pt0_a3 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_b4 = vector.shuffle %pt0_a4, %pt0_a6 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %pt0_b5 = vector.shuffle %pt0_a4, %pt0_a6 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_b6 = vector.shuffle %pt0_a5, %pt0_a7 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %pt0_b7 = vector.shuffle %pt0_a5, %pt0_a7 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_b8 = vector.shuffle %pt0_a8, %pt0_a10 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %pt0_b9 = vector.shuffle %pt0_a8, %pt0_a10 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_b10 = vector.shuffle %pt0_a9, %pt0_a11 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %pt0_b11 = vector.shuffle %pt0_a9, %pt0_a11 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_b12 = vector.shuffle %pt0_a12, %pt0_a14 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %pt0_b13 = vector.shuffle %pt0_a12, %pt0_a14 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_b14 = vector.shuffle %pt0_a13, %pt0_a15 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %pt0_b15 = vector.shuffle %pt0_a13, %pt0_a15 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_c0 = vector.shuffle %pt0_b0, %pt0_b4 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %pt0_c4 = vector.shuffle %pt0_b0, %pt0_b4 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_c1 = vector.shuffle %pt0_b1, %pt0_b5 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %pt0_c5 = vector.shuffle %pt0_b1, %pt0_b5 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_c2 = vector.shuffle %pt0_b2, %pt0_b6 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %pt0_c6 = vector.shuffle %pt0_b2, %pt0_b6 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_c3 = vector.shuffle %pt0_b3, %pt0_b7 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %pt0_c7 = vector.shuffle %pt0_b3, %pt0_b7 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_c8 = vector.shuffle %pt0_b8, %pt0_b12 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %pt0_c12 = vector.shuffle %pt0_b8, %pt0_b12 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_c9 = vector.shuffle %pt0_b9, %pt0_b13 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %pt0_c13 = vector.shuffle %pt0_b9, %pt0_b13 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_c10 = vector.shuffle %pt0_b10, %pt0_b14 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %pt0_c14 = vector.shuffle %pt0_b10, %pt0_b14 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_c11 = vector.shuffle %pt0_b11, %pt0_b15 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %pt0_c15 = vector.shuffle %pt0_b11, %pt0_b15 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_o0 = vector.shuffle %pt0_c0, %pt0_c8 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %pt0_o8 = vector.shuffle %pt0_c0, %pt0_c8 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_o1 = vector.shuffle %pt0_c1, %pt0_c9 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %pt0_o9 = vector.shuffle %pt0_c1, %pt0_c9 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_o2 = vector.shuffle %pt0_c2, %pt0_c10 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %pt0_o10 = vector.shuffle %pt0_c2, %pt0_c10 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_o3 = vector.shuffle %pt0_c3, %pt0_c11 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %pt0_o11 = vector.shuffle %pt0_c3, %pt0_c11 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_o4 = vector.shuffle %pt0_c4, %pt0_c12 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %pt0_o12 = vector.shuffle %pt0_c4, %pt0_c12 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_o5 = vector.shuffle %pt0_c5, %pt0_c13 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %pt0_o13 = vector.shuffle %pt0_c5, %pt0_c13 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_o6 = vector.shuffle %pt0_c6, %pt0_c14 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %pt0_o14 = vector.shuffle %pt0_c6, %pt0_c14 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_o7 = vector.shuffle %pt0_c7, %pt0_c15 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %pt0_o15 = vector.shuffle %pt0_c7, %pt0_c15 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %pt0_si0 = arith.addi %ps1, %c0 : index
          vector.store %pt0_o0, %y[%b, %b2, %pt0_si0, %c0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %pt0_si1 = arith.addi %ps1, %c1 : index
          vector.store %pt0_o1, %y[%b, %b2, %pt0_si1, %c0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %pt0_si2 = arith.addi %ps1, %c2 : index
          vector.store %pt0_o2, %y[%b, %b2, %pt0_si2, %c0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %pt0_si3 = arith.addi %ps1, %c3 : index
          vector.store %pt0_o3, %y[%b, %b2, %pt0_si3, %c0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %pt0_si4 = arith.addi %ps1, %c4 : index
          vector.store %pt0_o4, %y[%b, %b2, %pt0_si4, %c0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %pt0_si5 = arith.addi %ps1, %c5 : index
          vector.store %pt0_o5, %y[%b, %b2, %pt0_si5, %c0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %pt0_si6 = arith.addi %ps1, %c6 : index
          vector.store %pt0_o6, %y[%b, %b2, %pt0_si6, %c0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %pt0_si7 = arith.addi %ps1, %c7 : index
          vector.store %pt0_o7, %y[%b, %b2, %pt0_si7, %c0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %pt0_si8 = arith.addi %ps1, %c8 : index
          vector.store %pt0_o8, %y[%b, %b2, %pt0_si8, %c0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %pt0_si9 = arith.addi %ps1, %c9 : index
          vector.store %pt0_o9, %y[%b, %b2, %pt0_si9, %c0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %pt0_si10 = arith.addi %ps1, %c10 : index
          vector.store %pt0_o10, %y[%b, %b2, %pt0_si10, %c0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %pt0_si11 = arith.addi %ps1, %c11 : index
          vector.store %pt0_o11, %y[%b, %b2, %pt0_si11, %c0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %pt0_si12 = arith.addi %ps1, %c12 : index
          vector.store %pt0_o12, %y[%b, %b2, %pt0_si12, %c0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %pt0_si13 = arith.addi %ps1, %c13 : index
          vector.store %pt0_o13, %y[%b, %b2, %pt0_si13, %c0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %pt0_si14 = arith.addi %ps1, %c14 : index
          vector.store %pt0_o14, %y[%b, %b2, %pt0_si14, %c0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %pt0_si15 = arith.addi %ps1, %c15 : index
          vector.store %pt0_o15, %y[%b, %b2, %pt0_si15, %c0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>

        }

        } else {
        scf.for %s0 = %lo to %hi step %c16 {
          scf.for %r0 = %c0 to %rf step %c16 {
          %t_ri0 = arith.addi %r0, %c0 : index
          %t_r0 = vector.load %x[%b, %b2, %t_ri0, %s0] : memref<1x2x16x3136xf32, strided<[53312, 50176, 3136, 1], offset: 0>>, vector<16xf32>
          %t_ri1 = arith.addi %r0, %c1 : index
          %t_r1 = vector.load %x[%b, %b2, %t_ri1, %s0] : memref<1x2x16x3136xf32, strided<[53312, 50176, 3136, 1], offset: 0>>, vector<16xf32>
          %t_ri2 = arith.addi %r0, %c2 : index
          %t_r2 = vector.load %x[%b, %b2, %t_ri2, %s0] : memref<1x2x16x3136xf32, strided<[53312, 50176, 3136, 1], offset: 0>>, vector<16xf32>
          %t_ri3 = arith.addi %r0, %c3 : index
          %t_r3 = vector.load %x[%b, %b2, %t_ri3, %s0] : memref<1x2x16x3136xf32, strided<[53312, 50176, 3136, 1], offset: 0>>, vector<16xf32>
          %t_ri4 = arith.addi %r0, %c4 : index
          %t_r4 = vector.load %x[%b, %b2, %t_ri4, %s0] : memref<1x2x16x3136xf32, strided<[53312, 50176, 3136, 1], offset: 0>>, vector<16xf32>
          %t_ri5 = arith.addi %r0, %c5 : index
          %t_r5 = vector.load %x[%b, %b2, %t_ri5, %s0] : memref<1x2x16x3136xf32, strided<[53312, 50176, 3136, 1], offset: 0>>, vector<16xf32>
          %t_ri6 = arith.addi %r0, %c6 : index
          %t_r6 = vector.load %x[%b, %b2, %t_ri6, %s0] : memref<1x2x16x3136xf32, strided<[53312, 50176, 3136, 1], offset: 0>>, vector<16xf32>
          %t_ri7 = arith.addi %r0, %c7 : index
          %t_r7 = vector.load %x[%b, %b2, %t_ri7, %s0] : memref<1x2x16x3136xf32, strided<[53312, 50176, 3136, 1], offset: 0>>, vector<16xf32>
          %t_ri8 = arith.addi %r0, %c8 : index
          %t_r8 = vector.load %x[%b, %b2, %t_ri8, %s0] : memref<1x2x16x3136xf32, strided<[53312, 50176, 3136, 1], offset: 0>>, vector<16xf32>
          %t_ri9 = arith.addi %r0, %c9 : index
          %t_r9 = vector.load %x[%b, %b2, %t_ri9, %s0] : memref<1x2x16x3136xf32, strided<[53312, 50176, 3136, 1], offset: 0>>, vector<16xf32>
          %t_ri10 = arith.addi %r0, %c10 : index
          %t_r10 = vector.load %x[%b, %b2, %t_ri10, %s0] : memref<1x2x16x3136xf32, strided<[53312, 50176, 3136, 1], offset: 0>>, vector<16xf32>
          %t_ri11 = arith.addi %r0, %c11 : index
          %t_r11 = vector.load %x[%b, %b2, %t_ri11, %s0] : memref<1x2x16x3136xf32, strided<[53312, 50176, 3136, 1], offset: 0>>, vector<16xf32>
          %t_ri12 = arith.addi %r0, %c12 : index
          %t_r12 = vector.load %x[%b, %b2, %t_ri12, %s0] : memref<1x2x16x3136xf32, strided<[53312, 50176, 3136, 1], offset: 0>>, vector<16xf32>
          %t_ri13 = arith.addi %r0, %c13 : index
          %t_r13 = vector.load %x[%b, %b2, %t_ri13, %s0] : memref<1x2x16x3136xf32, strided<[53312, 50176, 3136, 1], offset: 0>>, vector<16xf32>
          %t_ri14 = arith.addi %r0, %c14 : index
          %t_r14 = vector.load %x[%b, %b2, %t_ri14, %s0] : memref<1x2x16x3136xf32, strided<[53312, 50176, 3136, 1], offset: 0>>, vector<16xf32>
          %t_ri15 = arith.addi %r0, %c15 : index
          %t_r15 = vector.load %x[%b, %b2, %t_ri15, %s0] : memref<1x2x16x3136xf32, strided<[53312, 50176, 3136, 1], offset: 0>>, vector<16xf32>
          %t_a0 = vector.shuffle %t_r0, %t_r1 [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %t_a1 = vector.shuffle %t_r0, %t_r1 [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %t_a2 = vector.shuffle %t_r2, %t_r3 [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %t_a3 = vector.shuffle %t_r2, %t_r3 [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %t_a4 = vector.shuffle %t_r4, %t_r5 [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %t_a5 = vector.shuffle %t_r4, %t_r5 [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %t_a6 = vector.shuffle %t_r6, %t_r7 [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %t_a7 = vector.shuffle %t_r6, %t_r7 [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %t_a8 = vector.shuffle %t_r8, %t_r9 [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %t_a9 = vector.shuffle %t_r8, %t_r9 [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %t_a10 = vector.shuffle %t_r10, %t_r11 [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %t_a11 = vector.shuffle %t_r10, %t_r11 [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %t_a12 = vector.shuffle %t_r12, %t_r13 [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %t_a13 = vector.shuffle %t_r12, %t_r13 [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %t_a14 = vector.shuffle %t_r14, %t_r15 [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %t_a15 = vector.shuffle %t_r14, %t_r15 [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %t_b0 = vector.shuffle %t_a0, %t_a2 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %t_b1 = vector.shuffle %t_a0, %t_a2 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_b2 = vector.shuffle %t_a1, %t_a3 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %t_b3 = vector.shuffle %t_a1, %t_a3 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_b4 = vector.shuffle %t_a4, %t_a6 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %t_b5 = vector.shuffle %t_a4, %t_a6 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_b6 = vector.shuffle %t_a5, %t_a7 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %t_b7 = vector.shuffle %t_a5, %t_a7 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_b8 = vector.shuffle %t_a8, %t_a10 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %t_b9 = vector.shuffle %t_a8, %t_a10 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_b10 = vector.shuffle %t_a9, %t_a11 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %t_b11 = vector.shuffle %t_a9, %t_a11 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_b12 = vector.shuffle %t_a12, %t_a14 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %t_b13 = vector.shuffle %t_a12, %t_a14 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_b14 = vector.shuffle %t_a13, %t_a15 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %t_b15 = vector.shuffle %t_a13, %t_a15 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_c0 = vector.shuffle %t_b0, %t_b4 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %t_c4 = vector.shuffle %t_b0, %t_b4 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_c1 = vector.shuffle %t_b1, %t_b5 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %t_c5 = vector.shuffle %t_b1, %t_b5 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_c2 = vector.shuffle %t_b2, %t_b6 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %t_c6 = vector.shuffle %t_b2, %t_b6 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_c3 = vector.shuffle %t_b3, %t_b7 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %t_c7 = vector.shuffle %t_b3, %t_b7 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_c8 = vector.shuffle %t_b8, %t_b12 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %t_c12 = vector.shuffle %t_b8, %t_b12 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_c9 = vector.shuffle %t_b9, %t_b13 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %t_c13 = vector.shuffle %t_b9, %t_b13 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_c10 = vector.shuffle %t_b10, %t_b14 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %t_c14 = vector.shuffle %t_b10, %t_b14 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_c11 = vector.shuffle %t_b11, %t_b15 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %t_c15 = vector.shuffle %t_b11, %t_b15 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_o0 = vector.shuffle %t_c0, %t_c8 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %t_o8 = vector.shuffle %t_c0, %t_c8 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_o1 = vector.shuffle %t_c1, %t_c9 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %t_o9 = vector.shuffle %t_c1, %t_c9 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_o2 = vector.shuffle %t_c2, %t_c10 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %t_o10 = vector.shuffle %t_c2, %t_c10 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_o3 = vector.shuffle %t_c3, %t_c11 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %t_o11 = vector.shuffle %t_c3, %t_c11 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_o4 = vector.shuffle %t_c4, %t_c12 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %t_o12 = vector.shuffle %t_c4, %t_c12 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_o5 = vector.shuffle %t_c5, %t_c13 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %t_o13 = vector.shuffle %t_c5, %t_c13 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_o6 = vector.shuffle %t_c6, %t_c14 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %t_o14 = vector.shuffle %t_c6, %t_c14 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_o7 = vector.shuffle %t_c7, %t_c15 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %t_o15 = vector.shuffle %t_c7, %t_c15 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %t_si0 = arith.addi %s0, %c0 : index
          vector.store %t_o0, %y[%b, %b2, %t_si0, %r0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %t_si1 = arith.addi %s0, %c1 : index
          vector.store %t_o1, %y[%b, %b2, %t_si1, %r0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %t_si2 = arith.addi %s0, %c2 : index
          vector.store %t_o2, %y[%b, %b2, %t_si2, %r0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %t_si3 = arith.addi %s0, %c3 : index
          vector.store %t_o3, %y[%b, %b2, %t_si3, %r0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %t_si4 = arith.addi %s0, %c4 : index
          vector.store %t_o4, %y[%b, %b2, %t_si4, %r0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %t_si5 = arith.addi %s0, %c5 : index
          vector.store %t_o5, %y[%b, %b2, %t_si5, %r0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %t_si6 = arith.addi %s0, %c6 : index
          vector.store %t_o6, %y[%b, %b2, %t_si6, %r0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %t_si7 = arith.addi %s0, %c7 : index
          vector.store %t_o7, %y[%b, %b2, %t_si7, %r0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %t_si8 = arith.addi %s0, %c8 : index
          vector.store %t_o8, %y[%b, %b2, %t_si8, %r0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %t_si9 = arith.addi %s0, %c9 : index
          vector.store %t_o9, %y[%b, %b2, %t_si9, %r0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %t_si10 = arith.addi %s0, %c10 : index
          vector.store %t_o10, %y[%b, %b2, %t_si10, %r0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %t_si11 = arith.addi %s0, %c11 : index
          vector.store %t_o11, %y[%b, %b2, %t_si11, %r0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %t_si12 = arith.addi %s0, %c12 : index
          vector.store %t_o12, %y[%b, %b2, %t_si12, %r0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %t_si13 = arith.addi %s0, %c13 : index
          vector.store %t_o13, %y[%b, %b2, %t_si13, %r0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %t_si14 = arith.addi %s0, %c14 : index
          vector.store %t_o14, %y[%b, %b2, %t_si14, %r0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>
          %t_si15 = arith.addi %s0, %c15 : index
          vector.store %t_o15, %y[%b, %b2, %t_si15, %r0] : memref<1x2x3136x16xf32, strided<[100352, 50176, 16, 1]>>, vector<16xf32>

          }
        }

        }
        return
      }
    }
}

func.func @reorder_1x17x56x56__f32_abcd__to_f32_aBcd16b(%src: !src_buf) -> !dst_buf {
    %v1 = flow.dispatch @reorder_1x17x56x56__f32_abcd__to_f32_aBcd16b_shuffle::@reorder_1x17x56x56__f32_abcd__to_f32_aBcd16b_shuffle(%src) : (!src_buf) -> !dst_buf
    return %v1 : !dst_buf
}
