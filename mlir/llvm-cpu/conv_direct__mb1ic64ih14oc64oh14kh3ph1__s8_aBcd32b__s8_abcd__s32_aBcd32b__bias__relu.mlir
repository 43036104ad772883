// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_buf = tensor<12544xi8>
!wei_buf = tensor<36864xi8>
!wei_prepared = tensor<2x3x3x32x64xi8>
!bias = tensor<64xf32>
!dst_buf = tensor<12544xi32>

func.func @conv_direct__mb1ic64ih14oc64oh14kh3ph1__s8_aBcd32b__s8_abcd__s32_aBcd32b__bias__relu_prepare(%wei: !wei_buf) -> !wei_prepared {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3]] output_shape [64, 64, 3, 3] : !wei_buf into tensor<64x64x3x3xi8>

    %w2 = tensor.expand_shape %w1 [[0, 1], [2], [3], [4]] output_shape [1, 64, 64, 3, 3] : tensor<64x64x3x3xi8> into tensor<1x64x64x3x3xi8>

    %w3 = tensor.expand_shape %w2 [[0], [1], [2, 3], [4], [5]] output_shape [1, 64, 2, 32, 3, 3] : tensor<1x64x64x3x3xi8> into tensor<1x64x2x32x3x3xi8>

    %w4_e = tensor.empty() : tensor<1x2x3x3x32x64xi8>
    %w4 = linalg.transpose ins(%w3 : tensor<1x64x2x32x3x3xi8>) outs(%w4_e : tensor<1x2x3x3x32x64xi8>) permutation = [0, 2, 4, 5, 3, 1]

    %w5 = tensor.collapse_shape %w4 [[0, 1], [2], [3], [4], [5]] : tensor<1x2x3x3x32x64xi8> into !wei_prepared

    return %w5 : !wei_prepared
}

func.func @conv_direct__mb1ic64ih14oc64oh14kh3ph1__s8_aBcd32b__s8_abcd__s32_aBcd32b__bias__relu(%src: !src_buf, %w: !wei_prepared, %bias: !bias) -> !dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3, 4]] output_shape [1, 2, 14, 14, 32] : !src_buf into tensor<1x2x14x14x32xi8>

    %v2_z = arith.constant 0 : i8
    %v2 = tensor.pad %v1 low[0, 0, 1, 1, 0] high[0, 0, 1, 1, 0] {
    ^bb0(%v2_i0: index, %v2_i1: index, %v2_i2: index, %v2_i3: index, %v2_i4: index):
      tensor.yield %v2_z : i8
    } : tensor<1x2x14x14x32xi8> to tensor<1x2x16x16x32xi8>

    %v3 = tensor.expand_shape %v2 [[0], [1, 2], [3], [4], [5]] output_shape [1, 1, 2, 16, 16, 32] : tensor<1x2x16x16x32xi8> into tensor<1x1x2x16x16x32xi8>

    %v4 = tensor.collapse_shape %v3 [[0, 1], [2], [3], [4], [5]] : tensor<1x1x2x16x16x32xi8> into tensor<1x2x16x16x32xi8>

    %v5 = tensor.extract_slice %v4[0, 0, 0, 0, 0] [1, 1, 16, 16, 32] [1, 1, 1, 1, 1] : tensor<1x2x16x16x32xi8> to tensor<1x16x16x32xi8>

    %v6 = tensor.extract_slice %w[0, 0, 0, 0, 0] [1, 3, 3, 32, 64] [1, 1, 1, 1, 1] : !wei_prepared to tensor<3x3x32x64xi8>

    %v7_z = arith.constant 0 : i32
    %v7_e = tensor.empty() : tensor<1x14x14x64xi32>
    %v7_acc = linalg.fill ins(%v7_z : i32) outs(%v7_e : tensor<1x14x14x64xi32>) -> tensor<1x14x14x64xi32>
    %v7 = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
        ins(%v5, %v6 : tensor<1x16x16x32xi8>, tensor<3x3x32x64xi8>) outs(%v7_acc : tensor<1x14x14x64xi32>) -> tensor<1x14x14x64xi32>
    %v8 = tensor.extract_slice %v4[0, 1, 0, 0, 0] [1, 1, 16, 16, 32] [1, 1, 1, 1, 1] : tensor<1x2x16x16x32xi8> to tensor<1x16x16x32xi8>

    %v9 = tensor.extract_slice %w[1, 0, 0, 0, 0] [1, 3, 3, 32, 64] [1, 1, 1, 1, 1] : !wei_prepared to tensor<3x3x32x64xi8>

    %v10 = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
        ins(%v8, %v9 : tensor<1x16x16x32xi8>, tensor<3x3x32x64xi8>) outs(%v7 : tensor<1x14x14x64xi32>) -> tensor<1x14x14x64xi32>
    %v11 = tensor.expand_shape %v10 [[0], [1], [2], [3, 4, 5]] output_shape [1, 14, 14, 1, 2, 32] : tensor<1x14x14x64xi32> into tensor<1x14x14x1x2x32xi32>

    %v12_e = tensor.empty() : tensor<1x1x2x14x14x32xi32>
    %v12 = linalg.transpose ins(%v11 : tensor<1x14x14x1x2x32xi32>) outs(%v12_e : tensor<1x1x2x14x14x32xi32>) permutation = [0, 3, 4, 1, 2, 5]

    %v13 = tensor.expand_shape %bias [[0, 1, 2]] output_shape [1, 2, 32] : !bias into tensor<1x2x32xf32>

    %v14_e = tensor.empty() : tensor<1x1x2x14x14x32xi32>
    %v14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v12, %v13 : tensor<1x1x2x14x14x32xi32>, tensor<1x2x32xf32>) outs(%v14_e : tensor<1x1x2x14x14x32xi32>) {
    ^bb0(%v14_a: i32, %v14_b: f32, %v14_out: i32):
      %v14_f = arith.sitofp %v14_a : i32 to f32
      %v14_ab = arith.addf %v14_f, %v14_b : f32
      %v14_zero = arith.constant 0.0 : f32
      %v14_r = arith.maximumf %v14_ab, %v14_zero : f32
      %v14_rn = math.roundeven %v14_r : f32
      %v14_lo = arith.constant -2.147483648e+09 : f32
      %v14_hi = arith.constant 2.147483520e+09 : f32
      %v14_c1 = arith.maximumf %v14_rn, %v14_lo : f32
      %v14_c2 = arith.minimumf %v14_c1, %v14_hi : f32
      %v14_i = arith.fptosi %v14_c2 : f32 to i32
      linalg.yield %v14_i : i32
    } -> tensor<1x1x2x14x14x32xi32>
    %v15 = tensor.collapse_shape %v14 [[0, 1, 2, 3, 4, 5]] : tensor<1x1x2x14x14x32xi32> into !dst_buf

    return %v15 : !dst_buf
}
