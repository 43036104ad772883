// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<50176xf32>
!wei_buf = tensor<36864xf32>
!wei_prepared = tensor<1x64x576xf32>
!bias = tensor<64xf32>

func.func @conv_im2col__mb1ic64ih28oc64oh28kh3ph1__f32_abcd__f32_abcd__f32_abcd__bias_prepare(%wei: !wei_buf) -> !wei_prepared {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3]] output_shape [64, 64, 3, 3] : !wei_buf into tensor<64x64x3x3xf32>

    %w2 = tensor.expand_shape %w1 [[0, 1], [2], [3], [4]] output_shape [1, 64, 64, 3, 3] : tensor<64x64x3x3xf32> into tensor<1x64x64x3x3xf32>

    %w3 = tensor.collapse_shape %w2 [[0], [1], [2, 3, 4]] : tensor<1x64x64x3x3xf32> into !wei_prepared

    return %w3 : !wei_prepared
}

func.func @conv_im2col__mb1ic64ih28oc64oh28kh3ph1__f32_abcd__f32_abcd__f32_abcd__bias(%src: !src_dst_buf, %w: !wei_prepared, %bias: !bias) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3]] output_shape [1, 64, 28, 28] : !src_dst_buf into tensor<1x64x28x28xf32>

    %v2_z = arith.constant 0.0 : f32
    %v2 = tensor.pad %v1 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%v2_i0: index, %v2_i1: index, %v2_i2: index, %v2_i3: index):
      tensor.yield %v2_z : f32
    } : tensor<1x64x28x28xf32> to tensor<1x64x30x30xf32>

    %v3 = tensor.expand_shape %v2 [[0], [1, 2], [3], [4]] output_shape [1, 1, 64, 30, 30] : tensor<1x64x30x30xf32> into tensor<1x1x64x30x30xf32>

    %v4_e = tensor.empty() : tensor<1x1x64x3x3x28x28xf32>
    %v4 = linalg.generic {indexing_maps = [affine_map<(n, g, ic, k0, k1, o0, o1) -> (n, g, ic, o0 * 1 + k0 * 1, o1 * 1 + k1 * 1)>, affine_map<(n, g, ic, k0, k1, o0, o1) -> (n, g, ic, k0, k1, o0, o1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v3 : tensor<1x1x64x30x30xf32>) outs(%v4_e : tensor<1x1x64x3x3x28x28xf32>) {
    ^bb0(%v4_x: f32, %v4_y: f32):
      linalg.yield %v4_x : f32
    } -> tensor<1x1x64x3x3x28x28xf32>
    %v5 = tensor.collapse_shape %v4 [[0], [1], [2, 3, 4], [5, 6]] : tensor<1x1x64x3x3x28x28xf32> into tensor<1x1x576x784xf32>

    %v6_z = arith.constant 0.0 : f32
    %v6_e = tensor.empty() : tensor<1x1x64x784xf32>
    %v6_acc = linalg.fill ins(%v6_z : f32) outs(%v6_e : tensor<1x1x64x784xf32>) -> tensor<1x1x64x784xf32>
    %v6 = linalg.generic {indexing_maps = [affine_map<(n, g, oc, o, r) -> (n, g, r, o)>, affine_map<(n, g, oc, o, r) -> (g, oc, r)>, affine_map<(n, g, oc, o, r) -> (n, g, oc, o)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v5, %w : tensor<1x1x576x784xf32>, !wei_prepared) outs(%v6_acc : tensor<1x1x64x784xf32>) {
    ^bb0(%v6_x: f32, %v6_w: f32, %v6_a: f32):
      %v6_m = arith.mulf %v6_x, %v6_w : f32
      %v6_s = arith.addf %v6_a, %v6_m : f32
      linalg.yield %v6_s : f32
    } -> tensor<1x1x64x784xf32>
    %v7 = tensor.expand_shape %v6 [[0], [1], [2], [3, 4]] output_shape [1, 1, 64, 28, 28] : tensor<1x1x64x784xf32> into tensor<1x1x64x28x28xf32>

    %v8 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 64] : !bias into tensor<1x64xf32>

    %v9_e = tensor.empty() : tensor<1x1x64x28x28xf32>
    %v9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v7, %v8 : tensor<1x1x64x28x28xf32>, tensor<1x64xf32>) outs(%v9_e : tensor<1x1x64x28x28xf32>) {
    ^bb0(%v9_a: f32, %v9_b: f32, %v9_out: f32):
      %v9_ab = arith.addf %v9_a, %v9_b : f32
      linalg.yield %v9_ab : f32
    } -> tensor<1x1x64x28x28xf32>
    %v10 = tensor.collapse_shape %v9 [[0], [1, 2], [3], [4]] : tensor<1x1x64x28x28xf32> into tensor<1x64x28x28xf32>

    %v11 = tensor.collapse_shape %v10 [[0, 1, 2, 3]] : tensor<1x64x28x28xf32> into !src_dst_buf

    return %v11 : !src_dst_buf
}
