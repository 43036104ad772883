// Auto-generated file. Do not edit!
//   Template: reorder.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<200704xi8>

stream.executable private @reorder_1x64x56x56__s8_aBcd16b__to_s8_abcd_shuffle {
    stream.executable.export public @reorder_1x64x56x56__s8_aBcd16b__to_s8_abcd_shuffle workgroups() -> (index, index, index) {
      %x = arith.constant 1 : index
      %y = arith.constant 4 : index
      %z = arith.constant 1 : index
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @reorder_1x64x56x56__s8_aBcd16b__to_s8_abcd_shuffle(%x_binding: !stream.binding, %y_binding: !stream.binding) {
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
        %c17 = arith.constant 17 : index
        %c18 = arith.constant 18 : index
        %c19 = arith.constant 19 : index
        %c20 = arith.constant 20 : index
        %c21 = arith.constant 21 : index
        %c22 = arith.constant 22 : index
        %c23 = arith.constant 23 : index
        %c24 = arith.constant 24 : index
        %c25 = arith.constant 25 : index
        %c26 = arith.constant 26 : index
        %c27 = arith.constant 27 : index
        %c28 = arith.constant 28 : index
        %c29 = arith.constant 29 : index
        %c30 = arith.constant 30 : index
        %c31 = arith.constant 31 : index
        %c32 = arith.constant 32 : index
        %c33 = arith.constant 33 : index
        %c34 = arith.constant 34 : index
        %c35 = arith.constant 35 : index
        %c36 = arith.constant 36 : index
        %c37 = arith.constant 37 : index
        %c38 = arith.constant 38 : index
        %c39 = arith.constant 39 : index
        %c40 = arith.constant 40 : index
        %c41 = arith.constant 41 : index
        %c42 = arith.constant 42 : index
        %c43 = arith.constant 43 : index
        %c44 = arith.constant 44 : index
        %c45 = arith.constant 45 : index
        %c46 = arith.constant 46 : index
        %c47 = arith.constant 47 : index
        %c48 = arith.constant 48 : index
        %c49 = arith.constant 49 : index
        %c50 = arith.constant 50 : index
        %c51 = arith.constant 51 : index
        %c52 = arith.constant 52 : index
        %c53 = arith.constant 53 : index
        %c54 = arith.constant 54 : index
        %c55 = arith.constant 55 : index
        %c56 = arith.constant 56 : index
        %c57 = arith.constant 57 : index
        %c58 = arith.constant 58 : index
        %c59 = arith.constant 59 : index
        %c60 = arith.constant 60 : index
        %c61 = arith.constant 61 : index
        %c62 = arith.constant 62 : index
        %c63 = arith.constant 63 : index
        %c64 = arith.constant 64 : index
        %zv = arith.constant dense<0> : vector<16xi8>
        %x_raw = stream.binding.subspan %x_binding[%c0] : !stream.binding -> memref<200704xi8>
        %x = memref.reinterpret_cast %x_raw to offset: [0], sizes: [4, 3136, 16], strides: [50176, 16, 1] : memref<200704xi8> to memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>
        %y = stream.binding.subspan %y_binding[%c0] : !stream.binding -> memref<4x16x3136xi8>
        %w = hal.interface.workgroup.id[0] : index
        %b = hal.interface.workgroup.id[1] : index
        %span = arith.constant 16 : index
        %sf = arith.constant 16 : index
        %rf = arith.constant 3136 : index
        %lo = arith.muli %w, %span : index
        %end = arith.addi %lo, %span : index
        %hi = arith.minui %end, %sf : index
        scf.for %s0 = %lo to %hi step %c16 {
          %rtall = arith.constant 3136 : index
          scf.for %r0 = %c0 to %rtall step %c64 {
          %h_ri0_0 = arith.addi %r0, %c0 : index
          %h_p0_0 = vector.load %x[%b, %h_ri0_0, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri0_1 = arith.addi %r0, %c16 : index
          %h_p0_1 = vector.load %x[%b, %h_ri0_1, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri0_2 = arith.addi %r0, %c32 : index
          %h_p0_2 = vector.load %x[%b, %h_ri0_2, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri0_3 = arith.addi %r0, %c48 : index
          %h_p0_3 = vector.load %x[%b, %h_ri0_3, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_q0_0 = vector.shuffle %h_p0_0, %h_p0_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_q0_1 = vector.shuffle %h_p0_2, %h_p0_3 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_r0 = vector.shuffle %h_q0_0, %h_q0_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63] : vector<32xi8>, vector<32xi8>
          %h_ri1_0 = arith.addi %r0, %c1 : index
          %h_p1_0 = vector.load %x[%b, %h_ri1_0, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri1_1 = arith.addi %r0, %c17 : index
          %h_p1_1 = vector.load %x[%b, %h_ri1_1, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri1_2 = arith.addi %r0, %c33 : index
          %h_p1_2 = vector.load %x[%b, %h_ri1_2, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri1_3 = arith.addi %r0, %c49 : index
          %h_p1_3 = vector.load %x[%b, %h_ri1_3, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_q1_0 = vector.shuffle %h_p1_0, %h_p1_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_q1_1 = vector.shuffle %h_p1_2, %h_p1_3 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_r1 = vector.shuffle %h_q1_0, %h_q1_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63] : vector<32xi8>, vector<32xi8>
          %h_ri2_0 = arith.addi %r0, %c2 : index
          %h_p2_0 = vector.load %x[%b, %h_ri2_0, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri2_1 = arith.addi %r0, %c18 : index
          %h_p2_1 = vector.load %x[%b, %h_ri2_1, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri2_2 = arith.addi %r0, %c34 : index
          %h_p2_2 = vector.load %x[%b, %h_ri2_2, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri2_3 = arith.addi %r0, %c50 : index
          %h_p2_3 = vector.load %x[%b, %h_ri2_3, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_q2_0 = vector.shuffle %h_p2_0, %h_p2_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_q2_1 = vector.shuffle %h_p2_2, %h_p2_3 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_r2 = vector.shuffle %h_q2_0, %h_q2_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63] : vector<32xi8>, vector<32xi8>
          %h_ri3_0 = arith.addi %r0, %c3 : index
          %h_p3_0 = vector.load %x[%b, %h_ri3_0, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri3_1 = arith.addi %r0, %c19 : index
          %h_p3_1 = vector.load %x[%b, %h_ri3_1, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri3_2 = arith.addi %r0, %c35 : index
          %h_p3_2 = vector.load %x[%b, %h_ri3_2, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri3_3 = arith.addi %r0, %c51 : index
          %h_p3_3 = vector.load %x[%b, %h_ri3_3, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_q3_0 = vector.shuffle %h_p3_0, %h_p3_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_q3_1 = vector.shuffle %h_p3_2, %h_p3_3 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_r3 = vector.shuffle %h_q3_0, %h_q3_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63] : vector<32xi8>, vector<32xi8>
          %h_ri4_0 = arith.addi %r0, %c4 : index
          %h_p4_0 = vector.load %x[%b, %h_ri4_0, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri4_1 = arith.addi %r0, %c20 : index
          %h_p4_1 = vector.load %x[%b, %h_ri4_1, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri4_2 = arith.addi %r0, %c36 : index
          %h_p4_2 = vector.load %x[%b, %h_ri4_2, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri4_3 = arith.addi %r0, %c52 : index
          %h_p4_3 = vector.load %x[%b, %h_ri4_3, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_q4_0 = vector.shuffle %h_p4_0, %h_p4_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_q4_1 = vector.shuffle %h_p4_2, %h_p4_3 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_r4 = vector.shuffle %h_q4_0, %h_q4_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63] : vector<32xi8>, vector<32xi8>
          %h_ri5_0 = arith.addi %r0, %c5 : index
          %h_p5_0 = vector.load %x[%b, %h_ri5_0, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri5_1 = arith.addi %r0, %c21 : index
          %h_p5_1 = vector.load %x[%b, %h_ri5_1, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri5_2 = arith.addi %r0, %c37 : index
          %h_p5_2 = vector.load %x[%b, %h_ri5_2, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri5_3 = arith.addi %r0, %c53 : index
          %h_p5_3 = vector.load %x[%b, %h_ri5_3, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_q5_0 = vector.shuffle %h_p5_0, %h_p5_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_q5_1 = vector.shuffle %h_p5_2, %h_p5_3 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_r5 = vector.shuffle %h_q5_0, %h_q5_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63] : vector<32xi8>, vector<32xi8>
          %h_ri6_0 = arith.addi %r0, %c6 : index
          %h_p6_0 = vector.load %x[%b, %h_ri6_0, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri6_1 = arith.addi %r0, %c22 : index
          %h_p6_1 = vector.load %x[%b, %h_ri6_1, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri6_2 = arith.addi %r0, %c38 : index
          %h_p6_2 = vector.load %x[%b, %h_ri6_2, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri6_3 = arith.addi %r0, %c54 : index
          %h_p6_3 = vector.load %x[%b, %h_ri6_3, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_q6_0 = vector.shuffle %h_p6_0, %h_p6_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_q6_1 = vector.shuffle %h_p6_2, %h_p6_3 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_r6 = vector.shuffle %h_q6_0, %h_q6_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63] : vector<32xi8>, vector<32xi8>
          %h_ri7_0 = arith.addi %r0, %c7 : index
          %h_p7_0 = vector.load %x[%b, %h_ri7_0, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri7_1 = arith.addi %r0, %c23 : index
          %h_p7_1 = vector.load %x[%b, %h_ri7_1, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri7_2 = arith.addi %r0, %c39 : index
          %h_p7_2 = vector.load %x[%b, %h_ri7_2, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri7_3 = arith.addi %r0, %c55 : index
          %h_p7_3 = vector.load %x[%b, %h_ri7_3, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_q7_0 = vector.shuffle %h_p7_0, %h_p7_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_q7_1 = vector.shuffle %h_p7_2, %h_p7_3 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_r7 = vector.shuffle %h_q7_0, %h_q7_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63] : vector<32xi8>, vector<32xi8>
          %h_ri8_0 = arith.addi %r0, %c8 : index
          %h_p8_0 = vector.load %x[%b, %h_ri8_0, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri8_1 = arith.addi %r0, %c24 : index
          %h_p8_1 = vector.load %x[%b, %h_ri8_1, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri8_2 = arith.addi %r0, %c40 : index
          %h_p8_2 = vector.load %x[%b, %h_ri8_2, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri8_3 = arith.addi %r0, %c56 : index
          %h_p8_3 = vector.load %x[%b, %h_ri8_3, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_q8_0 = vector.shuffle %h_p8_0, %h_p8_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_q8_1 = vector.shuffle %h_p8_2, %h_p8_3 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_r8 = vector.shuffle %h_q8_0, %h_q8_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63] : vector<32xi8>, vector<32xi8>
          %h_ri9_0 = arith.addi %r0, %c9 : index
          %h_p9_0 = vector.load %x[%b, %h_ri9_0, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri9_1 = arith.addi %r0, %c25 : index
          %h_p9_1 = vector.load %x[%b, %h_ri9_1, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri9_2 = arith.addi %r0, %c41 : index
          %h_p9_2 = vector.load %x[%b, %h_ri9_2, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri9_3 = arith.addi %r0, %c57 : index
          %h_p9_3 = vector.load %x[%b, %h_ri9_3, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_q9_0 = vector.shuffle %h_p9_0, %h_p9_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_q9_1 = vector.shuffle %h_p9_2, %h_p9_3 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_r9 = vector.shuffle %h_q9_0, %h_q9_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63] : vector<32xi8>, vector<32xi8>
          %h_ri10_0 = arith.addi %r0, %c10 : index
          %h_p10_0 = vector.load %x[%b, %h_ri10_0, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri10_1 = arith.addi %r0, %c26 : index
          %h_p10_1 = vector.load %x[%b, %h_ri10_1, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri10_2 = arith.addi %r0, %c42 : index
          %h_p10_2 = vector.load %x[%b, %h_ri10_2, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri10_3 = arith.addi %r0, %c58 : index
          %h_p10_3 = vector.load %x[%b, %h_ri10_3, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_q10_0 = vector.shuffle %h_p10_0, %h_p10_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_q10_1 = vector.shuffle %h_p10_2, %h_p10_3 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_r10 = vector.shuffle %h_q10_0, %h_q10_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63] : vector<32xi8>, vector<32xi8>
          %h_ri11_0 = arith.addi %r0, %c11 : index
          %h_p11_0 = vector.load %x[%b, %h_ri11_0, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri11_1 = arith.addi %r0, %c27 : index
          %h_p11_1 = vector.load %x[%b, %h_ri11_1, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri11_2 = arith.addi %r0, %c43 : index
          %h_p11_2 = vector.load %x[%b, %h_ri11_2, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri11_3 = arith.addi %r0, %c59 : index
          %h_p11_3 = vector.load %x[%b, %h_ri11_3, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_q11_0 = vector.shuffle %h_p11_0, %h_p11_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_q11_1 = vector.shuffle %h_p11_2, %h_p11_3 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_r11 = vector.shuffle %h_q11_0, %h_q11_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63] : vector<32xi8>, vector<32xi8>
          %h_ri12_0 = arith.addi %r0, %c12 : index
          %h_p12_0 = vector.load %x[%b, %h_ri12_0, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri12_1 = arith.addi %r0, %c28 : index
          %h_p12_1 = vector.load %x[%b, %h_ri12_1, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri12_2 = arith.addi %r0, %c44 : index
          %h_p12_2 = vector.load %x[%b, %h_ri12_2, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri12_3 = arith.addi %r0, %c60 : index
          %h_p12_3 = vector.load %x[%b, %h_ri12_3, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_q12_0 = vector.shuffle %h_p12_0, %h_p12_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_q12_1 = vector.shuffle %h_p12_2, %h_p12_3 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_r12 = vector.shuffle %h_q12_0, %h_q12_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63] : vector<32xi8>, vector<32xi8>
          %h_ri13_0 = arith.addi %r0, %c13 : index
          %h_p13_0 = vector.load %x[%b, %h_ri13_0, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri13_1 = arith.addi %r0, %c29 : index
          %h_p13_1 = vector.load %x[%b, %h_ri13_1, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri13_2 = arith.addi %r0, %c45 : index
          %h_p13_2 = vector.load %x[%b, %h_ri13_2, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri13_3 = arith.addi %r0, %c61 : index
          %h_p13_3 = vector.load %x[%b, %h_ri13_3, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_q13_0 = vector.shuffle %h_p13_0, %h_p13_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_q13_1 = vector.shuffle %h_p13_2, %h_p13_3 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_r13 = vector.shuffle %h_q13_0, %h_q13_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63] : vector<32xi8>, vector<32xi8>
          %h_ri14_0 = arith.addi %r0, %c14 : index
          %h_p14_0 = vector.load %x[%b, %h_ri14_0, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri14_1 = arith.addi %r0, %c30 : index
          %h_p14_1 = vector.load %x[%b, %h_ri14_1, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri14_2 = arith.addi %r0, %c46 : index
          %h_p14_2 = vector.load %x[%b, %h_ri14_2, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri14_3 = arith.addi %r0, %c62 : index
          %h_p14_3 = vector.load %x[%b, %h_ri14_3, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_q14_0 = vector.shuffle %h_p14_0, %h_p14_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_q14_1 = vector.shuffle %h_p14_2, %h_p14_3 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_r14 = vector.shuffle %h_q14_0, %h_q14_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63] : vector<32xi8>, vector<32xi8>
          %h_ri15_0 = arith.addi %r0, %c15 : index
          %h_p15_0 = vector.load %x[%b, %h_ri15_0, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri15_1 = arith.addi %r0, %c31 : index
          %h_p15_1 = vector.load %x[%b, %h_ri15_1, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri15_2 = arith.addi %r0, %c47 : index
          %h_p15_2 = vector.load %x[%b, %h_ri15_2, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_ri15_3 = arith.addi %r0, %c63 : index
          %h_p15_3 = vector.load %x[%b, %h_ri15_3, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %h_q15_0 = vector.shuffle %h_p15_0, %h_p15_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_q15_1 = vector.shuffle %h_p15_2, %h_p15_3 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %h_r15 = vector.shuffle %h_q15_0, %h_q15_1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63] : vector<32xi8>, vector<32xi8>
          %h_a0 = vector.shuffle %h_r0, %h_r1 [0, 64, 1, 65, 4, 68, 5, 69, 8, 72, 9, 73, 12, 76, 13, 77, 16, 80, 17, 81, 20, 84, 21, 85, 24, 88, 25, 89, 28, 92, 29, 93, 32, 96, 33, 97, 36, 100, 37, 101, 40, 104, 41, 105, 44, 108, 45, 109, 48, 112, 49, 113, 52, 116, 53, 117, 56, 120, 57, 121, 60, 124, 61, 125] : vector<64xi8>, vector<64xi8>
          %h_a1 = vector.shuffle %h_r0, %h_r1 [2, 66, 3, 67, 6, 70, 7, 71, 10, 74, 11, 75, 14, 78, 15, 79, 18, 82, 19, 83, 22, 86, 23, 87, 26, 90, 27, 91, 30, 94, 31, 95, 34, 98, 35, 99, 38, 102, 39, 103, 42, 106, 43, 107, 46, 110, 47, 111, 50, 114, 51, 115, 54, 118, 55, 119, 58, 122, 59, 123, 62, 126, 63, 127] : vector<64xi8>, vector<64xi8>
          %h_a2 = vector.shuffle %h_r2, %h_r3 [0, 64, 1, 65, 4, 68, 5, 69, 8, 72, 9, 73, 12, 76, 13, 77, 16, 80, 17, 81, 20, 84, 21, 85, 24, 88, 25, 89, 28, 92, 29, 93, 32, 96, 33, 97, 36, 100, 37, 101, 40, 104, 41, 105, 44, 108, 45, 109, 48, 112, 49, 113, 52, 116, 53, 117, 56, 120, 57, 121, 60, 124, 61, 125] : vector<64xi8>, vector<64xi8>
          %h_a3 = vector.shuffle %h_r2, %h_r3 [2, 66, 3, 67, 6, 70, 7, 71, 10, 74, 11, 75, 14, 78, 15, 79, 18, 82, 19, 83, 22, 86, 23, 87, 26, 90, 27, 91, 30, 94, 31, 95, 34, 98, 35, 99, 38, 102, 39, 103, 42, 106, 43, 107, 46, 110, 47, 111, 50, 114, 51, 115, 54, 118, 55, 119, 58, 122, 59, 123, 62, 126, 63, 127] : vector<64xi8>, vector<64xi8>
          %h_a4 = vector.shuffle %h_r4, %h_r5 [0, 64, 1, 65, 4, 68, 5, 69, 8, 72, 9, 73, 12, 76, 13, 77, 16, 80, 17, 81, 20, 84, 21, 85, 24, 88, 25, 89, 28, 92, 29, 93, 32, 96, 33, 97, 36, 100, 37, 101, 40, 104, 41, 105, 44, 108, 45, 109, 48, 112, 49, 113, 52, 116, 53, 117, 56, 120, 57, 121, 60, 124, 61, 125] : vector<64xi8>, vector<64xi8>
          %h_a5 = vector.shuffle %h_r4, %h_r5 [2, 66, 3, 67, 6, 70, 7, 71, 10, 74, 11, 75, 14, 78, 15, 79, 18, 82, 19, 83, 22, 86, 23, 87, 26, 90, 27, 91, 30, 94, 31, 95, 34, 98, 35, 99, 38, 102, 39, 103, 42, 106, 43, 107, 46, 110, 47, 111, 50, 114, 51, 115, 54, 118, 55, 119, 58, 122, 59, 123, 62, 126, 63, 127] : vector<64xi8>, vector<64xi8>
          %h_a6 = vector.shuffle %h_r6, %h_r7 [0, 64, 1, 65, 4, 68, 5, 69, 8, 72, 9, 73, 12, 76, 13, 77, 16, 80, 17, 81, 20, 84, 21, 85, 24, 88, 25, 89, 28, 92, 29, 93, 32, 96, 33, 97, 36, 100, 37, 101, 40, 104, 41, 105, 44, 108, 45, 109, 48, 112, 49, 113, 52, 116, 53, 117, 56, 120, 57, 121, 60, 124, 61, 125] : vector<64xi8>, vector<64xi8>
          %h_a7 = vector.shuffle %h_r6, %h_r7 [2, 66, 3, 67, 6, 70, 7, 71, 10, 74, 11, 75, 14, 78, 15, 79, 18, 82, 19, 83, 22, 86, 23, 87, 26, 90, 27, 91, 30, 94, 31, 95, 34, 98, 35, 99, 38, 102, 39, 103, 42, 106, 43, 107, 46, 110, 47, 111, 50, 114, 51, 115, 54, 118, 55, 119, 58, 122, 59, 123, 62, 126, 63, 127] : vector<64xi8>, vector<64xi8>
          %h_a8 = vector.shuffle %h_r8, %h_r9 [0, 64, 1, 65, 4, 68, 5, 69, 8, 72, 9, 73, 12, 76, 13, 77, 16, 80, 17, 81, 20, 84, 21, 85, 24, 88, 25, 89, 28, 92, 29, 93, 32, 96, 33, 97, 36, 100, 37, 101, 40, 104, 41, 105, 44, 108, 45, 109, 48, 112, 49, 113, 52, 116, 53, 117, 56, 120, 57, 121, 60, 124, 61, 125] : vector<64xi8>, vector<64xi8>
          %h_a9 = vector.shuffle %h_r8, %h_r9 [2, 66, 3, 67, 6, 70, 7, 71, 10, 74, 11, 75, 14, 78, 15, 79, 18, 82, 19, 83, 22, 86, 23, 87, 26, 90, 27, 91, 30, 94, 31, 95, 34, 98, 35, 99, 38, 102, 39, 103, 42, 106, 43, 107, 46, 110, 47, 111, 50, 114, 51, 115, 54, 118, 55, 119, 58, 122, 59, 123, 62, 126, 63, 127] : vector<64xi8>, vector<64xi8>
          %h_a10 = vector.shuffle %h_r10, %h_r11 [0, 64, 1, 65, 4, 68, 5, 69, 8, 72, 9, 73, 12, 76, 13, 77, 16, 80, 17, 81, 20, 84, 21, 85, 24, 88, 25, 89, 28, 92, 29, 93, 32, 96, 33, 97, 36, 100, 37, 101, 40, 104, 41, 105, 44, 108, 45, 109, 48, 112, 49, 113, 52, 116, 53, 117, 56, 120, 57, 121, 60, 124, 61, 125] : vector<64xi8>, vector<64xi8>
          %h_a11 = vector.shuffle %h_r10, %h_r11 [2, 66, 3, 67, 6, 70, 7, 71, 10, 74, 11, 75, 14, 78, 15, 79, 18, 82, 19, 83, 22, 86, 23, 87, 26, 90, 27, 91, 30, 94, 31, 95, 34, 98, 35, 99, 38, 102, 39, 103, 42, 106, 43, 107, 46, 110, 47, 111, 50, 114, 51, 115, 54, 118, 55, 119, 58, 122, 59, 123, 62, 126, 63, 127] : vector<64xi8>, vector<64xi8>
          %h_a12 = vector.shuffle %h_r12, %h_r13 [0, 64, 1, 65, 4, 68, 5, 69, 8, 72, 9, 73, 12, 76, 13, 77, 16, 80, 17, 81, 20, 84, 21, 85, 24, 88, 25, 89, 28, 92, 29, 93, 32, 96, 33, 97, 36, 100, 37, 101, 40, 104, 41, 105, 44, 108, 45, 109, 48, 112, 49, 113, 52, 116, 53, 117, 56, 120, 57, 121, 60, 124, 61, 125] : vector<64xi8>, vector<64xi8>
          %h_a13 = vector.shuffle %h_r12, %h_r13 [2, 66, 3, 67, 6, 70, 7, 71, 10, 74, 11, 75, 14, 78, 15, 79, 18, 82, 19, 83, 22, 86, 23, 87, 26, 90, 27, 91, 30, 94, 31, 95, 34, 98, 35, 99, 38, 102, 39, 103, 42, 106, 43, 107, 46, 110, 47, 111, 50, 114, 51, 115, 54, 118, 55, 119, 58, 122, 59, 123, 62, 126, 63, 127] : vector<64xi8>, vector<64xi8>
          %h_a14 = vector.shuffle %h_r14, %h_r15 [0, 64, 1, 65, 4, 68, 5, 69, 8, 72, 9, 73, 12, 76, 13, 77, 16, 80, 17, 81, 20, 84, 21, 85, 24, 88, 25, 89, 28, 92, 29, 93, 32, 96, 33, 97, 36, 100, 37, 101, 40, 104, 41, 105, 44, 108, 45, 109, 48, 112, 49, 113, 52, 116, 53, 117, 56, 120, 57, 121, 60, 124, 61, 125] : vector<64xi8>, vector<64xi8>
          %h_a15 = vector.shuffle %h_r14, %h_r15 [2, 66, 3, 67, 6, 70, 7, 71, 10, 74, 11, 75, 14, 78, 15, 79, 18, 82, 19, 83, 22, 86, 23, 87, 26, 90, 27, 91, 30, 94, 31, 95, 34, 98, 35, 99, 38, 102, 39, 103, 42, 106, 43, 107, 46, 110, 47, 111, 50, 114, 51, 115, 54, 118, 55, 119, 58, 122, 59, 123, 62, 126, 63, 127] : vector<64xi8>, vector<64xi8>
          %h_b0 = vector.shuffle %h_a0, %h_a2 [0, 1, 64, 65, 4, 5, 68, 69, 8, 9, 72, 73, 12, 13, 76, 77, 16, 17, 80, 81, 20, 21, 84, 85, 24, 25, 88, 89, 28, 29, 92, 93, 32, 33, 96, 97, 36, 37, 100, 101, 40, 41, 104, 105, 44, 45, 108, 109, 48, 49, 112, 113, 52, 53, 116, 117, 56, 57, 120, 121, 60, 61, 124, 125] : vector<64xi8>, vector<64xi8>
          %h_b1 = vector.shuffle %h_a0, %h_a2 [2, 3, 66, 67, 6, 7, 70, 71, 10, 11, 74, 75, 14, 15, 78, 79, 18, 19, 82, 83, 22, 23, 86, 87, 26, 27, 90, 91, 30, 31, 94, 95, 34, 35, 98, 99, 38, 39, 102, 103, 42, 43, 106, 107, 46, 47, 110, 111, 50, 51, 114, 115, 54, 55, 118, 119, 58, 59, 122, 123, 62, 63, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_b2 = vector.shuffle %h_a1, %h_a3 [0, 1, 64, 65, 4, 5, 68, 69, 8, 9, 72, 73, 12, 13, 76, 77, 16, 17, 80, 81, 20, 21, 84, 85, 24, 25, 88, 89, 28, 29, 92, 93, 32, 33, 96, 97, 36, 37, 100, 101, 40, 41, 104, 105, 44, 45, 108, 109, 48, 49, 112, 113, 52, 53, 116, 117, 56, 57, 120, 121, 60, 61, 124, 125] : vector<64xi8>, vector<64xi8>
          %h_b3 = vector.shuffle %h_a1, %h_a3 [2, 3, 66, 67, 6, 7, 70, 71, 10, 11, 74, 75, 14, 15, 78, 79, 18, 19, 82, 83, 22, 23, 86, 87, 26, 27, 90, 91, 30, 31, 94, 95, 34, 35, 98, 99, 38, 39, 102, 103, 42, 43, 106, 107, 46, 47, 110, 111, 50, 51, 114, 115, 54, 55, 118, 119, 58, 59, 122, 123, 62, 63, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_b4 = vector.shuffle %h_a4, %h_a6 [0, 1, 64, 65, 4, 5, 68, 69, 8, 9, 72, 73, 12, 13, 76, 77, 16, 17, 80, 81, 20, 21, 84, 85, 24, 25, 88, 89, 28, 29, 92, 93, 32, 33, 96, 97, 36, 37, 100, 101, 40, 41, 104, 105, 44, 45, 108, 109, 48, 49, 112, 113, 52, 53, 116, 117, 56, 57, 120, 121, 60, 61, 124, 125] : vector<64xi8>, vector<64xi8>
          %h_b5 = vector.shuffle %h_a4, %h_a6 [2, 3, 66, 67, 6, 7, 70, 71, 10, 11, 74, 75, 14, 15, 78, 79, 18, 19, 82, 83, 22, 23, 86, 87, 26, 27, 90, 91, 30, 31, 94, 95, 34, 35, 98, 99, 38, 39, 102, 103, 42, 43, 106, 107, 46, 47, 110, 111, 50, 51, 114, 115, 54, 55, 118, 119, 58, 59, 122, 123, 62, 63, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_b6 = vector.shuffle %h_a5, %h_a7 [0, 1, 64, 65, 4, 5, 68, 69, 8, 9, 72, 73, 12, 13, 76, 77, 16, 17, 80, 81, 20, 21, 84, 85, 24, 25, 88, 89, 28, 29, 92, 93, 32, 33, 96, 97, 36, 37, 100, 101, 40, 41, 104, 105, 44, 45, 108, 109, 48, 49, 112, 113, 52, 53, 116, 117, 56, 57, 120, 121, 60, 61, 124, 125] : vector<64xi8>, vector<64xi8>
          %h_b7 = vector.shuffle %h_a5, %h_a7 [2, 3, 66, 67, 6, 7, 70, 71, 10, 11, 74, 75, 14, 15, 78, 79, 18, 19, 82, 83, 22, 23, 86, 87, 26, 27, 90, 91, 30, 31, 94, 95, 34, 35, 98, 99, 38, 39, 102, 103, 42, 43, 106, 107, 46, 47, 110, 111, 50, 51, 114, 115, 54, 55, 118, 119, 58, 59, 122, 123, 62, 63, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_b8 = vector.shuffle %h_a8, %h_a10 [0, 1, 64, 65, 4, 5, 68, 69, 8, 9, 72, 73, 12, 13, 76, 77, 16, 17, 80, 81, 20, 21, 84, 85, 24, 25, 88, 89, 28, 29, 92, 93, 32, 33, 96, 97, 36, 37, 100, 101, 40, 41, 104, 105, 44, 45, 108, 109, 48, 49, 112, 113, 52, 53, 116, 117, 56, 57, 120, 121, 60, 61, 124, 125] : vector<64xi8>, vector<64xi8>
          %h_b9 = vector.shuffle %h_a8, %h_a10 [2, 3, 66, 67, 6, 7, 70, 71, 10, 11, 74, 75, 14, 15, 78, 79, 18, 19, 82, 83, 22, 23, 86, 87, 26, 27, 90, 91, 30, 31, 94, 95, 34, 35, 98, 99, 38, 39, 102, 103, 42, 43, 106, 107, 46, 47, 110, 111, 50, 51, 114, 115, 54, 55, 118, 119, 58, 59, 122, 123, 62, 63, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_b10 = vector.shuffle %h_a9, %h_a11 [0, 1, 64, 65, 4, 5, 68, 69, 8, 9, 72, 73, 12, 13, 76, 77, 16, 17, 80, 81, 20, 21, 84, 85, 24, 25, 88, 89, 28, 29, 92, 93, 32, 33, 96, 97, 36, 37, 100, 101, 40, 41, 104, 105, 44, 45, 108, 109, 48, 49, 112, 113, 52, 53, 116, 117, 56, 57, 120, 121, 60, 61, 124, 125] : vector<64xi8>, vector<64xi8>
          %h_b11 = vector.shuffle %h_a9, %h_a11 [2, 3, 66, 67, 6, 7, 70, 71, 10, 11, 74, 75, 14, 15, 78, 79, 18, 19, 82, 83, 22, 23, 86, 87, 26, 27, 90, 91, 30, 31, 94, 95, 34, 35, 98, 99, 38, 39, 102, 103, 42, 43, 106, 107, 46, 47, 110, 111, 50, 51, 114, 115, 54, 55, 118, 119, 58, 59, 122, 123, 62, 63, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_b12 = vector.shuffle %h_a12, %h_a14 [0, 1, 64, 65, 4, 5, 68, 69, 8, 9, 72, 73, 12, 13, 76, 77, 16, 17, 80, 81, 20, 21, 84, 85, 24, 25, 88, 89, 28, 29, 92, 93, 32, 33, 96, 97, 36, 37, 100, 101, 40, 41, 104, 105, 44, 45, 108, 109, 48, 49, 112, 113, 52, 53, 116, 117, 56, 57, 120, 121, 60, 61, 124, 125] : vector<64xi8>, vector<64xi8>
          %h_b13 = vector.shuffle %h_a12, %h_a14 [2, 3, 66, 67, 6, 7, 70, 71, 10, 11, 74, 75, 14, 15, 78, 79, 18, 19, 82, 83, 22, 23, 86, 87, 26, 27, 90, 91, 30, 31, 94, 95, 34, 35, 98, 99, 38, 39, 102, 103, 42, 43, 106, 107, 46, 47, 110, 111, 50, 51, 114, 115, 54, 55, 118, 119, 58, 59, 122, 123, 62, 63, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_b14 = vector.shuffle %h_a13, %h_a15 [0, 1, 64, 65, 4, 5, 68, 69, 8, 9, 72, 73, 12, 13, 76, 77, 16, 17, 80, 81, 20, 21, 84, 85, 24, 25, 88, 89, 28, 29, 92, 93, 32, 33, 96, 97, 36, 37, 100, 101, 40, 41, 104, 105, 44, 45, 108, 109, 48, 49, 112, 113, 52, 53, 116, 117, 56, 57, 120, 121, 60, 61, 124, 125] : vector<64xi8>, vector<64xi8>
          %h_b15 = vector.shuffle %h_a13, %h_a15 [2, 3, 66, 67, 6, 7, 70, 71, 10, 11, 74, 75, 14, 15, 78, 79, 18, 19, 82, 83, 22, 23, 86, 87, 26, 27, 90, 91, 30, 31, 94, 95, 34, 35, 98, 99, 38, 39, 102, 103, 42, 43, 106, 107, 46, 47, 110, 111, 50, 51, 114, 115, 54, 55, 118, 119, 58, 59, 122, 123, 62, 63, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_c0 = vector.shuffle %h_b0, %h_b4 [0, 1, 2, 3, 8, 9, 10, 11, 64, 65, 66, 67, 72, 73, 74, 75, 16, 17, 18, 19, 24, 25, 26, 27, 80, 81, 82, 83, 88, 89, 90, 91, 32, 33, 34, 35, 40, 41, 42, 43, 96, 97, 98, 99, 104, 105, 106, 107, 48, 49, 50, 51, 56, 57, 58, 59, 112, 113, 114, 115, 120, 121, 122, 123] : vector<64xi8>, vector<64xi8>
          %h_c4 = vector.shuffle %h_b0, %h_b4 [4, 5, 6, 7, 12, 13, 14, 15, 68, 69, 70, 71, 76, 77, 78, 79, 20, 21, 22, 23, 28, 29, 30, 31, 84, 85, 86, 87, 92, 93, 94, 95, 36, 37, 38, 39, 44, 45, 46, 47, 100, 101, 102, 103, 108, 109, 110, 111, 52, 53, 54, 55, 60, 61, 62, 63, 116, 117, 118, 119, 124, 125, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_c1 = vector.shuffle %h_b1, %h_b5 [0, 1, 2, 3, 8, 9, 10, 11, 64, 65, 66, 67, 72, 73, 74, 75, 16, 17, 18, 19, 24, 25, 26, 27, 80, 81, 82, 83, 88, 89, 90, 91, 32, 33, 34, 35, 40, 41, 42, 43, 96, 97, 98, 99, 104, 105, 106, 107, 48, 49, 50, 51, 56, 57, 58, 59, 112, 113, 114, 115, 120, 121, 122, 123] : vector<64xi8>, vector<64xi8>
          %h_c5 = vector.shuffle %h_b1, %h_b5 [4, 5, 6, 7, 12, 13, 14, 15, 68, 69, 70, 71, 76, 77, 78, 79, 20, 21, 22, 23, 28, 29, 30, 31, 84, 85, 86, 87, 92, 93, 94, 95, 36, 37, 38, 39, 44, 45, 46, 47, 100, 101, 102, 103, 108, 109, 110, 111, 52, 53, 54, 55, 60, 61, 62, 63, 116, 117, 118, 119, 124, 125, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_c2 = vector.shuffle %h_b2, %h_b6 [0, 1, 2, 3, 8, 9, 10, 11, 64, 65, 66, 67, 72, 73, 74, 75, 16, 17, 18, 19, 24, 25, 26, 27, 80, 81, 82, 83, 88, 89, 90, 91, 32, 33, 34, 35, 40, 41, 42, 43, 96, 97, 98, 99, 104, 105, 106, 107, 48, 49, 50, 51, 56, 57, 58, 59, 112, 113, 114, 115, 120, 121, 122, 123] : vector<64xi8>, vector<64xi8>
          %h_c6 = vector.shuffle %h_b2, %h_b6 [4, 5, 6, 7, 12, 13, 14, 15, 68, 69, 70, 71, 76, 77, 78, 79, 20, 21, 22, 23, 28, 29, 30, 31, 84, 85, 86, 87, 92, 93, 94, 95, 36, 37, 38, 39, 44, 45, 46, 47, 100, 101, 102, 103, 108, 109, 110, 111, 52, 53, 54, 55, 60, 61, 62, 63, 116, 117, 118, 119, 124, 125, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_c3 = vector.shuffle %h_b3, %h_b7 [0, 1, 2, 3, 8, 9, 10, 11, 64, 65, 66, 67, 72, 73, 74, 75, 16, 17, 18, 19, 24, 25, 26, 27, 80, 81, 82, 83, 88, 89, 90, 91, 32, 33, 34, 35, 40, 41, 42, 43, 96, 97, 98, 99, 104, 105, 106, 107, 48, 49, 50, 51, 56, 57, 58, 59, 112, 113, 114, 115, 120, 121, 122, 123] : vector<64xi8>, vector<64xi8>
          %h_c7 = vector.shuffle %h_b3, %h_b7 [4, 5, 6, 7, 12, 13, 14, 15, 68, 69, 70, 71, 76, 77, 78, 79, 20, 21, 22, 23, 28, 29, 30, 31, 84, 85, 86, 87, 92, 93, 94, 95, 36, 37, 38, 39, 44, 45, 46, 47, 100, 101, 102, 103, 108, 109, 110, 111, 52, 53, 54, 55, 60, 61, 62, 63, 116, 117, 118, 119, 124, 125, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_c8 = vector.shuffle %h_b8, %h_b12 [0, 1, 2, 3, 8, 9, 10, 11, 64, 65, 66, 67, 72, 73, 74, 75, 16, 17, 18, 19, 24, 25, 26, 27, 80, 81, 82, 83, 88, 89, 90, 91, 32, 33, 34, 35, 40, 41, 42, 43, 96, 97, 98, 99, 104, 105, 106, 107, 48, 49, 50, 51, 56, 57, 58, 59, 112, 113, 114, 115, 120, 121, 122, 123] : vector<64xi8>, vector<64xi8>
          %h_c12 = vector.shuffle %h_b8, %h_b12 [4, 5, 6, 7, 12, 13, 14, 15, 68, 69, 70, 71, 76, 77, 78, 79, 20, 21, 22, 23, 28, 29, 30, 31, 84, 85, 86, 87, 92, 93, 94, 95, 36, 37, 38, 39, 44, 45, 46, 47, 100, 101, 102, 103, 108, 109, 110, 111, 52, 53, 54, 55, 60, 61, 62, 63, 116, 117, 118, 119, 124, 125, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_c9 = vector.shuffle %h_b9, %h_b13 [0, 1, 2, 3, 8, 9, 10, 11, 64, 65, 66, 67, 72, 73, 74, 75, 16, 17, 18, 19, 24, 25, 26, 27, 80, 81, 82, 83, 88, 89, 90, 91, 32, 33, 34, 35, 40, 41, 42, 43, 96, 97, 98, 99, 104, 105, 106, 107, 48, 49, 50, 51, 56, 57, 58, 59, 112, 113, 114, 115, 120, 121, 122, 123] : vector<64xi8>, vector<64xi8>
          %h_c13 = vector.shuffle %h_b9, %h_b13 [4, 5, 6, 7, 12, 13, 14, 15, 68, 69, 70, 71, 76, 77, 78, 79, 20, 21, 22, 23, 28, 29, 30, 31, 84, 85, 86, 87, 92, 93, 94, 95, 36, 37, 38, 39, 44, 45, 46, 47, 100, 101, 102, 103, 108, 109, 110, 111, 52, 53, 54, 55, 60, 61, 62, 63, 116, 117, 118, 119, 124, 125, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_c10 = vector.shuffle %h_b10, %h_b14 [0, 1, 2, 3, 8, 9, 10, 11, 64, 65, 66, 67, 72, 73, 74, 75, 16, 17, 18, 19, 24, 25, 26, 27, 80, 81, 82, 83, 88, 89, 90, 91, 32, 33, 34, 35, 40, 41, 42, 43, 96, 97, 98, 99, 104, 105, 106, 107, 48, 49, 50, 51, 56, 57, 58, 59, 112, 113, 114, 115, 120, 121, 122, 123] : vector<64xi8>, vector<64xi8>
          %h_c14 = vector.shuffle %h_b10, %h_b14 [4, 5, 6, 7, 12, 13, 14, 15, 68, 69, 70, 71, 76, 77, 78, 79, 20, 21, 22, 23, 28, 29, 30, 31, 84, 85, 86, 87, 92, 93, 94, 95, 36, 37, 38, 39, 44, 45, 46, 47, 100, 101, 102, 103, 108, 109, 110, 111, 52, 53, 54, 55, 60, 61, 62, 63, 116, 117, 118, 119, 124, 125, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_c11 = vector.shuffle %h_b11, %h_b15 [0, 1, 2, 3, 8, 9, 10, 11, 64, 65, 66, 67, 72, 73, 74, 75, 16, 17, 18, 19, 24, 25, 26, 27, 80, 81, 82, 83, 88, 89, 90, 91, 32, 33, 34, 35, 40, 41, 42, 43, 96, 97, 98, 99, 104, 105, 106, 107, 48, 49, 50, 51, 56, 57, 58, 59, 112, 113, 114, 115, 120, 121, 122, 123] : vector<64xi8>, vector<64xi8>
          %h_c15 = vector.shuffle %h_b11, %h_b15 [4, 5, 6, 7, 12, 13, 14, 15, 68, 69, 70, 71, 76, 77, 78, 79, 20, 21, 22, 23, 28, 29, 30, 31, 84, 85, 86, 87, 92, 93, 94, 95, 36, 37, 38, 39, 44, 45, 46, 47, 100, 101, 102, 103, 108, 109, 110, 111, 52, 53, 54, 55, 60, 61, 62, 63, 116, 117, 118, 119, 124, 125, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_o0 = vector.shuffle %h_c0, %h_c8 [0, 1, 2, 3, 8, 9, 10, 11, 64, 65, 66, 67, 72, 73, 74, 75, 16, 17, 18, 19, 24, 25, 26, 27, 80, 81, 82, 83, 88, 89, 90, 91, 32, 33, 34, 35, 40, 41, 42, 43, 96, 97, 98, 99, 104, 105, 106, 107, 48, 49, 50, 51, 56, 57, 58, 59, 112, 113, 114, 115, 120, 121, 122, 123] : vector<64xi8>, vector<64xi8>
          %h_o8 = vector.shuffle %h_c0, %h_c8 [4, 5, 6, 7, 12, 13, 14, 15, 68, 69, 70, 71, 76, 77, 78, 79, 20, 21, 22, 23, 28, 29, 30, 31, 84, 85, 86, 87, 92, 93, 94, 95, 36, 37, 38, 39, 44, 45, 46, 47, 100, 101, 102, 103, 108, 109, 110, 111, 52, 53, 54, 55, 60, 61, 62, 63, 116, 117, 118, 119, 124, 125, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_o1 = vector.shuffle %h_c1, %h_c9 [0, 1, 2, 3, 8, 9, 10, 11, 64, 65, 66, 67, 72, 73, 74, 75, 16, 17, 18, 19, 24, 25, 26, 27, 80, 81, 82, 83, 88, 89, 90, 91, 32, 33, 34, 35, 40, 41, 42, 43, 96, 97, 98, 99, 104, 105, 106, 107, 48, 49, 50, 51, 56, 57, 58, 59, 112, 113, 114, 115, 120, 121, 122, 123] : vector<64xi8>, vector<64xi8>
          %h_o9 = vector.shuffle %h_c1, %h_c9 [4, 5, 6, 7, 12, 13, 14, 15, 68, 69, 70, 71, 76, 77, 78, 79, 20, 21, 22, 23, 28, 29, 30, 31, 84, 85, 86, 87, 92, 93, 94, 95, 36, 37, 38, 39, 44, 45, 46, 47, 100, 101, 102, 103, 108, 109, 110, 111, 52, 53, 54, 55, 60, 61, 62, 63, 116, 117, 118, 119, 124, 125, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_o2 = vector.shuffle %h_c2, %h_c10 [0, 1, 2, 3, 8, 9, 10, 11, 64, 65, 66, 67, 72, 73, 74, 75, 16, 17, 18, 19, 24, 25, 26, 27, 80, 81, 82, 83, 88, 89, 90, 91, 32, 33, 34, 35, 40, 41, 42, 43, 96, 97, 98, 99, 104, 105, 106, 107, 48, 49, 50, 51, 56, 57, 58, 59, 112, 113, 114, 115, 120, 121, 122, 123] : vector<64xi8>, vector<64xi8>
          %h_o10 = vector.shuffle %h_c2, %h_c10 [4, 5, 6, 7, 12, 13, 14, 15, 68, 69, 70, 71, 76, 77, 78, 79, 20, 21, 22, 23, 28, 29, 30, 31, 84, 85, 86, 87, 92, 93, 94, 95, 36, 37, 38, 39, 44, 45, 46, 47, 100, 101, 102, 103, 108, 109, 110, 111, 52, 53, 54, 55, 60, 61, 62, 63, 116, 117, 118, 119, 124, 125, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_o3 = vector.shuffle %h_c3, %h_c11 [0, 1, 2, 3, 8, 9, 10, 11, 64, 65, 66, 67, 72, 73, 74, 75, 16, 17, 18, 19, 24, 25, 26, 27, 80, 81, 82, 83, 88, 89, 90, 91, 32, 33, 34, 35, 40, 41, 42, 43, 96, 97, 98, 99, 104, 105, 106, 107, 48, 49, 50, 51, 56, 57, 58, 59, 112, 113, 114, 115, 120, 121, 122, 123] : vector<64xi8>, vector<64xi8>
          %h_o11 = vector.shuffle %h_c3, %h_c11 [4, 5, 6, 7, 12, 13, 14, 15, 68, 69, 70, 71, 76, 77, 78, 79, 20, 21, 22, 23, 28, 29, 30, 31, 84, 85, 86, 87, 92, 93, 94, 95, 36, 37, 38, 39, 44, 45, 46, 47, 100, 101, 102, 103, 108, 109, 110, 111, 52, 53, 54, 55, 60, 61, 62, 63, 116, 117, 118, 119, 124, 125, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_o4 = vector.shuffle %h_c4, %h_c12 [0, 1, 2, 3, 8, 9, 10, 11, 64, 65, 66, 67, 72, 73, 74, 75, 16, 17, 18, 19, 24, 25, 26, 27, 80, 81, 82, 83, 88, 89, 90, 91, 32, 33, 34, 35, 40, 41, 42, 43, 96, 97, 98, 99, 104, 105, 106, 107, 48, 49, 50, 51, 56, 57, 58, 59, 112, 113, 114, 115, 120, 121, 122, 123] : vector<64xi8>, vector<64xi8>
          %h_o12 = vector.shuffle %h_c4, %h_c12 [4, 5, 6, 7, 12, 13, 14, 15, 68, 69, 70, 71, 76, 77, 78, 79, 20, 21, 22, 23, 28, 29, 30, 31, 84, 85, 86, 87, 92, 93, 94, 95, 36, 37, 38, 39, 44, 45, 46, 47, 100, 101, 102, 103, 108, 109, 110, 111, 52, 53, 54, 55, 60, 61, 62, 63, 116, 117, 118, 119, 124, 125, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_o5 = vector.shuffle %h_c5, %h_c13 [0, 1, 2, 3, 8, 9, 10, 11, 64, 65, 66, 67, 72, 73, 74, 75, 16, 17, 18, 19, 24, 25, 26, 27, 80, 81, 82, 83, 88, 89, 90, 91, 32, 33, 34, 35, 40, 41, 42, 43, 96, 97, 98, 99, 104, 105, 106, 107, 48, 49, 50, 51, 56, 57, 58, 59, 112, 113, 114, 115, 120, 121, 122, 123] : vector<64xi8>, vector<64xi8>
          %h_o13 = vector.shuffle %h_c5, %h_c13 [4, 5, 6, 7, 12, 13, 14, 15, 68, 69, 70, 71, 76, 77, 78, 79, 20, 21, 22, 23, 28, 29, 30, 31, 84, 85, 86, 87, 92, 93, 94, 95, 36, 37, 38, 39, 44, 45, 46, 47, 100, 101, 102, 103, 108, 109, 110, 111, 52, 53, 54, 55, 60, 61, 62, 63, 116, 117, 118, 119, 124, 125, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_o6 = vector.shuffle %h_c6, %h_c14 [0, 1, 2, 3, 8, 9, 10, 11, 64, 65, 66, 67, 72, 73, 74, 75, 16, 17, 18, 19, 24, 25, 26, 27, 80, 81, 82, 83, 88, 89, 90, 91, 32, 33, 34, 35, 40, 41, 42, 43, 96, 97, 98, 99, 104, 105, 106, 107, 48, 49, 50, 51, 56, 57, 58, 59, 112, 113, 114, 115, 120, 121, 122, 123] : vector<64xi8>, vector<64xi8>
          %h_o14 = vector.shuffle %h_c6, %h_c14 [4, 5, 6, 7, 12, 13, 14, 15, 68, 69, 70, 71, 76, 77, 78, 79, 20, 21, 22, 23, 28, 29, 30, 31, 84, 85, 86, 87, 92, 93, 94, 95, 36, 37, 38, 39, 44, 45, 46, 47, 100, 101, 102, 103, 108, 109, 110, 111, 52, 53, 54, 55, 60, 61, 62, 63, 116, 117, 118, 119, 124, 125, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_o7 = vector.shuffle %h_c7, %h_c15 [0, 1, 2, 3, 8, 9, 10, 11, 64, 65, 66, 67, 72, 73, 74, 75, 16, 17, 18, 19, 24, 25, 26, 27, 80, 81, 82, 83, 88, 89, 90, 91, 32, 33, 34, 35, 40, 41, 42, 43, 96, 97, 98, 99, 104, 105, 106, 107, 48, 49, 50, 51, 56, 57, 58, 59, 112, 113, 114, 115, 120, 121, 122, 123] : vector<64xi8>, vector<64xi8>
          %h_o15 = vector.shuffle %h_c7, %h_c15 [4, 5, 6, 7, 12, 13, 14, 15, 68, 69, 70, 71, 76, 77, 78, 79, 20, 21, 22, 23, 28, 29, 30, 31, 84, 85, 86, 87, 92, 93, 94, 95, 36, 37, 38, 39, 44, 45, 46, 47, 100, 101, 102, 103, 108, 109, 110, 111, 52, 53, 54, 55, 60, 61, 62, 63, 116, 117, 118, 119, 124, 125, 126, 127] : vector<64xi8>, vector<64xi8>
          %h_si0 = arith.addi %s0, %c0 : index
          vector.store %h_o0, %y[%b, %h_si0, %r0] : memref<4x16x3136xi8>, vector<64xi8>
          %h_si1 = arith.addi %s0, %c1 : index
          vector.store %h_o1, %y[%b, %h_si1, %r0] : memref<4x16x3136xi8>, vector<64xi8>
          %h_si2 = arith.addi %s0, %c2 : index
          vector.store %h_o2, %y[%b, %h_si2, %r0] : memref<4x16x3136xi8>, vector<64xi8>
          %h_si3 = arith.addi %s0, %c3 : index
          vector.store %h_o3, %y[%b, %h_si3, %r0] : memref<4x16x3136xi8>, vector<64xi8>
          %h_si4 = arith.addi %s0, %c4 : index
          vector.store %h_o4, %y[%b, %h_si4, %r0] : memref<4x16x3136xi8>, vector<64xi8>
          %h_si5 = arith.addi %s0, %c5 : index
          vector.store %h_o5, %y[%b, %h_si5, %r0] : memref<4x16x3136xi8>, vector<64xi8>
          %h_si6 = arith.addi %s0, %c6 : index
          vector.store %h_o6, %y[%b, %h_si6, %r0] : memref<4x16x3136xi8>, vector<64xi8>
          %h_si7 = arith.addi %s0, %c7 : index
          vector.store %h_o7, %y[%b, %h_si7, %r0] : memref<4x16x3136xi8>, vector<64xi8>
          %h_si8 = arith.addi %s0, %c8 : index
          vector.store %h_o8, %y[%b, %h_si8, %r0] : memref<4x16x3136xi8>, vector<64xi8>
          %h_si9 = arith.addi %s0, %c9 : index
          vector.store %h_o9, %y[%b, %h_si9, %r0] : memref<4x16x3136xi8>, vector<64xi8>
          %h_si10 = arith.addi %s0, %c10 : index
          vector.store %h_o10, %y[%b, %h_si10, %r0] : memref<4x16x3136xi8>, vector<64xi8>
          %h_si11 = arith.addi %s0, %c11 : index
          vector.store %h_o11, %y[%b, %h_si11, %r0] : memref<4x16x3136xi8>, vector<64xi8>
          %h_si12 = arith.addi %s0, %c12 : index
          vector.store %h_o12, %y[%b, %h_si12, %r0] : memref<4x16x3136xi8>, vector<64xi8>
          %h_si13 = arith.addi %s0, %c13 : index
          vector.store %h_o13, %y[%b, %h_si13, %r0] : memref<4x16x3136xi8>, vector<64xi8>
          %h_si14 = arith.addi %s0, %c14 : index
          vector.store %h_o14, %y[%b, %h_si14, %r0] : memref<4x16x3136xi8>, vector<64xi8>
          %h_si15 = arith.addi %s0, %c15 : index
          vector.store %h_o15, %y[%b, %h_si15, %r0] : memref<4x16x3136xi8>, vector<64xi8>

          }
          scf.for %r0 = %rtall to %rf step %c16 {
          %t_ri0 = arith.addi %r0, %c0 : index
          %t_r0 = vector.load %x[%b, %t_ri0, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %t_ri1 = arith.addi %r0, %c1 : index
          %t_r1 = vector.load %x[%b, %t_ri1, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %t_ri2 = arith.addi %r0, %c2 : index
          %t_r2 = vector.load %x[%b, %t_ri2, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %t_ri3 = arith.addi %r0, %c3 : index
          %t_r3 = vector.load %x[%b, %t_ri3, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %t_ri4 = arith.addi %r0, %c4 : index
          %t_r4 = vector.load %x[%b, %t_ri4, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %t_ri5 = arith.addi %r0, %c5 : index
          %t_r5 = vector.load %x[%b, %t_ri5, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %t_ri6 = arith.addi %r0, %c6 : index
          %t_r6 = vector.load %x[%b, %t_ri6, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %t_ri7 = arith.addi %r0, %c7 : index
          %t_r7 = vector.load %x[%b, %t_ri7, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %t_ri8 = arith.addi %r0, %c8 : index
          %t_r8 = vector.load %x[%b, %t_ri8, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %t_ri9 = arith.addi %r0, %c9 : index
          %t_r9 = vector.load %x[%b, %t_ri9, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %t_ri10 = arith.addi %r0, %c10 : index
          %t_r10 = vector.load %x[%b, %t_ri10, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %t_ri11 = arith.addi %r0, %c11 : index
          %t_r11 = vector.load %x[%b, %t_ri11, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %t_ri12 = arith.addi %r0, %c12 : index
          %t_r12 = vector.load %x[%b, %t_ri12, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %t_ri13 = arith.addi %r0, %c13 : index
          %t_r13 = vector.load %x[%b, %t_ri13, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %t_ri14 = arith.addi %r0, %c14 : index
          %t_r14 = vector.load %x[%b, %t_ri14, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %t_ri15 = arith.addi %r0, %c15 : index
          %t_r15 = vector.load %x[%b, %t_ri15, %s0] : memref<4x3136x16xi8, strided<[50176, 16, 1], offset: 0>>, vector<16xi8>
          %t_a0 = vector.shuffle %t_r0, %t_r1 [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xi8>, vector<16xi8>
          %t_a1 = vector.shuffle %t_r0, %t_r1 [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xi8>, vector<16xi8>
          %t_a2 = vector.shuffle %t_r2, %t_r3 [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xi8>, vector<16xi8>
          %t_a3 = vector.shuffle %t_r2, %t_r3 [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xi8>, vector<16xi8>
          %t_a4 = vector.shuffle %t_r4, %t_r5 [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xi8>, vector<16xi8>
          %t_a5 = vector.shuffle %t_r4, %t_r5 [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xi8>, vector<16xi8>
          %t_a6 = vector.shuffle %t_r6, %t_r7 [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xi8>, vector<16xi8>
          %t_a7 = vector.shuffle %t_r6, %t_r7 [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xi8>, vector<16xi8>
          %t_a8 = vector.shuffle %t_r8, %t_r9 [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xi8>, vector<16xi8>
          %t_a9 = vector.shuffle %t_r8, %t_r9 [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xi8>, vector<16xi8>
          %t_a10 = vector.shuffle %t_r10, %t_r11 [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xi8>, vector<16xi8>
          %t_a11 = vector.shuffle %t_r10, %t_r11 [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xi8>, vector<16xi8>
          %t_a12 = vector.shuffle %t_r12, %t_r13 [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xi8>, vector<16xi8>
          %t_a13 = vector.shuffle %t_r12, %t_r13 [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xi8>, vector<16xi8>
          %t_a14 = vector.shuffle %t_r14, %t_r15 [0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29] : vector<16xi8>, vector<16xi8>
          %t_a15 = vector.shuffle %t_r14, %t_r15 [2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31] : vector<16xi8>, vector<16xi8>
          %t_b0 = vector.shuffle %t_a0, %t_a2 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xi8>, vector<16xi8>
          %t_b1 = vector.shuffle %t_a0, %t_a2 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_b2 = vector.shuffle %t_a1, %t_a3 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xi8>, vector<16xi8>
          %t_b3 = vector.shuffle %t_a1, %t_a3 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_b4 = vector.shuffle %t_a4, %t_a6 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xi8>, vector<16xi8>
          %t_b5 = vector.shuffle %t_a4, %t_a6 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_b6 = vector.shuffle %t_a5, %t_a7 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xi8>, vector<16xi8>
          %t_b7 = vector.shuffle %t_a5, %t_a7 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_b8 = vector.shuffle %t_a8, %t_a10 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xi8>, vector<16xi8>
          %t_b9 = vector.shuffle %t_a8, %t_a10 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_b10 = vector.shuffle %t_a9, %t_a11 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xi8>, vector<16xi8>
          %t_b11 = vector.shuffle %t_a9, %t_a11 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_b12 = vector.shuffle %t_a12, %t_a14 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xi8>, vector<16xi8>
          %t_b13 = vector.shuffle %t_a12, %t_a14 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_b14 = vector.shuffle %t_a13, %t_a15 [0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29] : vector<16xi8>, vector<16xi8>
          %t_b15 = vector.shuffle %t_a13, %t_a15 [2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_c0 = vector.shuffle %t_b0, %t_b4 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xi8>, vector<16xi8>
          %t_c4 = vector.shuffle %t_b0, %t_b4 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_c1 = vector.shuffle %t_b1, %t_b5 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xi8>, vector<16xi8>
          %t_c5 = vector.shuffle %t_b1, %t_b5 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_c2 = vector.shuffle %t_b2, %t_b6 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xi8>, vector<16xi8>
          %t_c6 = vector.shuffle %t_b2, %t_b6 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_c3 = vector.shuffle %t_b3, %t_b7 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xi8>, vector<16xi8>
          %t_c7 = vector.shuffle %t_b3, %t_b7 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_c8 = vector.shuffle %t_b8, %t_b12 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xi8>, vector<16xi8>
          %t_c12 = vector.shuffle %t_b8, %t_b12 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_c9 = vector.shuffle %t_b9, %t_b13 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xi8>, vector<16xi8>
          %t_c13 = vector.shuffle %t_b9, %t_b13 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_c10 = vector.shuffle %t_b10, %t_b14 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xi8>, vector<16xi8>
          %t_c14 = vector.shuffle %t_b10, %t_b14 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_c11 = vector.shuffle %t_b11, %t_b15 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xi8>, vector<16xi8>
          %t_c15 = vector.shuffle %t_b11, %t_b15 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_o0 = vector.shuffle %t_c0, %t_c8 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xi8>, vector<16xi8>
          %t_o8 = vector.shuffle %t_c0, %t_c8 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_o1 = vector.shuffle %t_c1, %t_c9 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xi8>, vector<16xi8>
          %t_o9 = vector.shuffle %t_c1, %t_c9 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_o2 = vector.shuffle %t_c2, %t_c10 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xi8>, vector<16xi8>
          %t_o10 = vector.shuffle %t_c2, %t_c10 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_o3 = vector.shuffle %t_c3, %t_c11 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xi8>, vector<16xi8>
          %t_o11 = vector.shuffle %t_c3, %t_c11 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_o4 = vector.shuffle %t_c4, %t_c12 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xi8>, vector<16xi8>
          %t_o12 = vector.shuffle %t_c4, %t_c12 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_o5 = vector.shuffle %t_c5, %t_c13 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xi8>, vector<16xi8>
          %t_o13 = vector.shuffle %t_c5, %t_c13 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_o6 = vector.shuffle %t_c6, %t_c14 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xi8>, vector<16xi8>
          %t_o14 = vector.shuffle %t_c6, %t_c14 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_o7 = vector.shuffle %t_c7, %t_c15 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<16xi8>, vector<16xi8>
          %t_o15 = vector.shuffle %t_c7, %t_c15 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
          %t_si0 = arith.addi %s0, %c0 : index
          vector.store %t_o0, %y[%b, %t_si0, %r0] : memref<4x16x3136xi8>, vector<16xi8>
          %t_si1 = arith.addi %s0, %c1 : index
          vector.store %t_o1, %y[%b, %t_si1, %r0] : memref<4x16x3136xi8>, vector<16xi8>
          %t_si2 = arith.addi %s0, %c2 : index
          vector.store %t_o2, %y[%b, %t_si2, %r0] : memref<4x16x3136xi8>, vector<16xi8>
          %t_si3 = arith.addi %s0, %c3 : index
          vector.store %t_o3, %y[%b, %t_si3, %r0] : memref<4x16x3136xi8>, vector<16xi8>
          %t_si4 = arith.addi %s0, %c4 : index
          vector.store %t_o4, %y[%b, %t_si4, %r0] : memref<4x16x3136xi8>, vector<16xi8>
          %t_si5 = arith.addi %s0, %c5 : index
          vector.store %t_o5, %y[%b, %t_si5, %r0] : memref<4x16x3136xi8>, vector<16xi8>
          %t_si6 = arith.addi %s0, %c6 : index
          vector.store %t_o6, %y[%b, %t_si6, %r0] : memref<4x16x3136xi8>, vector<16xi8>
          %t_si7 = arith.addi %s0, %c7 : index
          vector.store %t_o7, %y[%b, %t_si7, %r0] : memref<4x16x3136xi8>, vector<16xi8>
          %t_si8 = arith.addi %s0, %c8 : index
          vector.store %t_o8, %y[%b, %t_si8, %r0] : memref<4x16x3136xi8>, vector<16xi8>
          %t_si9 = arith.addi %s0, %c9 : index
          vector.store %t_o9, %y[%b, %t_si9, %r0] : memref<4x16x3136xi8>, vector<16xi8>
          %t_si10 = arith.addi %s0, %c10 : index
          vector.store %t_o10, %y[%b, %t_si10, %r0] : memref<4x16x3136xi8>, vector<16xi8>
          %t_si11 = arith.addi %s0, %c11 : index
          vector.store %t_o11, %y[%b, %t_si11, %r0] : memref<4x16x3136xi8>, vector<16xi8>
          %t_si12 = arith.addi %s0, %c12 : index
          vector.store %t_o12, %y[%b, %t_si12, %r0] : memref<4x16x3136xi8>, vector<16xi8>
          %t_si13 = arith.addi %s0, %c13 : index
          vector.store %t_o13, %y[%b, %t_si13, %r0] : memref<4x16x3136xi8>, vector<16xi8>
          %t_si14 = arith.addi %s0, %c14 : index
          vector.store %t_o14, %y[%b, %t_si14, %r0] : memref<4x16x3136xi8>, vector<16xi8>
          %t_si15 = arith.addi %s0, %c15 : index
          vector.store %t_o15, %y[%b, %t_si15, %r0] : memref<4x16x3136xi8>, vector<16xi8>

          }
        }

        return
      }
    }
}

func.func @reorder_1x64x56x56__s8_aBcd16b__to_s8_abcd(%src: !src_dst_buf) -> !src_dst_buf {
    %v1 = flow.dispatch @reorder_1x64x56x56__s8_aBcd16b__to_s8_abcd_shuffle::@reorder_1x64x56x56__s8_aBcd16b__to_s8_abcd_shuffle(%src) : (!src_dst_buf) -> !src_dst_buf
    return %v1 : !src_dst_buf
}
