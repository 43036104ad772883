// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<31360xf32>
!wei_buf = tensor<360xf32>
!wei_prepared = tensor<5x3x3x8xf32>
!bias = tensor<36xf32>

func.func @conv_direct__g36mb1ic36ih28oc36oh28kh3ph1__f32_aBcd8b__f32_Abcde8a__f32_aBcd8b__bias_prepare(%wei: !wei_buf) -> !wei_prepared {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3, 4, 5]] output_shape [5, 1, 1, 3, 3, 8] : !wei_buf into tensor<5x1x1x3x3x8xf32>

    %w2 = tensor.extract_slice %w1[0, 0, 0, 0, 0, 0] [4, 1, 1, 3, 3, 8] [1, 1, 1, 1, 1, 1] : tensor<5x1x1x3x3x8xf32> to tensor<4x1x1x3x3x8xf32>

    %w3_e = tensor.empty() : tensor<4x8x1x1x3x3xf32>
    %w3 = linalg.transpose ins(%w2 : tensor<4x1x1x3x3x8xf32>) outs(%w3_e : tensor<4x8x1x1x3x3xf32>) permutation = [0, 5, 1, 2, 3, 4]

    %w4 = tensor.collapse_shape %w3 [[0, 1], [2], [3], [4], [5]] : tensor<4x8x1x1x3x3xf32> into tensor<32x1x1x3x3xf32>

    %w5 = tensor.extract_slice %w1[4, 0, 0, 0, 0, 0] [1, 1, 1, 3, 3, 4] [1, 1, 1, 1, 1, 1] : tensor<5x1x1x3x3x8xf32> to tensor<1x1x1x3x3x4xf32>

    %w6_e = tensor.empty() : tensor<1x4x1x1x3x3xf32>
    %w6 = linalg.transpose ins(%w5 : tensor<1x1x1x3x3x4xf32>) outs(%w6_e : tensor<1x4x1x1x3x3xf32>) permutation = [0, 5, 1, 2, 3, 4]

    %w7 = tensor.collapse_shape %w6 [[0, 1], [2], [3], [4], [5]] : tensor<1x4x1x1x3x3xf32> into tensor<4x1x1x3x3xf32>

    %w8 = tensor.concat dim(0) %w4, %w7 : (tensor<32x1x1x3x3xf32>, tensor<4x1x1x3x3xf32>) -> tensor<36x1x1x3x3xf32>

    %w9 = tensor.collapse_shape %w8 [[0, 1, 2], [3], [4]] : tensor<36x1x1x3x3xf32> into tensor<36x3x3xf32>

    %w10_z = arith.constant 0.0 : f32
    %w10 = tensor.pad %w9 low[0, 0, 0] high[4, 0, 0] {
    ^bb0(%w10_i0: index, %w10_i1: index, %w10_i2: index):
      tensor.yield %w10_z : f32
    } : tensor<36x3x3xf32> to tensor<40x3x3xf32>

    %w11 = tensor.expand_shape %w10 [[0, 1], [2], [3]] output_shape [5, 8, 3, 3] : tensor<40x3x3xf32> into tensor<5x8x3x3xf32>

    %w12_e = tensor.empty() : !wei_prepared
    %w12 = linalg.transpose ins(%w11 : tensor<5x8x3x3xf32>) outs(%w12_e : !wei_prepared) permutation = [0, 2, 3, 1]

    return %w12 : !wei_prepared
}

func.func @conv_direct__g36mb1ic36ih28oc36oh28kh3ph1__f32_aBcd8b__f32_Abcde8a__f32_aBcd8b__bias(%src: !src_dst_buf, %w: !wei_prepared, %bias: !bias) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3, 4]] output_shape [1, 5, 28, 28, 8] : !src_dst_buf into tensor<1x5x28x28x8xf32>

    %v2_z = arith.constant 0.0 : f32
    %v2 = tensor.pad %v1 low[0, 0, 1, 1, 0] high[0, 0, 1, 1, 0] {
    ^bb0(%v2_i0: index, %v2_i1: index, %v2_i2: index, %v2_i3: index, %v2_i4: index):
      tensor.yield %v2_z : f32
    } : tensor<1x5x28x28x8xf32> to tensor<1x5x30x30x8xf32>

    %v3_z = arith.constant 0.0 : f32
    %v3_e = tensor.empty() : tensor<1x5x28x28x8xf32>
    %v3_acc = linalg.fill ins(%v3_z : f32) outs(%v3_e : tensor<1x5x28x28x8xf32>) -> tensor<1x5x28x28x8xf32>
    %v3 = linalg.generic {indexing_maps = [affine_map<(n, gb, o0, o1, gi, k0, k1) -> (n, gb, o0 * 1 + k0 * 1, o1 * 1 + k1 * 1, gi)>, affine_map<(n, gb, o0, o1, gi, k0, k1) -> (gb, k0, k1, gi)>, affine_map<(n, gb, o0, o1, gi, k0, k1) -> (n, gb, o0, o1, gi)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
        ins(%v2, %w : tensor<1x5x30x30x8xf32>, !wei_prepared) outs(%v3_acc : tensor<1x5x28x28x8xf32>) {
    ^bb0(%v3_x: f32, %v3_w: f32, %v3_a: f32):
      %v3_m = arith.mulf %v3_x, %v3_w : f32
      %v3_s = arith.addf %v3_a, %v3_m : f32
      linalg.yield %v3_s : f32
    } -> tensor<1x5x28x28x8xf32>
    %v4_z = arith.constant 0.0 : f32
    %v4 = tensor.pad %bias low[0] high[4] {
    ^bb0(%v4_i0: index):
      tensor.yield %v4_z : f32
    } : !bias to tensor<40xf32>

    %v5 = tensor.expand_shape %v4 [[0, 1]] output_shape [5, 8] : tensor<40xf32> into tensor<5x8xf32>

    %v6_e = tensor.empty() : tensor<1x5x28x28x8xf32>
    %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v3, %v5 : tensor<1x5x28x28x8xf32>, tensor<5x8xf32>) outs(%v6_e : tensor<1x5x28x28x8xf32>) {
    ^bb0(%v6_a: f32, %v6_b: f32, %v6_out: f32):
      %v6_ab = arith.addf %v6_a, %v6_b : f32
      linalg.yield %v6_ab : f32
    } -> tensor<1x5x28x28x8xf32>
    %v7 = tensor.collapse_shape %v6 [[0, 1, 2, 3, 4]] : tensor<1x5x28x28x8xf32> into !src_dst_buf

    return %v7 : !src_dst_buf
}
