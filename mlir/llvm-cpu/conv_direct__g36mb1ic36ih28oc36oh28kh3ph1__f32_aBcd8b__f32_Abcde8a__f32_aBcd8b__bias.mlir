// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<31360xf32>
!wei_buf = tensor<360xf32>
!wei_prepared = tensor<5x3x3x8xf32>
!bias = tensor<36xf32>

func.func @conv_direct__g36mb1ic36ih28oc36oh28kh3ph1__f32_aBcd8b__f32_Abcde8a__f32_aBcd8b__bias_prepare(%wei: !wei_buf) -> !wei_prepared {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3, 4, 5]] output_shape [5, 1, 1, 3, 3, 8] : !wei_buf into tensor<5x1x1x3x3x8xf32>

    %w2_e = tensor.empty() : tensor<36x1x1x3x3xf32>
    %w2 = linalg.unpack %w1 outer_dims_perm = [0, 1, 2, 3, 4] inner_dims_pos = [0] inner_tiles = [8] into %w2_e : tensor<5x1x1x3x3x8xf32> -> tensor<36x1x1x3x3xf32>

    %w3 = tensor.collapse_shape %w2 [[0, 1, 2], [3], [4]] : tensor<36x1x1x3x3xf32> into tensor<36x3x3xf32>

    %w4_z = arith.constant 0.0 : f32
    %w4 = tensor.pad %w3 low[0, 0, 0] high[4, 0, 0] {
    ^bb0(%w4_i0: index, %w4_i1: index, %w4_i2: index):
      tensor.yield %w4_z : f32
    } : tensor<36x3x3xf32> to tensor<40x3x3xf32>

    %w5 = tensor.expand_shape %w4 [[0, 1], [2], [3]] output_shape [5, 8, 3, 3] : tensor<40x3x3xf32> into tensor<5x8x3x3xf32>

    %w6_e = tensor.empty() : !wei_prepared
    %w6 = linalg.transpose ins(%w5 : tensor<5x8x3x3xf32>) outs(%w6_e : !wei_prepared) permutation = [0, 2, 3, 1]

    return %w6 : !wei_prepared
}

