// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_buf = tensor<25088xi8>
!wei_buf = tensor<9216xi8>
!wei_prepared = tensor<1x32x32x3x3xi8>
!bias = tensor<32xf32>
!dst_buf = tensor<6272xi32>

func.func @conv_spatial_pack__mb1ic32ih28oc32oh14kh3sh2ph1__s8_aBcd4b__s8_abcd__s32_aBcd4b__bias_prepare(%wei: !wei_buf) -> !wei_prepared {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3]] output_shape [32, 32, 3, 3] : !wei_buf into tensor<32x32x3x3xi8>

    %w2 = tensor.expand_shape %w1 [[0, 1], [2], [3], [4]] output_shape [1, 32, 32, 3, 3] : tensor<32x32x3x3xi8> into !wei_prepared

    return %w2 : !wei_prepared
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

    %v6_z = arith.constant 0 : i8
    %v6 = tensor.pad %v5 low[0, 0, 0, 0, 0] high[0, 0, 0, 4, 4] {
    ^bb0(%v6_i0: index, %v6_i1: index, %v6_i2: index, %v6_i3: index, %v6_i4: index):
      tensor.yield %v6_z : i8
    } : tensor<1x1x32x29x29xi8> to tensor<1x1x32x33x33xi8>

    %v7_e = tensor.empty() : tensor<1x4x2x1x32x9x17xi8>
    %v7 = linalg.generic {indexing_maps = [affine_map<(n, t0, t1, g, c, j0, j1) -> (n, g, c, t0 * 8 + j0, t1 * 16 + j1)>, affine_map<(n, t0, t1, g, c, j0, j1) -> (n, t0, t1, g, c, j0, j1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v6 : tensor<1x1x32x33x33xi8>) outs(%v7_e : tensor<1x4x2x1x32x9x17xi8>) {
    ^bb0(%v7_x: i8, %v7_y: i8):
      linalg.yield %v7_x : i8
    } -> tensor<1x4x2x1x32x9x17xi8>
    %v8 = util.optimization_barrier %v7 : tensor<1x4x2x1x32x9x17xi8>
    %v9 = tensor.collapse_shape %v8 [[0, 1, 2], [3], [4], [5], [6]] : tensor<1x4x2x1x32x9x17xi8> into tensor<8x1x32x9x17xi8>

    %v10_z = arith.constant 0 : i32
    %v10_e = tensor.empty() : tensor<8x1x32x4x8xi32>
    %v10_acc = linalg.fill ins(%v10_z : i32) outs(%v10_e : tensor<8x1x32x4x8xi32>) -> tensor<8x1x32x4x8xi32>
    %v10 = linalg.generic {indexing_maps = [affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (n, g, ic, o0 * 2 + k0 * 1, o1 * 2 + k1 * 1)>, affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (g, oc, ic, k0, k1)>, affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (n, g, oc, o0, o1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
        ins(%v9, %w : tensor<8x1x32x9x17xi8>, !wei_prepared) outs(%v10_acc : tensor<8x1x32x4x8xi32>) {
    ^bb0(%v10_x: i8, %v10_w: i8, %v10_a: i32):
      %v10_xe = arith.extsi %v10_x : i8 to i32
      %v10_we = arith.extsi %v10_w : i8 to i32
      %v10_m = arith.muli %v10_xe, %v10_we : i32
      %v10_s = arith.addi %v10_a, %v10_m : i32
      linalg.yield %v10_s : i32
    } -> tensor<8x1x32x4x8xi32>
    %v11 = tensor.expand_shape %v10 [[0, 1, 2], [3], [4], [5], [6]] output_shape [1, 4, 2, 1, 32, 4, 8] : tensor<8x1x32x4x8xi32> into tensor<1x4x2x1x32x4x8xi32>

    %v12_e = tensor.empty() : tensor<1x1x32x4x4x2x8xi32>
    %v12 = linalg.transpose ins(%v11 : tensor<1x4x2x1x32x4x8xi32>) outs(%v12_e : tensor<1x1x32x4x4x2x8xi32>) permutation = [0, 3, 4, 1, 5, 2, 6]

    %v13 = tensor.collapse_shape %v12 [[0], [1], [2], [3, 4], [5, 6]] : tensor<1x1x32x4x4x2x8xi32> into tensor<1x1x32x16x16xi32>

    %v14 = tensor.extract_slice %v13[0, 0, 0, 0, 0] [1, 1, 32, 14, 14] [1, 1, 1, 1, 1] : tensor<1x1x32x16x16xi32> to tensor<1x1x32x14x14xi32>

    %v15 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 32] : !bias into tensor<1x32xf32>

    %v16_e = tensor.empty() : tensor<1x1x32x14x14xi32>
    %v16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v14, %v15 : tensor<1x1x32x14x14xi32>, tensor<1x32xf32>) outs(%v16_e : tensor<1x1x32x14x14xi32>) {
    ^bb0(%v16_a: i32, %v16_b: f32, %v16_out: i32):
      %v16_f = arith.sitofp %v16_a : i32 to f32
      %v16_ab = arith.addf %v16_f, %v16_b : f32
      %v16_rn = math.roundeven %v16_ab : f32
      %v16_lo = arith.constant -2.147483648e+09 : f32
      %v16_hi = arith.constant 2.147483520e+09 : f32
      %v16_c1 = arith.maximumf %v16_rn, %v16_lo : f32
      %v16_c2 = arith.minimumf %v16_c1, %v16_hi : f32
      %v16_i = arith.fptosi %v16_c2 : f32 to i32
      linalg.yield %v16_i : i32
    } -> tensor<1x1x32x14x14xi32>
    %v17 = tensor.collapse_shape %v16 [[0], [1, 2], [3], [4]] : tensor<1x1x32x14x14xi32> into tensor<1x32x14x14xi32>

    %v18 = tensor.expand_shape %v17 [[0], [1, 2], [3], [4]] output_shape [1, 8, 4, 14, 14] : tensor<1x32x14x14xi32> into tensor<1x8x4x14x14xi32>

    %v19_e = tensor.empty() : tensor<1x8x14x14x4xi32>
    %v19 = linalg.transpose ins(%v18 : tensor<1x8x4x14x14xi32>) outs(%v19_e : tensor<1x8x14x14x4xi32>) permutation = [0, 1, 3, 4, 2]

    %v20 = tensor.collapse_shape %v19 [[0, 1, 2, 3, 4]] : tensor<1x8x14x14x4xi32> into !dst_buf

    return %v20 : !dst_buf
}
