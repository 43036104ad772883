// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<50176xf16>
!wei_buf = tensor<36864xf16>
!wei_prepared = tensor<1x64x576xf16>
!bias = tensor<64xf32>

func.func @conv_im2col__mb1ic64ih28oc64oh28kh3ph1__f16_aBcd16b__f16_abcd__f16_aBcd16b__bias_prepare(%wei: !wei_buf) -> !wei_prepared {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3]] output_shape [64, 64, 3, 3] : !wei_buf into tensor<64x64x3x3xf16>

    %w2 = tensor.expand_shape %w1 [[0, 1], [2], [3], [4]] output_shape [1, 64, 64, 3, 3] : tensor<64x64x3x3xf16> into tensor<1x64x64x3x3xf16>

    %w3 = tensor.collapse_shape %w2 [[0], [1], [2, 3, 4]] : tensor<1x64x64x3x3xf16> into !wei_prepared

    return %w3 : !wei_prepared
}

func.func @conv_im2col__mb1ic64ih28oc64oh28kh3ph1__f16_aBcd16b__f16_abcd__f16_aBcd16b__bias(%src: !src_dst_buf, %w: !wei_prepared, %bias: !bias) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3, 4]] output_shape [1, 4, 28, 28, 16] : !src_dst_buf into tensor<1x4x28x28x16xf16>

    %v2_e = tensor.empty() : tensor<1x64x28x28xf16>
    %v2 = linalg.unpack %v1 outer_dims_perm = [0, 1, 2, 3] inner_dims_pos = [1] inner_tiles = [16] into %v2_e : tensor<1x4x28x28x16xf16> -> tensor<1x64x28x28xf16>

    %v3_z = arith.constant 0.0 : f16
    %v3 = tensor.pad %v2 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%v3_i0: index, %v3_i1: index, %v3_i2: index, %v3_i3: index):
      tensor.yield %v3_z : f16
    } : tensor<1x64x28x28xf16> to tensor<1x64x30x30xf16>

    %v4 = tensor.expand_shape %v3 [[0], [1, 2], [3], [4]] output_shape [1, 1, 64, 30, 30] : tensor<1x64x30x30xf16> into tensor<1x1x64x30x30xf16>

    %v5_e = tensor.empty() : tensor<1x1x64x3x3x28x28xf16>
    %v5 = linalg.generic {indexing_maps = [affine_map<(n, g, ic, k0, k1, o0, o1) -> (n, g, ic, o0 * 1 + k0 * 1, o1 * 1 + k1 * 1)>, affine_map<(n, g, ic, k0, k1, o0, o1) -> (n, g, ic, k0, k1, o0, o1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v4 : tensor<1x1x64x30x30xf16>) outs(%v5_e : tensor<1x1x64x3x3x28x28xf16>) {
    ^bb0(%v5_x: f16, %v5_y: f16):
      linalg.yield %v5_x : f16
    } -> tensor<1x1x64x3x3x28x28xf16>
    %v6 = tensor.collapse_shape %v5 [[0], [1], [2, 3, 4], [5, 6]] : tensor<1x1x64x3x3x28x28xf16> into tensor<1x1x576x784xf16>

    %v7_z = arith.constant 0.0 : f32
    %v7_e = tensor.empty() : tensor<1x1x64x784xf32>
    %v7_acc = linalg.fill ins(%v7_z : f32) outs(%v7_e : tensor<1x1x64x784xf32>) -> tensor<1x1x64x784xf32>
    %v7 = linalg.generic {indexing_maps = [affine_map<(n, g, oc, o, r) -> (n, g, r, o)>, affine_map<(n, g, oc, o, r) -> (g, oc, r)>, affine_map<(n, g, oc, o, r) -> (n, g, oc, o)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v6, %w : tensor<1x1x576x784xf16>, !wei_prepared) outs(%v7_acc : tensor<1x1x64x784xf32>) {
    ^bb0(%v7_x: f16, %v7_w: f16, %v7_a: f32):
      %v7_xe = arith.extf %v7_x : f16 to f32
      %v7_we = arith.extf %v7_w : f16 to f32
      %v7_m = arith.mulf %v7_xe, %v7_we : f32
      %v7_s = arith.addf %v7_a, %v7_m : f32
      linalg.yield %v7_s : f32
    } -> tensor<1x1x64x784xf32>
    %v8 = tensor.expand_shape %v7 [[0], [1], [2], [3, 4]] output_shape [1, 1, 64, 28, 28] : tensor<1x1x64x784xf32> into tensor<1x1x64x28x28xf32>

    %v9 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 64] : !bias into tensor<1x64xf32>

    %v10_e = tensor.empty() : tensor<1x1x64x28x28xf16>
    %v10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v8, %v9 : tensor<1x1x64x28x28xf32>, tensor<1x64xf32>) outs(%v10_e : tensor<1x1x64x28x28xf16>) {
    ^bb0(%v10_a: f32, %v10_b: f32, %v10_out: f16):
      %v10_ab = arith.addf %v10_a, %v10_b : f32
      %v10_t = arith.truncf %v10_ab : f32 to f16
      linalg.yield %v10_t : f16
    } -> tensor<1x1x64x28x28xf16>
    %v11 = tensor.collapse_shape %v10 [[0], [1, 2], [3], [4]] : tensor<1x1x64x28x28xf16> into tensor<1x64x28x28xf16>

    %v12_z = arith.constant 0.0 : f16
    %v12_e = tensor.empty() : tensor<1x4x28x28x16xf16>
    %v12 = linalg.pack %v11 padding_value(%v12_z : f16) outer_dims_perm = [0, 1, 2, 3] inner_dims_pos = [1] inner_tiles = [16] into %v12_e : tensor<1x64x28x28xf16> -> tensor<1x4x28x28x16xf16>

    %v13 = tensor.collapse_shape %v12 [[0, 1, 2, 3, 4]] : tensor<1x4x28x28x16xf16> into !src_dst_buf

    return %v13 : !src_dst_buf
}
