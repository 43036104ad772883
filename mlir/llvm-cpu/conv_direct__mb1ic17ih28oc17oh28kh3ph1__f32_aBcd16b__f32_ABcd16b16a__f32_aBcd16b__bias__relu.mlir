// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<25088xf32>
!wei_buf = tensor<9216xf32>
!wei_prepared = tensor<2x3x3x16x32xf32>
!bias = tensor<17xf32>

func.func @conv_direct__mb1ic17ih28oc17oh28kh3ph1__f32_aBcd16b__f32_ABcd16b16a__f32_aBcd16b__bias__relu_prepare(%wei: !wei_buf) -> !wei_prepared {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3, 4, 5]] output_shape [2, 2, 3, 3, 16, 16] : !wei_buf into tensor<2x2x3x3x16x16xf32>

    %w2_e = tensor.empty() : tensor<17x17x3x3xf32>
    %w2 = linalg.unpack %w1 outer_dims_perm = [0, 1, 2, 3] inner_dims_pos = [1, 0] inner_tiles = [16, 16] into %w2_e : tensor<2x2x3x3x16x16xf32> -> tensor<17x17x3x3xf32>

    %w3 = tensor.expand_shape %w2 [[0, 1], [2], [3], [4]] output_shape [1, 17, 17, 3, 3] : tensor<17x17x3x3xf32> into tensor<1x17x17x3x3xf32>

    %w4_z = arith.constant 0.0 : f32
    %w4 = tensor.pad %w3 low[0, 0, 0, 0, 0] high[0, 15, 15, 0, 0] {
    ^bb0(%w4_i0: index, %w4_i1: index, %w4_i2: index, %w4_i3: index, %w4_i4: index):
      tensor.yield %w4_z : f32
    } : tensor<1x17x17x3x3xf32> to tensor<1x32x32x3x3xf32>

    %w5 = tensor.expand_shape %w4 [[0], [1], [2, 3], [4], [5]] output_shape [1, 32, 2, 16, 3, 3] : tensor<1x32x32x3x3xf32> into tensor<1x32x2x16x3x3xf32>

    %w6_e = tensor.empty() : tensor<1x2x3x3x16x32xf32>
    %w6 = linalg.transpose ins(%w5 : tensor<1x32x2x16x3x3xf32>) outs(%w6_e : tensor<1x2x3x3x16x32xf32>) permutation = [0, 2, 4, 5, 3, 1]

    %w7 = tensor.collapse_shape %w6 [[0, 1], [2], [3], [4], [5]] : tensor<1x2x3x3x16x32xf32> into !wei_prepared

    return %w7 : !wei_prepared
}

func.func @conv_direct__mb1ic17ih28oc17oh28kh3ph1__f32_aBcd16b__f32_ABcd16b16a__f32_aBcd16b__bias__relu(%src: !src_dst_buf, %w: !wei_prepared, %bias: !bias) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3, 4]] output_shape [1, 2, 28, 28, 16] : !src_dst_buf into tensor<1x2x28x28x16xf32>

    %v2_z = arith.constant 0.0 : f32
    %v2 = tensor.pad %v1 low[0, 0, 1, 1, 0] high[0, 0, 1, 1, 0] {
    ^bb0(%v2_i0: index, %v2_i1: index, %v2_i2: index, %v2_i3: index, %v2_i4: index):
      tensor.yield %v2_z : f32
    } : tensor<1x2x28x28x16xf32> to tensor<1x2x30x30x16xf32>

    %v3 = tensor.expand_shape %v2 [[0], [1, 2], [3], [4], [5]] output_shape [1, 1, 2, 30, 30, 16] : tensor<1x2x30x30x16xf32> into tensor<1x1x2x30x30x16xf32>

    %v4 = tensor.collapse_shape %v3 [[0, 1], [2], [3], [4], [5]] : tensor<1x1x2x30x30x16xf32> into tensor<1x2x30x30x16xf32>

    %v5 = tensor.extract_slice %v4[0, 0, 0, 0, 0] [1, 1, 30, 30, 16] [1, 1, 1, 1, 1] : tensor<1x2x30x30x16xf32> to tensor<1x30x30x16xf32>

    %v6 = tensor.extract_slice %w[0, 0, 0, 0, 0] [1, 3, 3, 16, 32] [1, 1, 1, 1, 1] : !wei_prepared to tensor<3x3x16x32xf32>

    %v7_z = arith.constant 0.0 : f32
    %v7_e = tensor.empty() : tensor<1x28x28x32xf32>
    %v7_acc = linalg.fill ins(%v7_z : f32) outs(%v7_e : tensor<1x28x28x32xf32>) -> tensor<1x28x28x32xf32>
    %v7 = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
        ins(%v5, %v6 : tensor<1x30x30x16xf32>, tensor<3x3x16x32xf32>) outs(%v7_acc : tensor<1x28x28x32xf32>) -> tensor<1x28x28x32xf32>
    %v8 = tensor.extract_slice %v4[0, 1, 0, 0, 0] [1, 1, 30, 30, 16] [1, 1, 1, 1, 1] : tensor<1x2x30x30x16xf32> to tensor<1x30x30x16xf32>

    %v9 = tensor.extract_slice %w[1, 0, 0, 0, 0] [1, 3, 3, 16, 32] [1, 1, 1, 1, 1] : !wei_prepared to tensor<3x3x16x32xf32>

    %v10 = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
        ins(%v8, %v9 : tensor<1x30x30x16xf32>, tensor<3x3x16x32xf32>) outs(%v7 : tensor<1x28x28x32xf32>) -> tensor<1x28x28x32xf32>
    %v11 = tensor.expand_shape %v10 [[0], [1], [2], [3, 4, 5]] output_shape [1, 28, 28, 1, 2, 16] : tensor<1x28x28x32xf32> into tensor<1x28x28x1x2x16xf32>

    %v12_e = tensor.empty() : tensor<1x1x2x28x28x16xf32>
    %v12 = linalg.transpose ins(%v11 : tensor<1x28x28x1x2x16xf32>) outs(%v12_e : tensor<1x1x2x28x28x16xf32>) permutation = [0, 3, 4, 1, 2, 5]

    %v13_z = arith.constant 0.0 : f32
    %v13 = tensor.pad %bias low[0] high[15] {
    ^bb0(%v13_i0: index):
      tensor.yield %v13_z : f32
    } : !bias to tensor<32xf32>

    %v14 = tensor.expand_shape %v13 [[0, 1, 2]] output_shape [1, 2, 16] : tensor<32xf32> into tensor<1x2x16xf32>

    %v15_e = tensor.empty() : tensor<1x1x2x28x28x16xf32>
    %v15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v12, %v14 : tensor<1x1x2x28x28x16xf32>, tensor<1x2x16xf32>) outs(%v15_e : tensor<1x1x2x28x28x16xf32>) {
    ^bb0(%v15_a: f32, %v15_b: f32, %v15_out: f32):
      %v15_ab = arith.addf %v15_a, %v15_b : f32
      %v15_zero = arith.constant 0.0 : f32
      %v15_r = arith.maximumf %v15_ab, %v15_zero : f32
      linalg.yield %v15_r : f32
    } -> tensor<1x1x2x28x28x16xf32>
    %v16 = tensor.collapse_shape %v15 [[0, 1, 2, 3, 4, 5]] : tensor<1x1x2x28x28x16xf32> into !src_dst_buf

    return %v16 : !src_dst_buf
}
