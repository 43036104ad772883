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

    %v2_e = tensor.empty() : tensor<1x4x16x28x28xf16>
    %v2 = linalg.transpose ins(%v1 : tensor<1x4x28x28x16xf16>) outs(%v2_e : tensor<1x4x16x28x28xf16>) permutation = [0, 1, 4, 2, 3]

    %v3 = tensor.collapse_shape %v2 [[0], [1, 2], [3], [4]] : tensor<1x4x16x28x28xf16> into tensor<1x64x28x28xf16>

    %v4_z = arith.constant 0.0 : f16
    %v4 = tensor.pad %v3 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%v4_i0: index, %v4_i1: index, %v4_i2: index, %v4_i3: index):
      tensor.yield %v4_z : f16
    } : tensor<1x64x28x28xf16> to tensor<1x64x30x30xf16>

    %v5 = tensor.expand_shape %v4 [[0], [1, 2], [3], [4]] output_shape [1, 1, 64, 30, 30] : tensor<1x64x30x30xf16> into tensor<1x1x64x30x30xf16>

    %v6_e = tensor.empty() : tensor<1x1x64x3x3x28x28xf16>
    %v6 = linalg.generic {indexing_maps = [affine_map<(n, g, ic, k0, k1, o0, o1) -> (n, g, ic, o0 * 1 + k0 * 1, o1 * 1 + k1 * 1)>, affine_map<(n, g, ic, k0, k1, o0, o1) -> (n, g, ic, k0, k1, o0, o1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v5 : tensor<1x1x64x30x30xf16>) outs(%v6_e : tensor<1x1x64x3x3x28x28xf16>) {
    ^bb0(%v6_x: f16, %v6_y: f16):
      linalg.yield %v6_x : f16
    } -> tensor<1x1x64x3x3x28x28xf16>
    %v7 = tensor.collapse_shape %v6 [[0], [1], [2, 3, 4], [5, 6]] : tensor<1x1x64x3x3x28x28xf16> into tensor<1x1x576x784xf16>

    %v8_z = arith.constant 0.0 : f32
    %v8_e = tensor.empty() : tensor<1x1x64x784xf32>
    %v8_acc = linalg.fill ins(%v8_z : f32) outs(%v8_e : tensor<1x1x64x784xf32>) -> tensor<1x1x64x784xf32>
    %v8 = linalg.generic {indexing_maps = [affine_map<(n, g, oc, o, r) -> (n, g, r, o)>, affine_map<(n, g, oc, o, r) -> (g, oc, r)>, affine_map<(n, g, oc, o, r) -> (n, g, oc, o)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v7, %w : tensor<1x1x576x784xf16>, !wei_prepared) outs(%v8_acc : tensor<1x1x64x784xf32>) {
    ^bb0(%v8_x: f16, %v8_w: f16, %v8_a: f32):
      %v8_xe = arith.extf %v8_x : f16 to f32
      %v8_we = arith.extf %v8_w : f16 to f32
      %v8_m = arith.mulf %v8_xe, %v8_we : f32
      %v8_s = arith.addf %v8_a, %v8_m : f32
      linalg.yield %v8_s : f32
    } -> tensor<1x1x64x784xf32>
    %v9 = tensor.expand_shape %v8 [[0], [1], [2], [3, 4]] output_shape [1, 1, 64, 28, 28] : tensor<1x1x64x784xf32> into tensor<1x1x64x28x28xf32>

    %v10 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 64] : !bias into tensor<1x64xf32>

    %v11_e = tensor.empty() : tensor<1x1x64x28x28xf16>
    %v11 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v9, %v10 : tensor<1x1x64x28x28xf32>, tensor<1x64xf32>) outs(%v11_e : tensor<1x1x64x28x28xf16>) {
    ^bb0(%v11_a: f32, %v11_b: f32, %v11_out: f16):
      %v11_ab = arith.addf %v11_a, %v11_b : f32
      %v11_t = arith.truncf %v11_ab : f32 to f16
      linalg.yield %v11_t : f16
    } -> tensor<1x1x64x28x28xf16>
    %v12 = tensor.collapse_shape %v11 [[0], [1, 2], [3], [4]] : tensor<1x1x64x28x28xf16> into tensor<1x64x28x28xf16>

    %v13 = tensor.expand_shape %v12 [[0], [1, 2], [3], [4]] output_shape [1, 4, 16, 28, 28] : tensor<1x64x28x28xf16> into tensor<1x4x16x28x28xf16>

    %v14_e = tensor.empty() : tensor<1x4x28x28x16xf16>
    %v14 = linalg.transpose ins(%v13 : tensor<1x4x16x28x28xf16>) outs(%v14_e : tensor<1x4x28x28x16xf16>) permutation = [0, 1, 3, 4, 2]

    %v15 = tensor.collapse_shape %v14 [[0, 1, 2, 3, 4]] : tensor<1x4x28x28x16xf16> into !src_dst_buf

    return %v15 : !src_dst_buf
}
