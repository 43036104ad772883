// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_buf = tensor<25088xi8>
!wei_buf = tensor<9216xi8>
!wei_prepared = tensor<1x32x32x3x3xi32>
!bias = tensor<32xf32>
!dst_buf = tensor<6272xi32>

func.func @conv_spatial_pack__mb1ic32ih28oc32oh14kh3sh2ph1__s8_aBcd4b__s8_abcd__s32_aBcd4b__bias_prepare(%wei: !wei_buf) -> !wei_prepared {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3]] output_shape [32, 32, 3, 3] : !wei_buf into tensor<32x32x3x3xi8>

    %w2 = tensor.expand_shape %w1 [[0, 1], [2], [3], [4]] output_shape [1, 32, 32, 3, 3] : tensor<32x32x3x3xi8> into tensor<1x32x32x3x3xi8>

    %w3_e = tensor.empty() : !wei_prepared
    %w3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%w2 : tensor<1x32x32x3x3xi8>) outs(%w3_e : !wei_prepared) {
    ^bb0(%w3_a: i8, %w3_out: i32):
      %w3_w = arith.extsi %w3_a : i8 to i32
      %w3_lo = arith.constant -2147483648 : i32
      %w3_hi = arith.constant 2147483647 : i32
      %w3_c1 = arith.maxsi %w3_w, %w3_lo : i32
      %w3_c2 = arith.minsi %w3_c1, %w3_hi : i32
      linalg.yield %w3_c2 : i32
    } -> !wei_prepared


    return %w3 : !wei_prepared
}

