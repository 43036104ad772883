// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<100352xf16>
!wei_buf = tensor<1152xf16>
!wei_prepared = tensor<3x3x128xf16>
!bias = tensor<128xf32>

func.func @conv_direct__g128mb1ic128ih28oc128oh28kh3ph1__f16_acdb__f16_abcde__f16_acdb__bias_prepare(%wei: !wei_buf) -> !wei_prepared {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3, 4]] output_shape [128, 1, 1, 3, 3] : !wei_buf into tensor<128x1x1x3x3xf16>

    %w2 = tensor.collapse_shape %w1 [[0, 1, 2], [3], [4]] : tensor<128x1x1x3x3xf16> into tensor<128x3x3xf16>

    %w3_e = tensor.empty() : !wei_prepared
    %w3 = linalg.transpose ins(%w2 : tensor<128x3x3xf16>) outs(%w3_e : !wei_prepared) permutation = [1, 2, 0]

    return %w3 : !wei_prepared
}

func.func @conv_direct__g128mb1ic128ih28oc128oh28kh3ph1__f16_acdb__f16_abcde__f16_acdb__bias(%src: !src_dst_buf, %w: !wei_prepared, %bias: !bias) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3]] output_shape [1, 28, 28, 128] : !src_dst_buf into tensor<1x28x28x128xf16>

    %v2_z = arith.constant 0.0 : f16
    %v2 = tensor.pad %v1 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%v2_i0: index, %v2_i1: index, %v2_i2: index, %v2_i3: index):
      tensor.yield %v2_z : f16
    } : tensor<1x28x28x128xf16> to tensor<1x30x30x128xf16>

    %v3 = tensor.expand_shape %v2 [[0], [1], [2], [3, 4]] output_shape [1, 30, 30, 128, 1] : tensor<1x30x30x128xf16> into tensor<1x30x30x128x1xf16>

    %v4 = tensor.collapse_shape %v3 [[0], [1], [2], [3, 4]] : tensor<1x30x30x128x1xf16> into tensor<1x30x30x128xf16>

    %v5_z = arith.constant 0.0 : f32
    %v5_e = tensor.empty() : tensor<1x28x28x128xf32>
    %v5_acc = linalg.fill ins(%v5_z : f32) outs(%v5_e : tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32>
    %v5 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
        ins(%v4, %w : tensor<1x30x30x128xf16>, !wei_prepared) outs(%v5_acc : tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32>
    %v6 = tensor.expand_shape %v5 [[0], [1], [2], [3, 4]] output_shape [1, 28, 28, 128, 1] : tensor<1x28x28x128xf32> into tensor<1x28x28x128x1xf32>

    %v7 = tensor.expand_shape %bias [[0, 1]] output_shape [128, 1] : !bias into tensor<128x1xf32>

    %v8_e = tensor.empty() : tensor<1x28x28x128x1xf16>
    %v8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v6, %v7 : tensor<1x28x28x128x1xf32>, tensor<128x1xf32>) outs(%v8_e : tensor<1x28x28x128x1xf16>) {
    ^bb0(%v8_a: f32, %v8_b: f32, %v8_out: f16):
      %v8_ab = arith.addf %v8_a, %v8_b : f32
      %v8_t = arith.truncf %v8_ab : f32 to f16
      linalg.yield %v8_t : f16
    } -> tensor<1x28x28x128x1xf16>
    %v9 = tensor.collapse_shape %v8 [[0], [1], [2], [3, 4]] : tensor<1x28x28x128x1xf16> into tensor<1x28x28x128xf16>

    %v10 = tensor.collapse_shape %v9 [[0, 1, 2, 3]] : tensor<1x28x28x128xf16> into !src_dst_buf

    return %v10 : !src_dst_buf
}
