// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<50176xbf16>
!wei_buf = tensor<36864xbf16>
!wei_prepared = tensor<3x3x64x64xbf16>
!bias = tensor<64xf32>

func.func @conv_direct__mb1ic64ih28oc64oh28kh3ph1__bf16_acdb__bf16_abcd__bf16_acdb__bias__sum_1_0__gelu_tanh_0_0_1__add_bf16_per_oc_prepare(%wei: !wei_buf) -> !wei_prepared {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3]] output_shape [64, 64, 3, 3] : !wei_buf into tensor<64x64x3x3xbf16>

    %w2 = tensor.expand_shape %w1 [[0, 1], [2], [3], [4]] output_shape [1, 64, 64, 3, 3] : tensor<64x64x3x3xbf16> into tensor<1x64x64x3x3xbf16>

    %w3 = tensor.collapse_shape %w2 [[0, 1], [2], [3], [4]] : tensor<1x64x64x3x3xbf16> into tensor<64x64x3x3xbf16>

    %w4_e = tensor.empty() : !wei_prepared
    %w4 = linalg.transpose ins(%w3 : tensor<64x64x3x3xbf16>) outs(%w4_e : !wei_prepared) permutation = [2, 3, 1, 0]

    return %w4 : !wei_prepared
}

func.func @conv_direct__mb1ic64ih28oc64oh28kh3ph1__bf16_acdb__bf16_abcd__bf16_acdb__bias__sum_1_0__gelu_tanh_0_0_1__add_bf16_per_oc(%src: !src_dst_buf, %w: !wei_prepared, %bias: !bias, %dst_init: !src_dst_buf, %binary_2: tensor<64xbf16>) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3]] output_shape [1, 28, 28, 64] : !src_dst_buf into tensor<1x28x28x64xbf16>

    %v2_z = arith.constant 0.0 : bf16
    %v2 = tensor.pad %v1 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%v2_i0: index, %v2_i1: index, %v2_i2: index, %v2_i3: index):
      tensor.yield %v2_z : bf16
    } : tensor<1x28x28x64xbf16> to tensor<1x30x30x64xbf16>

    %v3 = tensor.expand_shape %v2 [[0], [1], [2], [3, 4]] output_shape [1, 30, 30, 1, 64] : tensor<1x30x30x64xbf16> into tensor<1x30x30x1x64xbf16>

    %v4 = tensor.collapse_shape %v3 [[0], [1], [2], [3, 4]] : tensor<1x30x30x1x64xbf16> into tensor<1x30x30x64xbf16>

    %v5_z = arith.constant 0.0 : f32
    %v5_e = tensor.empty() : tensor<1x28x28x64xf32>
    %v5_acc = linalg.fill ins(%v5_z : f32) outs(%v5_e : tensor<1x28x28x64xf32>) -> tensor<1x28x28x64xf32>
    %v5 = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
        ins(%v4, %w : tensor<1x30x30x64xbf16>, !wei_prepared) outs(%v5_acc : tensor<1x28x28x64xf32>) -> tensor<1x28x28x64xf32>
    %v6 = tensor.expand_shape %v5 [[0], [1], [2], [3, 4]] output_shape [1, 28, 28, 1, 64] : tensor<1x28x28x64xf32> into tensor<1x28x28x1x64xf32>

    %v7 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 64] : !bias into tensor<1x64xf32>

    %v8 = tensor.expand_shape %dst_init [[0, 1, 2, 3]] output_shape [1, 28, 28, 64] : !src_dst_buf into tensor<1x28x28x64xbf16>

    %v9 = tensor.expand_shape %v8 [[0], [1], [2], [3, 4]] output_shape [1, 28, 28, 1, 64] : tensor<1x28x28x64xbf16> into tensor<1x28x28x1x64xbf16>

    %v10 = tensor.expand_shape %binary_2 [[0, 1]] output_shape [1, 64] : tensor<64xbf16> into tensor<1x64xbf16>

    %v11_e = tensor.empty() : tensor<1x28x28x1x64xbf16>
    %v11 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v6, %v7, %v9, %v10 : tensor<1x28x28x1x64xf32>, tensor<1x64xf32>, tensor<1x28x28x1x64xbf16>, tensor<1x64xbf16>) outs(%v11_e : tensor<1x28x28x1x64xbf16>) {
    ^bb0(%v11_a: f32, %v11_x0: f32, %v11_x1: bf16, %v11_x2: bf16, %v11_out: bf16):

      %v11_p0 = arith.addf %v11_a, %v11_x0 : f32
      %v11_p1_y = arith.extf %v11_x1 : bf16 to f32

      %v11_p1_sc = arith.constant 1.000000000e+00 : f32
      %v11_p1_ys = arith.mulf %v11_p1_y, %v11_p1_sc : f32
      %v11_p1 = arith.addf %v11_p0, %v11_p1_ys : f32
      %v11_p2_al = arith.constant 0.000000000e+00 : f32
      %v11_p2_be = arith.constant 0.000000000e+00 : f32
      %v11_p2_0 = arith.constant 0.0 : f32
      %v11_p2_1 = arith.constant 1.0 : f32
      %v11_p2_h = arith.constant 0.5 : f32
      %v11_p2_k0 = arith.constant 0.79788456080286536 : f32
      %v11_p2_k1 = arith.constant 0.044715 : f32
      %v11_p2_x2 = arith.mulf %v11_p1, %v11_p1 : f32
      %v11_p2_x3 = arith.mulf %v11_p2_x2, %v11_p1 : f32
      %v11_p2_kx3 = arith.mulf %v11_p2_x3, %v11_p2_k1 : f32
      %v11_p2_in = arith.addf %v11_p1, %v11_p2_kx3 : f32
      %v11_p2_ar = arith.mulf %v11_p2_in, %v11_p2_k0 : f32
      %v11_p2_th = math.tanh %v11_p2_ar : f32
      %v11_p2_t1 = arith.addf %v11_p2_th, %v11_p2_1 : f32
      %v11_p2_hx = arith.mulf %v11_p1, %v11_p2_h : f32
      %v11_p2_r = arith.mulf %v11_p2_hx, %v11_p2_t1 : f32

      %v11_p3_y = arith.extf %v11_x2 : bf16 to f32

      %v11_p3 = arith.addf %v11_p2_r, %v11_p3_y : f32
      %v11_p4 = arith.truncf %v11_p3 : f32 to bf16
      linalg.yield %v11_p4 : bf16
    } -> tensor<1x28x28x1x64xbf16>
    %v12 = tensor.collapse_shape %v11 [[0], [1], [2], [3, 4]] : tensor<1x28x28x1x64xbf16> into tensor<1x28x28x64xbf16>

    %v13 = tensor.collapse_shape %v12 [[0, 1, 2, 3]] : tensor<1x28x28x64xbf16> into !src_dst_buf

    return %v13 : !src_dst_buf
}
