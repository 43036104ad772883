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

    %v2_e = tensor.empty() : tensor<1x32x28x28xi8>
    %v2 = linalg.unpack %v1 outer_dims_perm = [0, 1, 2, 3] inner_dims_pos = [1] inner_tiles = [4] into %v2_e : tensor<1x8x28x28x4xi8> -> tensor<1x32x28x28xi8>

    %v3_z = arith.constant 0 : i8
    %v3 = tensor.pad %v2 low[0, 0, 1, 1] high[0, 0, 0, 0] {
    ^bb0(%v3_i0: index, %v3_i1: index, %v3_i2: index, %v3_i3: index):
      tensor.yield %v3_z : i8
    } : tensor<1x32x28x28xi8> to tensor<1x32x29x29xi8>

    %v4 = tensor.expand_shape %v3 [[0], [1, 2], [3], [4]] output_shape [1, 1, 32, 29, 29] : tensor<1x32x29x29xi8> into tensor<1x1x32x29x29xi8>

    %v5_z = arith.constant 0 : i8
    %v5 = tensor.pad %v4 low[0, 0, 0, 0, 0] high[0, 0, 0, 4, 4] {
    ^bb0(%v5_i0: index, %v5_i1: index, %v5_i2: index, %v5_i3: index, %v5_i4: index):
      tensor.yield %v5_z : i8
    } : tensor<1x1x32x29x29xi8> to tensor<1x1x32x33x33xi8>

    %v6_e = tensor.empty() : tensor<1x4x2x1x32x9x17xi8>
    %v6 = linalg.generic {indexing_maps = [affine_map<(n, t0, t1, g, c, j0, j1) -> (n, g, c, t0 * 8 + j0, t1 * 16 + j1)>, affine_map<(n, t0, t1, g, c, j0, j1) -> (n, t0, t1, g, c, j0, j1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v5 : tensor<1x1x32x33x33xi8>) outs(%v6_e : tensor<1x4x2x1x32x9x17xi8>) {
    ^bb0(%v6_x: i8, %v6_y: i8):
      linalg.yield %v6_x : i8
    } -> tensor<1x4x2x1x32x9x17xi8>
    %v7 = util.optimization_barrier %v6 : tensor<1x4x2x1x32x9x17xi8>
    %v8 = tensor.collapse_shape %v7 [[0, 1, 2], [3], [4], [5], [6]] : tensor<1x4x2x1x32x9x17xi8> into tensor<8x1x32x9x17xi8>

    %v9_z = arith.constant 0 : i32
    %v9_e = tensor.empty() : tensor<8x1x32x4x8xi32>
    %v9_acc = linalg.fill ins(%v9_z : i32) outs(%v9_e : tensor<8x1x32x4x8xi32>) -> tensor<8x1x32x4x8xi32>
    %v9 = linalg.generic {indexing_maps = [affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (n, g, ic, o0 * 2 + k0 * 1, o1 * 2 + k1 * 1)>, affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (g, oc, ic, k0, k1)>, affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (n, g, oc, o0, o1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
        ins(%v8, %w : tensor<8x1x32x9x17xi8>, !wei_prepared) outs(%v9_acc : tensor<8x1x32x4x8xi32>) {
    ^bb0(%v9_x: i8, %v9_w: i8, %v9_a: i32):
      %v9_xe = arith.extsi %v9_x : i8 to i32
      %v9_we = arith.extsi %v9_w : i8 to i32
      %v9_m = arith.muli %v9_xe, %v9_we : i32
      %v9_s = arith.addi %v9_a, %v9_m : i32
      linalg.yield %v9_s : i32
    } -> tensor<8x1x32x4x8xi32>
    %v10 = tensor.expand_shape %v9 [[0, 1, 2], [3], [4], [5], [6]] output_shape [1, 4, 2, 1, 32, 4, 8] : tensor<8x1x32x4x8xi32> into tensor<1x4x2x1x32x4x8xi32>

    %v11_e = tensor.empty() : tensor<1x1x32x4x4x2x8xi32>
    %v11 = linalg.transpose ins(%v10 : tensor<1x4x2x1x32x4x8xi32>) outs(%v11_e : tensor<1x1x32x4x4x2x8xi32>) permutation = [0, 3, 4, 1, 5, 2, 6]

    %v12 = tensor.collapse_shape %v11 [[0], [1], [2], [3, 4], [5, 6]] : tensor<1x1x32x4x4x2x8xi32> into tensor<1x1x32x16x16xi32>

    %v13 = tensor.extract_slice %v12[0, 0, 0, 0, 0] [1, 1, 32, 14, 14] [1, 1, 1, 1, 1] : tensor<1x1x32x16x16xi32> to tensor<1x1x32x14x14xi32>

    %v14 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 32] : !bias into tensor<1x32xf32>

    %v15_e = tensor.empty() : tensor<1x1x32x14x14xi32>
    %v15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v13, %v14 : tensor<1x1x32x14x14xi32>, tensor<1x32xf32>) outs(%v15_e : tensor<1x1x32x14x14xi32>) {
    ^bb0(%v15_a: i32, %v15_b: f32, %v15_out: i32):
      %v15_f = arith.sitofp %v15_a : i32 to f32
      %v15_ab = arith.addf %v15_f, %v15_b : f32
      %v15_rn = math.roundeven %v15_ab : f32
      %v15_lo = arith.constant -2.147483648e+09 : f32
      %v15_hi = arith.constant 2.147483520e+09 : f32
      %v15_c1 = arith.maximumf %v15_rn, %v15_lo : f32
      %v15_c2 = arith.minimumf %v15_c1, %v15_hi : f32
      %v15_i = arith.fptosi %v15_c2 : f32 to i32
      linalg.yield %v15_i : i32
    } -> tensor<1x1x32x14x14xi32>
    %v16 = tensor.collapse_shape %v15 [[0], [1, 2], [3], [4]] : tensor<1x1x32x14x14xi32> into tensor<1x32x14x14xi32>

    %v17_z = arith.constant 0 : i32
    %v17_e = tensor.empty() : tensor<1x8x14x14x4xi32>
    %v17 = linalg.pack %v16 padding_value(%v17_z : i32) outer_dims_perm = [0, 1, 2, 3] inner_dims_pos = [1] inner_tiles = [4] into %v17_e : tensor<1x32x14x14xi32> -> tensor<1x8x14x14x4xi32>

    %v18 = tensor.collapse_shape %v17 [[0, 1, 2, 3, 4]] : tensor<1x8x14x14x4xi32> into !dst_buf

    return %v18 : !dst_buf
}
