// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<200704xf32>
!wei_buf = tensor<36864xf32>
!wei_prepared = tensor<3x3x64x64xf32>
!bias = tensor<64xf32>

func.func @conv_direct__mb1ic64ih56oc64oh56kh3ph1__f32_acdb__f32_abcd__f32_acdb__bias__relu_prepare(%wei: !wei_buf) -> !wei_prepared {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3]] output_shape [64, 64, 3, 3] : !wei_buf into tensor<64x64x3x3xf32>

    %w2 = tensor.expand_shape %w1 [[0, 1], [2], [3], [4]] output_shape [1, 64, 64, 3, 3] : tensor<64x64x3x3xf32> into tensor<1x64x64x3x3xf32>

    %w3 = tensor.collapse_shape %w2 [[0, 1], [2], [3], [4]] : tensor<1x64x64x3x3xf32> into tensor<64x64x3x3xf32>

    %w4_e = tensor.empty() : !wei_prepared
    %w4 = linalg.transpose ins(%w3 : tensor<64x64x3x3xf32>) outs(%w4_e : !wei_prepared) permutation = [2, 3, 1, 0]

    return %w4 : !wei_prepared
}

func.func @conv_direct__mb1ic64ih56oc64oh56kh3ph1__f32_acdb__f32_abcd__f32_acdb__bias__relu(%src: !src_dst_buf, %w: !wei_prepared, %bias: !bias) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3]] output_shape [1, 56, 56, 64] : !src_dst_buf into tensor<1x56x56x64xf32>

    %v2_z = arith.constant 0.0 : f32
    %v2 = tensor.pad %v1 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%v2_i0: index, %v2_i1: index, %v2_i2: index, %v2_i3: index):
      tensor.yield %v2_z : f32
    } : tensor<1x56x56x64xf32> to tensor<1x58x58x64xf32>

    %v3 = tensor.expand_shape %v2 [[0], [1], [2], [3, 4]] output_shape [1, 58, 58, 1, 64] : tensor<1x58x58x64xf32> into tensor<1x58x58x1x64xf32>

    %v4 = tensor.collapse_shape %v3 [[0], [1], [2], [3, 4]] : tensor<1x58x58x1x64xf32> into tensor<1x58x58x64xf32>

    %v5_z = arith.constant 0.0 : f32
    %v5_e = tensor.empty() : tensor<1x56x56x64xf32>
    %v5_acc = linalg.fill ins(%v5_z : f32) outs(%v5_e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
    %v5 = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
        ins(%v4, %w : tensor<1x58x58x64xf32>, !wei_prepared) outs(%v5_acc : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
    %v6 = tensor.expand_shape %v5 [[0], [1], [2], [3, 4]] output_shape [1, 56, 56, 1, 64] : tensor<1x56x56x64xf32> into tensor<1x56x56x1x64xf32>

    %v7 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 64] : !bias into tensor<1x64xf32>

    %v8_e = tensor.empty() : tensor<1x56x56x1x64xf32>
    %v8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v6, %v7 : tensor<1x56x56x1x64xf32>, tensor<1x64xf32>) outs(%v8_e : tensor<1x56x56x1x64xf32>) {
    ^bb0(%v8_a: f32, %v8_b: f32, %v8_out: f32):
      %v8_ab = arith.addf %v8_a, %v8_b : f32
      %v8_zero = arith.constant 0.0 : f32
      %v8_r = arith.maximumf %v8_ab, %v8_zero : f32
      linalg.yield %v8_r : f32
    } -> tensor<1x56x56x1x64xf32>
    %v9 = tensor.collapse_shape %v8 [[0], [1], [2], [3, 4]] : tensor<1x56x56x1x64xf32> into tensor<1x56x56x64xf32>

    %v10 = tensor.collapse_shape %v9 [[0, 1, 2, 3]] : tensor<1x56x56x64xf32> into !src_dst_buf

    return %v10 : !src_dst_buf
}
