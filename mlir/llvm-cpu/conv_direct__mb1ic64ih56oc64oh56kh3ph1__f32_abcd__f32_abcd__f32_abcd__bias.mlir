// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<200704xf32>
!wei_buf = tensor<36864xf32>
!wei_prepared = tensor<4x3x3x16x64xf32>
!bias = tensor<64xf32>

func.func @conv_direct__mb1ic64ih56oc64oh56kh3ph1__f32_abcd__f32_abcd__f32_abcd__bias_prepare(%wei: !wei_buf) -> !wei_prepared {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3]] output_shape [64, 64, 3, 3] : !wei_buf into tensor<64x64x3x3xf32>

    %w2 = tensor.expand_shape %w1 [[0, 1], [2], [3], [4]] output_shape [1, 64, 64, 3, 3] : tensor<64x64x3x3xf32> into tensor<1x64x64x3x3xf32>

    %w3 = tensor.expand_shape %w2 [[0], [1], [2, 3], [4], [5]] output_shape [1, 64, 4, 16, 3, 3] : tensor<1x64x64x3x3xf32> into tensor<1x64x4x16x3x3xf32>

    %w4_e = tensor.empty() : tensor<1x4x3x3x16x64xf32>
    %w4 = linalg.transpose ins(%w3 : tensor<1x64x4x16x3x3xf32>) outs(%w4_e : tensor<1x4x3x3x16x64xf32>) permutation = [0, 2, 4, 5, 3, 1]

    %w5 = tensor.collapse_shape %w4 [[0, 1], [2], [3], [4], [5]] : tensor<1x4x3x3x16x64xf32> into !wei_prepared

    return %w5 : !wei_prepared
}

func.func @conv_direct__mb1ic64ih56oc64oh56kh3ph1__f32_abcd__f32_abcd__f32_abcd__bias(%src: !src_dst_buf, %w: !wei_prepared, %bias: !bias) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3]] output_shape [1, 64, 56, 56] : !src_dst_buf into tensor<1x64x56x56xf32>

    %v2_z = arith.constant 0.0 : f32
    %v2_e = tensor.empty() : tensor<1x4x56x56x16xf32>
    %v2 = linalg.pack %v1 padding_value(%v2_z : f32) outer_dims_perm = [0, 1, 2, 3] inner_dims_pos = [1] inner_tiles = [16] into %v2_e : tensor<1x64x56x56xf32> -> tensor<1x4x56x56x16xf32>

    %v3_z = arith.constant 0.0 : f32
    %v3 = tensor.pad %v2 low[0, 0, 1, 1, 0] high[0, 0, 1, 1, 0] {
    ^bb0(%v3_i0: index, %v3_i1: index, %v3_i2: index, %v3_i3: index, %v3_i4: index):
      tensor.yield %v3_z : f32
    } : tensor<1x4x56x56x16xf32> to tensor<1x4x58x58x16xf32>

    %v4 = tensor.expand_shape %v3 [[0], [1, 2], [3], [4], [5]] output_shape [1, 1, 4, 58, 58, 16] : tensor<1x4x58x58x16xf32> into tensor<1x1x4x58x58x16xf32>

    %v5 = tensor.collapse_shape %v4 [[0, 1], [2], [3], [4], [5]] : tensor<1x1x4x58x58x16xf32> into tensor<1x4x58x58x16xf32>

    %v6 = tensor.extract_slice %v5[0, 0, 0, 0, 0] [1, 1, 58, 58, 16] [1, 1, 1, 1, 1] : tensor<1x4x58x58x16xf32> to tensor<1x58x58x16xf32>

    %v7 = tensor.extract_slice %w[0, 0, 0, 0, 0] [1, 3, 3, 16, 64] [1, 1, 1, 1, 1] : !wei_prepared to tensor<3x3x16x64xf32>

    %v8_z = arith.constant 0.0 : f32
    %v8_e = tensor.empty() : tensor<1x56x56x64xf32>
    %v8_acc = linalg.fill ins(%v8_z : f32) outs(%v8_e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
    %v8 = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
        ins(%v6, %v7 : tensor<1x58x58x16xf32>, tensor<3x3x16x64xf32>) outs(%v8_acc : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
    %v9 = tensor.extract_slice %v5[0, 1, 0, 0, 0] [1, 1, 58, 58, 16] [1, 1, 1, 1, 1] : tensor<1x4x58x58x16xf32> to tensor<1x58x58x16xf32>

    %v10 = tensor.extract_slice %w[1, 0, 0, 0, 0] [1, 3, 3, 16, 64] [1, 1, 1, 1, 1] : !wei_prepared to tensor<3x3x16x64xf32>

    %v11 = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
        ins(%v9, %v10 : tensor<1x58x58x16xf32>, tensor<3x3x16x64xf32>) outs(%v8 : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
    %v12 = tensor.extract_slice %v5[0, 2, 0, 0, 0] [1, 1, 58, 58, 16] [1, 1, 1, 1, 1] : tensor<1x4x58x58x16xf32> to tensor<1x58x58x16xf32>

    %v13 = tensor.extract_slice %w[2, 0, 0, 0, 0] [1, 3, 3, 16, 64] [1, 1, 1, 1, 1] : !wei_prepared to tensor<3x3x16x64xf32>

    %v14 = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
        ins(%v12, %v13 : tensor<1x58x58x16xf32>, tensor<3x3x16x64xf32>) outs(%v11 : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
    %v15 = tensor.extract_slice %v5[0, 3, 0, 0, 0] [1, 1, 58, 58, 16] [1, 1, 1, 1, 1] : tensor<1x4x58x58x16xf32> to tensor<1x58x58x16xf32>

    %v16 = tensor.extract_slice %w[3, 0, 0, 0, 0] [1, 3, 3, 16, 64] [1, 1, 1, 1, 1] : !wei_prepared to tensor<3x3x16x64xf32>

    %v17 = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
        ins(%v15, %v16 : tensor<1x58x58x16xf32>, tensor<3x3x16x64xf32>) outs(%v14 : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
    %v18 = tensor.expand_shape %v17 [[0], [1], [2], [3, 4]] output_shape [1, 56, 56, 1, 64] : tensor<1x56x56x64xf32> into tensor<1x56x56x1x64xf32>

    %v19_e = tensor.empty() : tensor<1x1x64x56x56xf32>
    %v19 = linalg.transpose ins(%v18 : tensor<1x56x56x1x64xf32>) outs(%v19_e : tensor<1x1x64x56x56xf32>) permutation = [0, 3, 4, 1, 2]

    %v20 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 64] : !bias into tensor<1x64xf32>

    %v21_e = tensor.empty() : tensor<1x1x64x56x56xf32>
    %v21 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v19, %v20 : tensor<1x1x64x56x56xf32>, tensor<1x64xf32>) outs(%v21_e : tensor<1x1x64x56x56xf32>) {
    ^bb0(%v21_a: f32, %v21_b: f32, %v21_out: f32):
      %v21_ab = arith.addf %v21_a, %v21_b : f32
      linalg.yield %v21_ab : f32
    } -> tensor<1x1x64x56x56xf32>
    %v22 = tensor.collapse_shape %v21 [[0, 1, 2, 3, 4]] : tensor<1x1x64x56x56xf32> into !src_dst_buf

    return %v22 : !src_dst_buf
}
