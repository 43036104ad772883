// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_buf = tensor<12544xi8>
!wei_buf = tensor<36864xi8>
!wei_prepared = tensor<1x2x2x3x3x32x32xi8>
!bias = tensor<64xf32>
!dst_buf = tensor<12544xi32>

func.func @conv_direct__mb1ic64ih14oc64oh14kh3ph1__s8_aBcd32b__s8_abcd__s32_aBcd32b__bias__relu_prepare(%wei: !wei_buf) -> !wei_prepared {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3]] output_shape [64, 64, 3, 3] : !wei_buf into tensor<64x64x3x3xi8>

    %w2 = tensor.expand_shape %w1 [[0, 1], [2], [3], [4]] output_shape [1, 64, 64, 3, 3] : tensor<64x64x3x3xi8> into tensor<1x64x64x3x3xi8>

    %w3 = tensor.expand_shape %w2 [[0], [1, 2], [3, 4], [5], [6]] output_shape [1, 2, 32, 2, 32, 3, 3] : tensor<1x64x64x3x3xi8> into tensor<1x2x32x2x32x3x3xi8>

    %w4_e = tensor.empty() : !wei_prepared
    %w4 = linalg.transpose ins(%w3 : tensor<1x2x32x2x32x3x3xi8>) outs(%w4_e : !wei_prepared) permutation = [0, 1, 3, 5, 6, 4, 2]

    return %w4 : !wei_prepared
}

func.func @conv_direct__mb1ic64ih14oc64oh14kh3ph1__s8_aBcd32b__s8_abcd__s32_aBcd32b__bias__relu(%src: !src_buf, %w: !wei_prepared, %bias: !bias) -> !dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3, 4]] output_shape [1, 2, 14, 14, 32] : !src_buf into tensor<1x2x14x14x32xi8>

    %v2_z = arith.constant 0 : i8
    %v2 = tensor.pad %v1 low[0, 0, 1, 1, 0] high[0, 0, 1, 1, 0] {
    ^bb0(%v2_i0: index, %v2_i1: index, %v2_i2: index, %v2_i3: index, %v2_i4: index):
      tensor.yield %v2_z : i8
    } : tensor<1x2x14x14x32xi8> to tensor<1x2x16x16x32xi8>

    %v3 = tensor.expand_shape %v2 [[0], [1, 2], [3], [4], [5]] output_shape [1, 1, 2, 16, 16, 32] : tensor<1x2x16x16x32xi8> into tensor<1x1x2x16x16x32xi8>

    %v4_z = arith.constant 0 : i32
    %v4_e = tensor.empty() : tensor<1x1x2x14x14x32xi32>
    %v4_acc = linalg.fill ins(%v4_z : i32) outs(%v4_e : tensor<1x1x2x14x14x32xi32>) -> tensor<1x1x2x14x14x32xi32>
    %v4 = linalg.generic {indexing_maps = [affine_map<(n, g, ocb, o0, o1, ob, icb, k0, k1, ib) -> (n, g, icb, o0 * 1 + k0 * 1, o1 * 1 + k1 * 1, ib)>, affine_map<(n, g, ocb, o0, o1, ob, icb, k0, k1, ib) -> (g, ocb, icb, k0, k1, ib, ob)>, affine_map<(n, g, ocb, o0, o1, ob, icb, k0, k1, ib) -> (n, g, ocb, o0, o1, ob)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
        ins(%v3, %w : tensor<1x1x2x16x16x32xi8>, !wei_prepared) outs(%v4_acc : tensor<1x1x2x14x14x32xi32>) {
    ^bb0(%v4_x: i8, %v4_w: i8, %v4_a: i32):
      %v4_xe = arith.extsi %v4_x : i8 to i32
      %v4_we = arith.extsi %v4_w : i8 to i32
      %v4_m = arith.muli %v4_xe, %v4_we : i32
      %v4_s = arith.addi %v4_a, %v4_m : i32
      linalg.yield %v4_s : i32
    } -> tensor<1x1x2x14x14x32xi32>
    %v5 = tensor.expand_shape %bias [[0, 1, 2]] output_shape [1, 2, 32] : !bias into tensor<1x2x32xf32>

    %v6_e = tensor.empty() : tensor<1x1x2x14x14x32xi32>
    %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v4, %v5 : tensor<1x1x2x14x14x32xi32>, tensor<1x2x32xf32>) outs(%v6_e : tensor<1x1x2x14x14x32xi32>) {
    ^bb0(%v6_a: i32, %v6_b: f32, %v6_out: i32):
      %v6_f = arith.sitofp %v6_a : i32 to f32
      %v6_ab = arith.addf %v6_f, %v6_b : f32
      %v6_zero = arith.constant 0.0 : f32
      %v6_r = arith.maximumf %v6_ab, %v6_zero : f32
      %v6_rn = math.roundeven %v6_r : f32
      %v6_lo = arith.constant -2.147483648e+09 : f32
      %v6_hi = arith.constant 2.147483520e+09 : f32
      %v6_c1 = arith.maximumf %v6_rn, %v6_lo : f32
      %v6_c2 = arith.minimumf %v6_c1, %v6_hi : f32
      %v6_i = arith.fptosi %v6_c2 : f32 to i32
      linalg.yield %v6_i : i32
    } -> tensor<1x1x2x14x14x32xi32>
    %v7 = tensor.collapse_shape %v6 [[0, 1, 2, 3, 4, 5]] : tensor<1x1x2x14x14x32xi32> into !dst_buf

    return %v7 : !dst_buf
}