func.func @conv_spatial_pack__mb1ic32ih28oc32oh14kh3sh2ph1__s8_aBcd4b__s8_abcd__s32_aBcd4b__bias(%src: !src_buf, %w: !wei_prepared, %bias: !bias) -> !dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3, 4]] output_shape [1, 8, 28, 28, 4] : !src_buf into tensor<1x8x28x28x4xi8>

    %v2_e = tensor.empty() : tensor<1x8x4x28x28xi8>
    %v2 = linalg.transpose ins(%v1 : tensor<1x8x28x28x4xi8>) outs(%v2_e : tensor<1x8x4x28x28xi8>) permutation = [0, 1, 4, 2, 3]

    %v3 = tensor.collapse_shape %v2 [[0], [1, 2], [3], [4]] : tensor<1x8x4x28x28xi8> into tensor<1x32x28x28xi8>

    %v4_z = arith.constant 0 : i8
    %v4 = tensor.pad %v3 low[0, 0, 1, 1] high[0, 0, 0, 0] {
    ^bb0(%v4_i0: index, %v4_i1: index, %v4_i2: index, %v4_i3: index):
      tensor.yield %v4_z : i8
    } : tensor<1x32x28x28xi8> to tensor<1x32x29x29xi8>

    %v5 = tensor.expand_shape %v4 [[0], [1, 2], [3], [4]] output_shape [1, 1, 32, 29, 29] : tensor<1x32x29x29xi8> into tensor<1x1x32x29x29xi8>

    %v6_e = tensor.empty() : tensor<1x1x32x29x29xi32>
    %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v5 : tensor<1x1x32x29x29xi8>) outs(%v6_e : tensor<1x1x32x29x29xi32>) {
    ^bb0(%v6_a: i8, %v6_out: i32):
      %v6_w = arith.extsi %v6_a : i8 to i32
      %v6_lo = arith.constant -2147483648 : i32
      %v6_hi = arith.constant 2147483647 : i32
      %v6_c1 = arith.maxsi %v6_w, %v6_lo : i32
      %v6_c2 = arith.minsi %v6_c1, %v6_hi : i32
      linalg.yield %v6_c2 : i32
    } -> tensor<1x1x32x29x29xi32>


    %v7 = util.optimization_barrier %v6 : tensor<1x1x32x29x29xi32>
    %v8_z = arith.constant 0 : i32
    %v8 = tensor.pad %v7 low[0, 0, 0, 0, 0] high[0, 0, 0, 4, 4] {
    ^bb0(%v8_i0: index, %v8_i1: index, %v8_i2: index, %v8_i3: index, %v8_i4: index):
      tensor.yield %v8_z : i32
    } : tensor<1x1x32x29x29xi32> to tensor<1x1x32x33x33xi32>

    %v9_e = tensor.empty() : tensor<1x4x2x1x32x9x17xi32>
    %v9 = linalg.generic {indexing_maps = [affine_map<(n, t0, t1, g, c, j0, j1) -> (n, g, c, t0 * 8 + j0, t1 * 16 + j1)>, affine_map<(n, t0, t1, g, c, j0, j1) -> (n, t0, t1, g, c, j0, j1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v8 : tensor<1x1x32x33x33xi32>) outs(%v9_e : tensor<1x4x2x1x32x9x17xi32>) {
    ^bb0(%v9_x: i32, %v9_y: i32):
      linalg.yield %v9_x : i32
    } -> tensor<1x4x2x1x32x9x17xi32>
    %v10 = util.optimization_barrier %v9 : tensor<1x4x2x1x32x9x17xi32>
    %v11 = tensor.collapse_shape %v10 [[0, 1, 2], [3], [4], [5], [6]] : tensor<1x4x2x1x32x9x17xi32> into tensor<8x1x32x9x17xi32>

    %v12_z = arith.constant 0 : i32
    %v12_e = tensor.empty() : tensor<8x1x32x4x8xi32>
    %v12_acc = linalg.fill ins(%v12_z : i32) outs(%v12_e : tensor<8x1x32x4x8xi32>) -> tensor<8x1x32x4x8xi32>
    %v12 = linalg.generic {indexing_maps = [affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (n, g, ic, o0 * 2 + k0 * 1, o1 * 2 + k1 * 1)>, affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (g, oc, ic, k0, k1)>, affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (n, g, oc, o0, o1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
        ins(%v11, %w : tensor<8x1x32x9x17xi32>, !wei_prepared) outs(%v12_acc : tensor<8x1x32x4x8xi32>) {
    ^bb0(%v12_x: i32, %v12_w: i32, %v12_a: i32):
      %v12_m = arith.muli %v12_x, %v12_w : i32
      %v12_s = arith.addi %v12_a, %v12_m : i32
      linalg.yield %v12_s : i32
    } -> tensor<8x1x32x4x8xi32>
    %v13 = tensor.expand_shape %v12 [[0, 1, 2], [3], [4], [5], [6]] output_shape [1, 4, 2, 1, 32, 4, 8] : tensor<8x1x32x4x8xi32> into tensor<1x4x2x1x32x4x8xi32>

    %v14_e = tensor.empty() : tensor<1x1x32x4x4x2x8xi32>
    %v14 = linalg.transpose ins(%v13 : tensor<1x4x2x1x32x4x8xi32>) outs(%v14_e : tensor<1x1x32x4x4x2x8xi32>) permutation = [0, 3, 4, 1, 5, 2, 6]

    %v15 = tensor.collapse_shape %v14 [[0], [1], [2], [3, 4], [5, 6]] : tensor<1x1x32x4x4x2x8xi32> into tensor<1x1x32x16x16xi32>

    %v16 = tensor.extract_slice %v15[0, 0, 0, 0, 0] [1, 1, 32, 14, 14] [1, 1, 1, 1, 1] : tensor<1x1x32x16x16xi32> to tensor<1x1x32x14x14xi32>

    %v17 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 32] : !bias into tensor<1x32xf32>

    %v18_e = tensor.empty() : tensor<1x1x32x14x14xi32>
    %v18 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v16, %v17 : tensor<1x1x32x14x14xi32>, tensor<1x32xf32>) outs(%v18_e : tensor<1x1x32x14x14xi32>) {
    ^bb0(%v18_a: i32, %v18_b: f32, %v18_out: i32):
      %v18_f = arith.sitofp %v18_a : i32 to f32
      %v18_ab = arith.addf %v18_f, %v18_b : f32
      %v18_rn = math.roundeven %v18_ab : f32
      %v18_lo = arith.constant -2.147483648e+09 : f32
      %v18_hi = arith.constant 2.147483520e+09 : f32
      %v18_c1 = arith.maximumf %v18_rn, %v18_lo : f32
      %v18_c2 = arith.minimumf %v18_c1, %v18_hi : f32
      %v18_i = arith.fptosi %v18_c2 : f32 to i32
      linalg.yield %v18_i : i32
    } -> tensor<1x1x32x14x14xi32>
    %v19 = tensor.collapse_shape %v18 [[0], [1, 2], [3], [4]] : tensor<1x1x32x14x14xi32> into tensor<1x32x14x14xi32>

    %v20 = tensor.expand_shape %v19 [[0], [1, 2], [3], [4]] output_shape [1, 8, 4, 14, 14] : tensor<1x32x14x14xi32> into tensor<1x8x4x14x14xi32>

    %v21_e = tensor.empty() : tensor<1x8x14x14x4xi32>
    %v21 = linalg.transpose ins(%v20 : tensor<1x8x4x14x14xi32>) outs(%v21_e : tensor<1x8x14x14x4xi32>) permutation = [0, 1, 3, 4, 2]

    %v22 = tensor.collapse_shape %v21 [[0, 1, 2, 3, 4]] : tensor<1x8x14x14x4xi32> into !dst_buf

    return %v22 : !dst_buf
}
