// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<50176xf32>
!wei_buf = tensor<36864xf32>
!wei_prepared = tensor<1x64x64x3x3xf32>
!bias = tensor<64xf32>

func.func @conv_spatial_pack__mb1ic64ih28oc64oh28kh3ph1__f32_abcd__f32_abcd__f32_abcd__bias_prepare(%wei: !wei_buf) -> !wei_prepared {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3]] output_shape [64, 64, 3, 3] : !wei_buf into tensor<64x64x3x3xf32>

    %w2 = tensor.expand_shape %w1 [[0, 1], [2], [3], [4]] output_shape [1, 64, 64, 3, 3] : tensor<64x64x3x3xf32> into !wei_prepared

    return %w2 : !wei_prepared
}

func.func @conv_spatial_pack__mb1ic64ih28oc64oh28kh3ph1__f32_abcd__f32_abcd__f32_abcd__bias(%src: !src_dst_buf, %w: !wei_prepared, %bias: !bias) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3]] output_shape [1, 64, 28, 28] : !src_dst_buf into tensor<1x64x28x28xf32>

    %v2_z = arith.constant 0.0 : f32
    %v2 = tensor.pad %v1 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%v2_i0: index, %v2_i1: index, %v2_i2: index, %v2_i3: index):
      tensor.yield %v2_z : f32
    } : tensor<1x64x28x28xf32> to tensor<1x64x30x30xf32>

    %v3 = tensor.expand_shape %v2 [[0], [1, 2], [3], [4]] output_shape [1, 1, 64, 30, 30] : tensor<1x64x30x30xf32> into tensor<1x1x64x30x30xf32>

    %v4_z = arith.constant 0.0 : f32
    %v4 = tensor.pad %v3 low[0, 0, 0, 0, 0] high[0, 0, 0, 0, 4] {
    ^bb0(%v4_i0: index, %v4_i1: index, %v4_i2: index, %v4_i3: index, %v4_i4: index):
      tensor.yield %v4_z : f32
    } : tensor<1x1x64x30x30xf32> to tensor<1x1x64x30x34xf32>

    %v5_e = tensor.empty() : tensor<1x7x4x1x64x6x10xf32>
    %v5 = linalg.generic {indexing_maps = [affine_map<(n, t0, t1, g, c, j0, j1) -> (n, g, c, t0 * 4 + j0, t1 * 8 + j1)>, affine_map<(n, t0, t1, g, c, j0, j1) -> (n, t0, t1, g, c, j0, j1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v4 : tensor<1x1x64x30x34xf32>) outs(%v5_e : tensor<1x7x4x1x64x6x10xf32>) {
    ^bb0(%v5_x: f32, %v5_y: f32):
      linalg.yield %v5_x : f32
    } -> tensor<1x7x4x1x64x6x10xf32>
    %v6 = util.optimization_barrier %v5 : tensor<1x7x4x1x64x6x10xf32>
    %v7 = tensor.collapse_shape %v6 [[0, 1, 2], [3], [4], [5], [6]] : tensor<1x7x4x1x64x6x10xf32> into tensor<28x1x64x6x10xf32>

    %v8_z = arith.constant 0.0 : f32
    %v8_e = tensor.empty() : tensor<28x1x64x4x8xf32>
    %v8_acc = linalg.fill ins(%v8_z : f32) outs(%v8_e : tensor<28x1x64x4x8xf32>) -> tensor<28x1x64x4x8xf32>
    %v8 = linalg.generic {indexing_maps = [affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (n, g, ic, o0 * 1 + k0 * 1, o1 * 1 + k1 * 1)>, affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (g, oc, ic, k0, k1)>, affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (n, g, oc, o0, o1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
        ins(%v7, %w : tensor<28x1x64x6x10xf32>, !wei_prepared) outs(%v8_acc : tensor<28x1x64x4x8xf32>) {
    ^bb0(%v8_x: f32, %v8_w: f32, %v8_a: f32):
      %v8_m = arith.mulf %v8_x, %v8_w : f32
      %v8_s = arith.addf %v8_a, %v8_m : f32
      linalg.yield %v8_s : f32
    } -> tensor<28x1x64x4x8xf32>
    %v9 = tensor.expand_shape %v8 [[0, 1, 2], [3], [4], [5], [6]] output_shape [1, 7, 4, 1, 64, 4, 8] : tensor<28x1x64x4x8xf32> into tensor<1x7x4x1x64x4x8xf32>

    %v10_e = tensor.empty() : tensor<1x1x64x7x4x4x8xf32>
    %v10 = linalg.transpose ins(%v9 : tensor<1x7x4x1x64x4x8xf32>) outs(%v10_e : tensor<1x1x64x7x4x4x8xf32>) permutation = [0, 3, 4, 1, 5, 2, 6]

    %v11 = tensor.collapse_shape %v10 [[0], [1], [2], [3, 4], [5, 6]] : tensor<1x1x64x7x4x4x8xf32> into tensor<1x1x64x28x32xf32>

    %v12 = tensor.extract_slice %v11[0, 0, 0, 0, 0] [1, 1, 64, 28, 28] [1, 1, 1, 1, 1] : tensor<1x1x64x28x32xf32> to tensor<1x1x64x28x28xf32>

    %v13 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 64] : !bias into tensor<1x64xf32>

    %v14_e = tensor.empty() : tensor<1x1x64x28x28xf32>
    %v14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v12, %v13 : tensor<1x1x64x28x28xf32>, tensor<1x64xf32>) outs(%v14_e : tensor<1x1x64x28x28xf32>) {
    ^bb0(%v14_a: f32, %v14_b: f32, %v14_out: f32):
      %v14_ab = arith.addf %v14_a, %v14_b : f32
      linalg.yield %v14_ab : f32
    } -> tensor<1x1x64x28x28xf32>
    %v15 = tensor.collapse_shape %v14 [[0], [1, 2], [3], [4]] : tensor<1x1x64x28x28xf32> into tensor<1x64x28x28xf32>

    %v16 = tensor.collapse_shape %v15 [[0, 1, 2, 3]] : tensor<1x64x28x28xf32> into !src_dst_buf

    return %v16 : !src_dst_buf
}
