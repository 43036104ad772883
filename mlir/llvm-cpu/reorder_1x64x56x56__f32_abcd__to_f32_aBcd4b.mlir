// Auto-generated file. Do not edit!
//   Template: reorder.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<200704xf32>

stream.executable private @reorder_1x64x56x56__f32_abcd__to_f32_aBcd4b_shuffle {
    stream.executable.export public @reorder_1x64x56x56__f32_abcd__to_f32_aBcd4b_shuffle workgroups() -> (index, index, index) {
      %x = arith.constant 16 : index
      %y = arith.constant 16 : index
      %z = arith.constant 1 : index
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @reorder_1x64x56x56__f32_abcd__to_f32_aBcd4b_shuffle(%x_binding: !stream.binding, %y_binding: !stream.binding) {
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
        %x_raw = stream.binding.subspan %x_binding[%c0] : !stream.binding -> memref<200704xf32>
        %x = memref.reinterpret_cast %x_raw to offset: [0], sizes: [16, 4, 3136], strides: [12544, 3136, 1] : memref<200704xf32> to memref<16x4x3136xf32, strided<[12544, 3136, 1], offset: 0>>
        %y = stream.binding.subspan %y_binding[%c0] : !stream.binding -> memref<16x3136x4xf32>
        %w = hal.interface.workgroup.id[0] : index
        %b = hal.interface.workgroup.id[1] : index
        %span = arith.constant 208 : index
        %sf = arith.constant 3136 : index
        %rf = arith.constant 0 : index
        %lo = arith.muli %w, %span : index
        %end = arith.addi %lo, %span : index
        %hi = arith.minui %end, %sf : index
        scf.for %s0 = %lo to %hi step %c16 {
          %u_ri0 = arith.addi %rf, %c0 : index
          %u_r0 = vector.load %x[%b, %u_ri0, %s0] : memref<16x4x3136xf32, strided<[12544, 3136, 1], offset: 0>>, vector<16xf32>
          %u_ri1 = arith.addi %rf, %c1 : index
          %u_r1 = vector.load %x[%b, %u_ri1, %s0] : memref<16x4x3136xf32, strided<[12544, 3136, 1], offset: 0>>, vector<16xf32>
          %u_ri2 = arith.addi %rf, %c2 : index
          %u_r2 = vector.load %x[%b, %u_ri2, %s0] : memref<16x4x3136xf32, strided<[12544, 3136, 1], offset: 0>>, vector<16xf32>
          %u_ri3 = arith.addi %rf, %c3 : index
          %u_r3 = vector.load %x[%b, %u_ri3, %s0] : memref<16x4x3136xf32, strided<[12544, 3136, 1], offset: 0>>, vector<16xf32>
          %u_a0 = vector.shuffle %u_r0, %u_r1 [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %u_a1 = vector.shuffle %u_r0, %u_r1 [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %u_a2 = vector.shuffle %u_r2, %u_r3 [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %u_a3 = vector.shuffle %u_r2, %u_r3 [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %u_a4 = vector.shuffle %zv, %zv [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %u_a5 = vector.shuffle %zv, %zv [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %u_a6 = vector.shuffle %zv, %zv [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %u_a7 = vector.shuffle %zv, %zv [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %u_a8 = vector.shuffle %zv, %zv [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %u_a9 = vector.shuffle %zv, %zv [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %u_a10 = vector.shuffle %zv, %zv [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %u_a11 = vector.shuffle %zv, %zv [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %u_a12 = vector.shuffle %zv, %zv [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %u_a13 = vector.shuffle %zv, %zv [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %u_a14 = vector.shuffle %zv, %zv [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xf32>, vector<16xf32>
          %u_a15 = vector.shuffle %zv, %zv [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
          %u_b0 = vector.shuffle %u_a0, %u_a2 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %u_b1 = vector.shuffle %u_a0, %u_a2 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_b2 = vector.shuffle %u_a1, %u_a3 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %u_b3 = vector.shuffle %u_a1, %u_a3 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_b4 = vector.shuffle %u_a4, %u_a6 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %u_b5 = vector.shuffle %u_a4, %u_a6 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_b6 = vector.shuffle %u_a5, %u_a7 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %u_b7 = vector.shuffle %u_a5, %u_a7 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_b8 = vector.shuffle %u_a8, %u_a10 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %u_b9 = vector.shuffle %u_a8, %u_a10 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_b10 = vector.shuffle %u_a9, %u_a11 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %u_b11 = vector.shuffle %u_a9, %u_a11 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_b12 = vector.shuffle %u_a12, %u_a14 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %u_b13 = vector.shuffle %u_a12, %u_a14 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_b14 = vector.shuffle %u_a13, %u_a15 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xf32>, vector<16xf32>
          %u_b15 = vector.shuffle %u_a13, %u_a15 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_c0 = vector.shuffle %u_b0, %u_b4 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %u_c4 = vector.shuffle %u_b0, %u_b4 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_c1 = vector.shuffle %u_b1, %u_b5 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %u_c5 = vector.shuffle %u_b1, %u_b5 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_c2 = vector.shuffle %u_b2, %u_b6 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %u_c6 = vector.shuffle %u_b2, %u_b6 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_c3 = vector.shuffle %u_b3, %u_b7 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %u_c7 = vector.shuffle %u_b3, %u_b7 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_c8 = vector.shuffle %u_b8, %u_b12 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %u_c12 = vector.shuffle %u_b8, %u_b12 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_c9 = vector.shuffle %u_b9, %u_b13 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %u_c13 = vector.shuffle %u_b9, %u_b13 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_c10 = vector.shuffle %u_b10, %u_b14 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %u_c14 = vector.shuffle %u_b10, %u_b14 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_c11 = vector.shuffle %u_b11, %u_b15 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %u_c15 = vector.shuffle %u_b11, %u_b15 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_o0 = vector.shuffle %u_c0, %u_c8 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %u_o8 = vector.shuffle %u_c0, %u_c8 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_o1 = vector.shuffle %u_c1, %u_c9 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %u_o9 = vector.shuffle %u_c1, %u_c9 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_o2 = vector.shuffle %u_c2, %u_c10 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %u_o10 = vector.shuffle %u_c2, %u_c10 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_o3 = vector.shuffle %u_c3, %u_c11 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %u_o11 = vector.shuffle %u_c3, %u_c11 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_o4 = vector.shuffle %u_c4, %u_c12 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %u_o12 = vector.shuffle %u_c4, %u_c12 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_o5 = vector.shuffle %u_c5, %u_c13 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %u_o13 = vector.shuffle %u_c5, %u_c13 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_o6 = vector.shuffle %u_c6, %u_c14 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %u_o14 = vector.shuffle %u_c6, %u_c14 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_o7 = vector.shuffle %u_c7, %u_c15 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xf32>, vector<16xf32>
          %u_o15 = vector.shuffle %u_c7, %u_c15 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          %u_si0 = arith.addi %s0, %c0 : index
          %u_w0 = vector.shuffle %u_o0, %u_o0 [0, 1, 2, 3] : vector<16xf32>, vector<16xf32>
          vector.store %u_w0, %y[%b, %u_si0, %rf] : memref<16x3136x4xf32>, vector<4xf32>
          %u_si1 = arith.addi %s0, %c1 : index
          %u_w1 = vector.shuffle %u_o1, %u_o1 [0, 1, 2, 3] : vector<16xf32>, vector<16xf32>
          vector.store %u_w1, %y[%b, %u_si1, %rf] : memref<16x3136x4xf32>, vector<4xf32>
          %u_si2 = arith.addi %s0, %c2 : index
          %u_w2 = vector.shuffle %u_o2, %u_o2 [0, 1, 2, 3] : vector<16xf32>, vector<16xf32>
          vector.store %u_w2, %y[%b, %u_si2, %rf] : memref<16x3136x4xf32>, vector<4xf32>
          %u_si3 = arith.addi %s0, %c3 : index
          %u_w3 = vector.shuffle %u_o3, %u_o3 [0, 1, 2, 3] : vector<16xf32>, vector<16xf32>
          vector.store %u_w3, %y[%b, %u_si3, %rf] : memref<16x3136x4xf32>, vector<4xf32>
          %u_si4 = arith.addi %s0, %c4 : index
          %u_w4 = vector.shuffle %u_o4, %u_o4 [0, 1, 2, 3] : vector<16xf32>, vector<16xf32>
          vector.store %u_w4, %y[%b, %u_si4, %rf] : memref<16x3136x4xf32>, vector<4xf32>
          %u_si5 = arith.addi %s0, %c5 : index
          %u_w5 = vector.shuffle %u_o5, %u_o5 [0, 1, 2, 3] : vector<16xf32>, vector<16xf32>
          vector.store %u_w5, %y[%b, %u_si5, %rf] : memref<16x3136x4xf32>, vector<4xf32>
          %u_si6 = arith.addi %s0, %c6 : index
          %u_w6 = vector.shuffle %u_o6, %u_o6 [0, 1, 2, 3] : vector<16xf32>, vector<16xf32>
          vector.store %u_w6, %y[%b, %u_si6, %rf] : memref<16x3136x4xf32>, vector<4xf32>
          %u_si7 = arith.addi %s0, %c7 : index
          %u_w7 = vector.shuffle %u_o7, %u_o7 [0, 1, 2, 3] : vector<16xf32>, vector<16xf32>
          vector.store %u_w7, %y[%b, %u_si7, %rf] : memref<16x3136x4xf32>, vector<4xf32>
          %u_si8 = arith.addi %s0, %c8 : index
          %u_w8 = vector.shuffle %u_o8, %u_o8 [0, 1, 2, 3] : vector<16xf32>, vector<16xf32>
          vector.store %u_w8, %y[%b, %u_si8, %rf] : memref<16x3136x4xf32>, vector<4xf32>
          %u_si9 = arith.addi %s0, %c9 : index
          %u_w9 = vector.shuffle %u_o9, %u_o9 [0, 1, 2, 3] : vector<16xf32>, vector<16xf32>
          vector.store %u_w9, %y[%b, %u_si9, %rf] : memref<16x3136x4xf32>, vector<4xf32>
          %u_si10 = arith.addi %s0, %c10 : index
          %u_w10 = vector.shuffle %u_o10, %u_o10 [0, 1, 2, 3] : vector<16xf32>, vector<16xf32>
          vector.store %u_w10, %y[%b, %u_si10, %rf] : memref<16x3136x4xf32>, vector<4xf32>
          %u_si11 = arith.addi %s0, %c11 : index
          %u_w11 = vector.shuffle %u_o11, %u_o11 [0, 1, 2, 3] : vector<16xf32>, vector<16xf32>
          vector.store %u_w11, %y[%b, %u_si11, %rf] : memref<16x3136x4xf32>, vector<4xf32>
          %u_si12 = arith.addi %s0, %c12 : index
          %u_w12 = vector.shuffle %u_o12, %u_o12 [0, 1, 2, 3] : vector<16xf32>, vector<16xf32>
          vector.store %u_w12, %y[%b, %u_si12, %rf] : memref<16x3136x4xf32>, vector<4xf32>
          %u_si13 = arith.addi %s0, %c13 : index
          %u_w13 = vector.shuffle %u_o13, %u_o13 [0, 1, 2, 3] : vector<16xf32>, vector<16xf32>
          vector.store %u_w13, %y[%b, %u_si13, %rf] : memref<16x3136x4xf32>, vector<4xf32>
          %u_si14 = arith.addi %s0, %c14 : index
          %u_w14 = vector.shuffle %u_o14, %u_o14 [0, 1, 2, 3] : vector<16xf32>, vector<16xf32>
          vector.store %u_w14, %y[%b, %u_si14, %rf] : memref<16x3136x4xf32>, vector<4xf32>
          %u_si15 = arith.addi %s0, %c15 : index
          %u_w15 = vector.shuffle %u_o15, %u_o15 [0, 1, 2, 3] : vector<16xf32>, vector<16xf32>
          vector.store %u_w15, %y[%b, %u_si15, %rf] : memref<16x3136x4xf32>, vector<4xf32>

        }

        return
      }
    }
}

func.func @reorder_1x64x56x56__f32_abcd__to_f32_aBcd4b(%src: !src_dst_buf) -> !src_dst_buf {
    %v1 = flow.dispatch @reorder_1x64x56x56__f32_abcd__to_f32_aBcd4b_shuffle::@reorder_1x64x56x56__f32_abcd__to_f32_aBcd4b_shuffle(%src) : (!src_dst_buf) -> !src_dst_buf
    return %v1 : !src_dst_buf
}
