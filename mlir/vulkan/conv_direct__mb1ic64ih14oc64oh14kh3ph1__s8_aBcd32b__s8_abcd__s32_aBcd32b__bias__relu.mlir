// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_buf = tensor<12544xi8>
!wei_buf = tensor<36864xi8>
!wei_prepared = tensor<1x2x2x3x3x32x32xi32>
!bias = tensor<64xf32>
!dst_buf = tensor<12544xi32>

func.func @conv_direct__mb1ic64ih14oc64oh14kh3ph1__s8_aBcd32b__s8_abcd__s32_aBcd32b__bias__relu_prepare(%wei: !wei_buf) -> !wei_prepared {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3]] output_shape [64, 64, 3, 3] : !wei_buf into tensor<64x64x3x3xi8>

    %w2 = tensor.expand_shape %w1 [[0, 1], [2], [3], [4]] output_shape [1, 64, 64, 3, 3] : tensor<64x64x3x3xi8> into tensor<1x64x64x3x3xi8>

    %w3_e = tensor.empty() : tensor<1x64x64x3x3xi32>
    %w3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%w2 : tensor<1x64x64x3x3xi8>) outs(%w3_e : tensor<1x64x64x3x3xi32>) {
    ^bb0(%w3_a: i8, %w3_out: i32):
      %w3_w = arith.extsi %w3_a : i8 to i32
      %w3_lo = arith.constant -2147483648 : i32
      %w3_hi = arith.constant 2147483647 : i32
      %w3_c1 = arith.maxsi %w3_w, %w3_lo : i32
      %w3_c2 = arith.minsi %w3_c1, %w3_hi : i32
      linalg.yield %w3_c2 : i32
    } -> tensor<1x64x64x3x3xi32>


    %w4 = tensor.expand_shape %w3 [[0], [1, 2], [3, 4], [5], [6]] output_shape [1, 2, 32, 2, 32, 3, 3] : tensor<1x64x64x3x3xi32> into tensor<1x2x32x2x32x3x3xi32>

    %w5_e = tensor.empty() : !wei_prepared
    %w5 = linalg.transpose ins(%w4 : tensor<1x2x32x2x32x3x3xi32>) outs(%w5_e : !wei_prepared) permutation = [0, 1, 3, 5, 6, 4, 2]

    return %w5 : !wei_prepared
}

func.func @conv_direct__mb1ic64ih14oc64oh14kh3ph1__s8_aBcd32b__s8_abcd__s32_aBcd32b__bias__relu(%src: !src_buf, %w: !wei_prepared, %bias: !bias) -> !dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3, 4]] output_shape [1, 2, 14, 14, 32] : !src_buf into tensor<1x2x14x14x32xi8>

    %v2_z = arith.constant 0 : i8
    %v2 = tensor.pad %v1 low[0, 0, 1, 1, 0] high[0, 0, 1, 1, 0] {
    ^bb0(%v2_i0: index, %v2_i1: index, %v2_i2: index, %v2_i3: index, %v2_i4: index):
      tensor.yield %v2_z : i8
    } : tensor<1x2x14x14x32xi8> to tensor<1x2x16x16x32xi8>

    %v3_e = tensor.empty() : tensor<1x2x16x16x32xi32>
    %v3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v2 : tensor<1x2x16x16x32xi8>) outs(%v3_e : tensor<1x2x16x16x32xi32>) {
    ^bb0(%v3_a: i8, %v3_out: i32):
      %v3_w = arith.extsi %v3_a : i8 to i32
      %v3_lo = arith.constant -2147483648 : i32
      %v3_hi = arith.constant 2147483647 : i32
      %v3_c1 = arith.maxsi %v3_w, %v3_lo : i32
      %v3_c2 = arith.minsi %v3_c1, %v3_hi : i32
      linalg.yield %v3_c2 : i32
    } -> tensor<1x2x16x16x32xi32>


    %v4 = util.optimization_barrier %v3 : tensor<1x2x16x16x32xi32>
    %v5 = tensor.expand_shape %v4 [[0], [1, 2], [3], [4], [5]] output_shape [1, 1, 2, 16, 16, 32] : tensor<1x2x16x16x32xi32> into tensor<1x1x2x16x16x32xi32>

    %v6_z = arith.constant 0 : i32
    %v6_e = tensor.empty() : tensor<1x1x2x14x14x32xi32>
    %v6_acc = linalg.fill ins(%v6_z : i32) outs(%v6_e : tensor<1x1x2x14x14x32xi32>) -> tensor<1x1x2x14x14x32xi32>
    %v6 = linalg.generic {indexing_maps = [affine_map<(n, g, ocb, o0, o1, ob, icb, k0, k1, ib) -> (n, g, icb, o0 * 1 + k0 * 1, o1 * 1 + k1 * 1, ib)>, affine_map<(n, g, ocb, o0, o1, ob, icb, k0, k1, ib) -> (g, ocb, icb, k0, k1, ib, ob)>, affine_map<(n, g, ocb, o0, o1, ob, icb, k0, k1, ib) -> (n, g, ocb, o0, o1, ob)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
        ins(%v5, %w : tensor<1x1x2x16x16x32xi32>, !wei_prepared) outs(%v6_acc : tensor<1x1x2x14x14x32xi32>) {
    ^bb0(%v6_x: i32, %v6_w: i32, %v6_a: i32):
      %v6_m = arith.muli %v6_x, %v6_w : i32
      %v6_s = arith.addi %v6_a, %v6_m : i32
      linalg.yield %v6_s : i32
    } -> tensor<1x1x2x14x14x32xi32>
    %v7 = tensor.expand_shape %bias [[0, 1, 2]] output_shape [1, 2, 32] : !bias into tensor<1x2x32xf32>

    %v8_e = tensor.empty() : tensor<1x1x2x14x14x32xi32>
    %v8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v6, %v7 : tensor<1x1x2x14x14x32xi32>, tensor<1x2x32xf32>) outs(%v8_e : tensor<1x1x2x14x14x32xi32>) {
    ^bb0(%v8_a: i32, %v8_b: f32, %v8_out: i32):
      %v8_f = arith.sitofp %v8_a : i32 to f32
      %v8_ab = arith.addf %v8_f, %v8_b : f32
      %v8_zero = arith.constant 0.0 : f32
      %v8_r = arith.maximumf %v8_ab, %v8_zero : f32
      %v8_rn = math.roundeven %v8_r : f32
      %v8_lo = arith.constant -2.147483648e+09 : f32
      %v8_hi = arith.constant 2.147483520e+09 : f32
      %v8_c1 = arith.maximumf %v8_rn, %v8_lo : f32
      %v8_c2 = arith.minimumf %v8_c1, %v8_hi : f32
      %v8_i = arith.fptosi %v8_c2 : f32 to i32
      linalg.yield %v8_i : i32
    } -> tensor<1x1x2x14x14x32xi32>
    %v9 = tensor.collapse_shape %v8 [[0, 1, 2, 3, 4, 5]] : tensor<1x1x2x14x14x32xi32> into !dst_buf

    return %v9 : !dst_buf
}