func.func @conv_direct__g36mb1ic36ih28oc36oh28kh3ph1__f32_aBcd8b__f32_Abcde8a__f32_aBcd8b__bias(%src: !src_dst_buf, %w: !wei_prepared, %bias: !bias) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3, 4]] output_shape [1, 5, 28, 28, 8] : !src_dst_buf into tensor<1x5x28x28x8xf32>

    %v2_z = arith.constant 0.0 : f32
    %v2 = tensor.pad %v1 low[0, 0, 1, 1, 0] high[0, 0, 1, 1, 0] {
    ^bb0(%v2_i0: index, %v2_i1: index, %v2_i2: index, %v2_i3: index, %v2_i4: index):
      tensor.yield %v2_z : f32
    } : tensor<1x5x28x28x8xf32> to tensor<1x5x30x30x8xf32>

    %v3 = tensor.extract_slice %v2[0, 0, 0, 0, 0] [1, 1, 30, 30, 8] [1, 1, 1, 1, 1] : tensor<1x5x30x30x8xf32> to tensor<1x30x30x8xf32>

    %v4 = tensor.extract_slice %w[0, 0, 0, 0] [1, 3, 3, 8] [1, 1, 1, 1] : !wei_prepared to tensor<3x3x8xf32>

    %v5_z = arith.constant 0.0 : f32
    %v5_e = tensor.empty() : tensor<1x28x28x8xf32>
    %v5_acc = linalg.fill ins(%v5_z : f32) outs(%v5_e : tensor<1x28x28x8xf32>) -> tensor<1x28x28x8xf32>
    %v5 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
        ins(%v3, %v4 : tensor<1x30x30x8xf32>, tensor<3x3x8xf32>) outs(%v5_acc : tensor<1x28x28x8xf32>) -> tensor<1x28x28x8xf32>
    %v6 = tensor.expand_shape %v5 [[0, 1], [2], [3], [4]] output_shape [1, 1, 28, 28, 8] : tensor<1x28x28x8xf32> into tensor<1x1x28x28x8xf32>

    %v7 = tensor.extract_slice %v2[0, 1, 0, 0, 0] [1, 1, 30, 30, 8] [1, 1, 1, 1, 1] : tensor<1x5x30x30x8xf32> to tensor<1x30x30x8xf32>

    %v8 = tensor.extract_slice %w[1, 0, 0, 0] [1, 3, 3, 8] [1, 1, 1, 1] : !wei_prepared to tensor<3x3x8xf32>

    %v9_z = arith.constant 0.0 : f32
    %v9_e = tensor.empty() : tensor<1x28x28x8xf32>
    %v9_acc = linalg.fill ins(%v9_z : f32) outs(%v9_e : tensor<1x28x28x8xf32>) -> tensor<1x28x28x8xf32>
    %v9 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
        ins(%v7, %v8 : tensor<1x30x30x8xf32>, tensor<3x3x8xf32>) outs(%v9_acc : tensor<1x28x28x8xf32>) -> tensor<1x28x28x8xf32>
    %v10 = tensor.expand_shape %v9 [[0, 1], [2], [3], [4]] output_shape [1, 1, 28, 28, 8] : tensor<1x28x28x8xf32> into tensor<1x1x28x28x8xf32>

    %v11 = tensor.extract_slice %v2[0, 2, 0, 0, 0] [1, 1, 30, 30, 8] [1, 1, 1, 1, 1] : tensor<1x5x30x30x8xf32> to tensor<1x30x30x8xf32>

    %v12 = tensor.extract_slice %w[2, 0, 0, 0] [1, 3, 3, 8] [1, 1, 1, 1] : !wei_prepared to tensor<3x3x8xf32>

    %v13_z = arith.constant 0.0 : f32
    %v13_e = tensor.empty() : tensor<1x28x28x8xf32>
    %v13_acc = linalg.fill ins(%v13_z : f32) outs(%v13_e : tensor<1x28x28x8xf32>) -> tensor<1x28x28x8xf32>
    %v13 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
        ins(%v11, %v12 : tensor<1x30x30x8xf32>, tensor<3x3x8xf32>) outs(%v13_acc : tensor<1x28x28x8xf32>) -> tensor<1x28x28x8xf32>
    %v14 = tensor.expand_shape %v13 [[0, 1], [2], [3], [4]] output_shape [1, 1, 28, 28, 8] : tensor<1x28x28x8xf32> into tensor<1x1x28x28x8xf32>

    %v15 = tensor.extract_slice %v2[0, 3, 0, 0, 0] [1, 1, 30, 30, 8] [1, 1, 1, 1, 1] : tensor<1x5x30x30x8xf32> to tensor<1x30x30x8xf32>

    %v16 = tensor.extract_slice %w[3, 0, 0, 0] [1, 3, 3, 8] [1, 1, 1, 1] : !wei_prepared to tensor<3x3x8xf32>

    %v17_z = arith.constant 0.0 : f32
    %v17_e = tensor.empty() : tensor<1x28x28x8xf32>
    %v17_acc = linalg.fill ins(%v17_z : f32) outs(%v17_e : tensor<1x28x28x8xf32>) -> tensor<1x28x28x8xf32>
    %v17 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
        ins(%v15, %v16 : tensor<1x30x30x8xf32>, tensor<3x3x8xf32>) outs(%v17_acc : tensor<1x28x28x8xf32>) -> tensor<1x28x28x8xf32>
    %v18 = tensor.expand_shape %v17 [[0, 1], [2], [3], [4]] output_shape [1, 1, 28, 28, 8] : tensor<1x28x28x8xf32> into tensor<1x1x28x28x8xf32>

    %v19 = tensor.extract_slice %v2[0, 4, 0, 0, 0] [1, 1, 30, 30, 8] [1, 1, 1, 1, 1] : tensor<1x5x30x30x8xf32> to tensor<1x30x30x8xf32>

    %v20 = tensor.extract_slice %w[4, 0, 0, 0] [1, 3, 3, 8] [1, 1, 1, 1] : !wei_prepared to tensor<3x3x8xf32>

    %v21_z = arith.constant 0.0 : f32
    %v21_e = tensor.empty() : tensor<1x28x28x8xf32>
    %v21_acc = linalg.fill ins(%v21_z : f32) outs(%v21_e : tensor<1x28x28x8xf32>) -> tensor<1x28x28x8xf32>
    %v21 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
        ins(%v19, %v20 : tensor<1x30x30x8xf32>, tensor<3x3x8xf32>) outs(%v21_acc : tensor<1x28x28x8xf32>) -> tensor<1x28x28x8xf32>
    %v22 = tensor.expand_shape %v21 [[0, 1], [2], [3], [4]] output_shape [1, 1, 28, 28, 8] : tensor<1x28x28x8xf32> into tensor<1x1x28x28x8xf32>

    %v23 = tensor.concat dim(1) %v6, %v10, %v14, %v18, %v22 : (tensor<1x1x28x28x8xf32>, tensor<1x1x28x28x8xf32>, tensor<1x1x28x28x8xf32>, tensor<1x1x28x28x8xf32>, tensor<1x1x28x28x8xf32>) -> tensor<1x5x28x28x8xf32>

    %v24_z = arith.constant 0.0 : f32
    %v24 = tensor.pad %bias low[0] high[4] {
    ^bb0(%v24_i0: index):
      tensor.yield %v24_z : f32
    } : !bias to tensor<40xf32>

    %v25 = tensor.expand_shape %v24 [[0, 1]] output_shape [5, 8] : tensor<40xf32> into tensor<5x8xf32>

    %v26_e = tensor.empty() : tensor<1x5x28x28x8xf32>
    %v26 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v23, %v25 : tensor<1x5x28x28x8xf32>, tensor<5x8xf32>) outs(%v26_e : tensor<1x5x28x28x8xf32>) {
    ^bb0(%v26_a: f32, %v26_b: f32, %v26_out: f32):
      %v26_ab = arith.addf %v26_a, %v26_b : f32
      linalg.yield %v26_ab : f32
    } -> tensor<1x5x28x28x8xf32>
    %v27 = tensor.collapse_shape %v26 [[0, 1, 2, 3, 4]] : tensor<1x5x28x28x8xf32> into !src_dst_buf

    return %v27 : !src_dst_buf
}
