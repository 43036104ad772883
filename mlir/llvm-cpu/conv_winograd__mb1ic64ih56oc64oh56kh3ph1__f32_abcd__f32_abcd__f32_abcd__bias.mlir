// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<200704xf32>
!wei_buf = tensor<36864xf32>
!wei_prepared = tensor<36x8x64x8x1xf32>
!bias = tensor<64xf32>

func.func @conv_winograd__mb1ic64ih56oc64oh56kh3ph1__f32_abcd__f32_abcd__f32_abcd__bias_prepare(%wei: !wei_buf) -> !wei_prepared {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3]] output_shape [64, 64, 3, 3] : !wei_buf into tensor<64x64x3x3xf32>

    %w2 = tensor.expand_shape %w1 [[0, 1], [2], [3], [4]] output_shape [1, 64, 64, 3, 3] : tensor<64x64x3x3xf32> into tensor<1x64x64x3x3xf32>

    %w3 = arith.constant dense<"0x0000803E0000000000000000ABAA2ABEABAA2ABEABAA2ABEABAA2ABEABAA2A3EABAA2ABEABAA2A3DABAAAA3DABAA2A3EABAA2A3DABAAAABDABAA2A3E00000000000000000000803F"> : tensor<6x3xf32>
    %w4_z = arith.constant 0.0 : f32
    %w4_e = tensor.empty() : tensor<6x1x64x64x3xf32>
    %w4_acc = linalg.fill ins(%w4_z : f32) outs(%w4_e : tensor<6x1x64x64x3xf32>) -> tensor<6x1x64x64x3xf32>
    %w4 = linalg.generic {indexing_maps = [affine_map<(a, g, oc, ic, j, i) -> (a, i)>, affine_map<(a, g, oc, ic, j, i) -> (g, oc, ic, i, j)>, affine_map<(a, g, oc, ic, j, i) -> (a, g, oc, ic, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%w3, %w2 : tensor<6x3xf32>, tensor<1x64x64x3x3xf32>) outs(%w4_acc : tensor<6x1x64x64x3xf32>) {
    ^bb0(%w4_c: f32, %w4_x: f32, %w4_a: f32):
      %w4_m = arith.mulf %w4_c, %w4_x : f32
      %w4_s = arith.addf %w4_a, %w4_m : f32
      linalg.yield %w4_s : f32
    } -> tensor<6x1x64x64x3xf32>
    %w5_z = arith.constant 0.0 : f32
    %w5_e = tensor.empty() : tensor<6x6x1x64x64xf32>
    %w5_acc = linalg.fill ins(%w5_z : f32) outs(%w5_e : tensor<6x6x1x64x64xf32>) -> tensor<6x6x1x64x64xf32>
    %w5 = linalg.generic {indexing_maps = [affine_map<(a, b, g, oc, ic, j) -> (b, j)>, affine_map<(a, b, g, oc, ic, j) -> (a, g, oc, ic, j)>, affine_map<(a, b, g, oc, ic, j) -> (a, b, g, oc, ic)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%w3, %w4 : tensor<6x3xf32>, tensor<6x1x64x64x3xf32>) outs(%w5_acc : tensor<6x6x1x64x64xf32>) {
    ^bb0(%w5_c: f32, %w5_x: f32, %w5_a: f32):
      %w5_m = arith.mulf %w5_c, %w5_x : f32
      %w5_s = arith.addf %w5_a, %w5_m : f32
      linalg.yield %w5_s : f32
    } -> tensor<6x6x1x64x64xf32>
    %w6 = tensor.expand_shape %w5 [[0], [1], [2], [3, 4], [5]] output_shape [6, 6, 1, 8, 8, 64] : tensor<6x6x1x64x64xf32> into tensor<6x6x1x8x8x64xf32>

    %w7_e = tensor.empty() : tensor<6x6x1x8x64x8xf32>
    %w7 = linalg.transpose ins(%w6 : tensor<6x6x1x8x8x64xf32>) outs(%w7_e : tensor<6x6x1x8x64x8xf32>) permutation = [0, 1, 2, 3, 5, 4]

    %w8 = tensor.collapse_shape %w7 [[0, 1, 2], [3], [4], [5]] : tensor<6x6x1x8x64x8xf32> into tensor<36x8x64x8xf32>

    %w9 = tensor.expand_shape %w8 [[0], [1], [2], [3, 4]] output_shape [36, 8, 64, 8, 1] : tensor<36x8x64x8xf32> into !wei_prepared

    return %w9 : !wei_prepared
}

func.func @conv_winograd__mb1ic64ih56oc64oh56kh3ph1__f32_abcd__f32_abcd__f32_abcd__bias(%src: !src_dst_buf, %w: !wei_prepared, %bias: !bias) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3]] output_shape [1, 64, 56, 56] : !src_dst_buf into tensor<1x64x56x56xf32>

    %v2_z = arith.constant 0.0 : f32
    %v2 = tensor.pad %v1 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%v2_i0: index, %v2_i1: index, %v2_i2: index, %v2_i3: index):
      tensor.yield %v2_z : f32
    } : tensor<1x64x56x56xf32> to tensor<1x64x58x58xf32>

    %v3 = tensor.expand_shape %v2 [[0], [1, 2], [3], [4]] output_shape [1, 1, 64, 58, 58] : tensor<1x64x58x58xf32> into tensor<1x1x64x58x58xf32>

    %v4 = arith.constant dense<"0x00008040000000000000A0C0000000000000803F0000000000000000000080C0000080C00000803F0000803F000000000000000000008040000080C0000080BF0000803F0000000000000000000000C0000080BF000000400000803F000000000000000000000040000080BF000000C00000803F000000000000000000008040000000000000A0C0000000000000803F"> : tensor<6x6xf32>
    %v5 = arith.constant dense<"0x0000803F0000803F0000803F0000803F0000803F00000000000000000000803F000080BF00000040000000C000000000000000000000803F0000803F000080400000804000000000000000000000803F000080BF00000041000000C10000803F"> : tensor<4x6xf32>
    %v6_z = arith.constant 0.0 : f32
    %v6 = tensor.pad %v3 low[0, 0, 0, 0, 0] high[0, 0, 0, 0, 8] {
    ^bb0(%v6_i0: index, %v6_i1: index, %v6_i2: index, %v6_i3: index, %v6_i4: index):
      tensor.yield %v6_z : f32
    } : tensor<1x1x64x58x58xf32> to tensor<1x1x64x58x66xf32>

    %v7_e = tensor.empty() : tensor<6x6x1x1x14x2x64x8xf32>
    %v7 = linalg.generic {indexing_maps = [affine_map<(i, j, g, n, th, t1, ic, t0) -> (n, g, ic, th * 4 + i, (t1 * 8 + t0) * 4 + j)>, affine_map<(i, j, g, n, th, t1, ic, t0) -> (i, j, g, n, th, t1, ic, t0)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v6 : tensor<1x1x64x58x66xf32>) outs(%v7_e : tensor<6x6x1x1x14x2x64x8xf32>) {
    ^bb0(%v7_x: f32, %v7_y: f32):
      linalg.yield %v7_x : f32
    } -> tensor<6x6x1x1x14x2x64x8xf32>
    %v8 = util.optimization_barrier %v7 : tensor<6x6x1x1x14x2x64x8xf32>
    %v9_z = arith.constant 0.0 : f32
    %v9_e = tensor.empty() : tensor<6x6x1x1x14x2x64x8xf32>
    %v9_acc = linalg.fill ins(%v9_z : f32) outs(%v9_e : tensor<6x6x1x1x14x2x64x8xf32>) -> tensor<6x6x1x1x14x2x64x8xf32>
    %v9 = linalg.generic {indexing_maps = [affine_map<(a, j, g, n, th, t1, ic, t0, i) -> (a, i)>, affine_map<(a, j, g, n, th, t1, ic, t0, i) -> (i, j, g, n, th, t1, ic, t0)>, affine_map<(a, j, g, n, th, t1, ic, t0, i) -> (a, j, g, n, th, t1, ic, t0)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v4, %v8 : tensor<6x6xf32>, tensor<6x6x1x1x14x2x64x8xf32>) outs(%v9_acc : tensor<6x6x1x1x14x2x64x8xf32>) {
    ^bb0(%v9_c: f32, %v9_x: f32, %v9_a: f32):
      %v9_m = arith.mulf %v9_c, %v9_x : f32
      %v9_s = arith.addf %v9_a, %v9_m : f32
      linalg.yield %v9_s : f32
    } -> tensor<6x6x1x1x14x2x64x8xf32>
    %v10_z = arith.constant 0.0 : f32
    %v10_e = tensor.empty() : tensor<6x6x1x1x14x2x64x8xf32>
    %v10_acc = linalg.fill ins(%v10_z : f32) outs(%v10_e : tensor<6x6x1x1x14x2x64x8xf32>) -> tensor<6x6x1x1x14x2x64x8xf32>
    %v10 = linalg.generic {indexing_maps = [affine_map<(a, b, g, n, th, t1, ic, t0, j) -> (b, j)>, affine_map<(a, b, g, n, th, t1, ic, t0, j) -> (a, j, g, n, th, t1, ic, t0)>, affine_map<(a, b, g, n, th, t1, ic, t0, j) -> (a, b, g, n, th, t1, ic, t0)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v4, %v9 : tensor<6x6xf32>, tensor<6x6x1x1x14x2x64x8xf32>) outs(%v10_acc : tensor<6x6x1x1x14x2x64x8xf32>) {
    ^bb0(%v10_c: f32, %v10_x: f32, %v10_a: f32):
      %v10_m = arith.mulf %v10_c, %v10_x : f32
      %v10_s = arith.addf %v10_a, %v10_m : f32
      linalg.yield %v10_s : f32
    } -> tensor<6x6x1x1x14x2x64x8xf32>
    %v11 = tensor.collapse_shape %v10 [[0, 1, 2], [3, 4, 5], [6], [7]] : tensor<6x6x1x1x14x2x64x8xf32> into tensor<36x28x64x8xf32>

    %v12 = tensor.expand_shape %v11 [[0], [1], [2], [3, 4]] output_shape [36, 28, 64, 8, 1] : tensor<36x28x64x8xf32> into tensor<36x28x64x8x1xf32>

    %v13_z = arith.constant 0.0 : f32
    %v13_e = tensor.empty() : tensor<36x28x8x8x8xf32>
    %v13_acc = linalg.fill ins(%v13_z : f32) outs(%v13_e : tensor<36x28x8x8x8xf32>) -> tensor<36x28x8x8x8xf32>
    %v13 = linalg.batch_mmt4d ins(%v12, %w : tensor<36x28x64x8x1xf32>, !wei_prepared) outs(%v13_acc : tensor<36x28x8x8x8xf32>) -> tensor<36x28x8x8x8xf32>
    %v14 = tensor.expand_shape %v13 [[0, 1, 2], [3, 4, 5], [6], [7], [8]] output_shape [6, 6, 1, 1, 14, 2, 8, 8, 8] : tensor<36x28x8x8x8xf32> into tensor<6x6x1x1x14x2x8x8x8xf32>

    %v15_z = arith.constant 0.0 : f32
    %v15_e = tensor.empty() : tensor<4x6x1x1x14x2x8x8x8xf32>
    %v15_acc = linalg.fill ins(%v15_z : f32) outs(%v15_e : tensor<4x6x1x1x14x2x8x8x8xf32>) -> tensor<4x6x1x1x14x2x8x8x8xf32>
    %v15 = linalg.generic {indexing_maps = [affine_map<(p, b, g, n, th, t1, ob, t0, o0, a) -> (p, a)>, affine_map<(p, b, g, n, th, t1, ob, t0, o0, a) -> (a, b, g, n, th, t1, ob, t0, o0)>, affine_map<(p, b, g, n, th, t1, ob, t0, o0, a) -> (p, b, g, n, th, t1, ob, t0, o0)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v5, %v14 : tensor<4x6xf32>, tensor<6x6x1x1x14x2x8x8x8xf32>) outs(%v15_acc : tensor<4x6x1x1x14x2x8x8x8xf32>) {
    ^bb0(%v15_c: f32, %v15_x: f32, %v15_a: f32):
      %v15_m = arith.mulf %v15_c, %v15_x : f32
      %v15_s = arith.addf %v15_a, %v15_m : f32
      linalg.yield %v15_s : f32
    } -> tensor<4x6x1x1x14x2x8x8x8xf32>
    %v16_z = arith.constant 0.0 : f32
    %v16_e = tensor.empty() : tensor<1x1x8x8x14x4x2x8x4xf32>
    %v16_acc = linalg.fill ins(%v16_z : f32) outs(%v16_e : tensor<1x1x8x8x14x4x2x8x4xf32>) -> tensor<1x1x8x8x14x4x2x8x4xf32>
    %v16 = linalg.generic {indexing_maps = [affine_map<(n, g, ob, o0, th, p, t1, t0, q, b) -> (q, b)>, affine_map<(n, g, ob, o0, th, p, t1, t0, q, b) -> (p, b, g, n, th, t1, ob, t0, o0)>, affine_map<(n, g, ob, o0, th, p, t1, t0, q, b) -> (n, g, ob, o0, th, p, t1, t0, q)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v5, %v15 : tensor<4x6xf32>, tensor<4x6x1x1x14x2x8x8x8xf32>) outs(%v16_acc : tensor<1x1x8x8x14x4x2x8x4xf32>) {
    ^bb0(%v16_c: f32, %v16_x: f32, %v16_a: f32):
      %v16_m = arith.mulf %v16_c, %v16_x : f32
      %v16_s = arith.addf %v16_a, %v16_m : f32
      linalg.yield %v16_s : f32
    } -> tensor<1x1x8x8x14x4x2x8x4xf32>
    %v17 = tensor.collapse_shape %v16 [[0], [1], [2, 3], [4, 5], [6, 7, 8]] : tensor<1x1x8x8x14x4x2x8x4xf32> into tensor<1x1x64x56x64xf32>

    %v18 = tensor.extract_slice %v17[0, 0, 0, 0, 0] [1, 1, 64, 56, 56] [1, 1, 1, 1, 1] : tensor<1x1x64x56x64xf32> to tensor<1x1x64x56x56xf32>

    %v19 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 64] : !bias into tensor<1x64xf32>

    %v20_e = tensor.empty() : tensor<1x1x64x56x56xf32>
    %v20 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v18, %v19 : tensor<1x1x64x56x56xf32>, tensor<1x64xf32>) outs(%v20_e : tensor<1x1x64x56x56xf32>) {
    ^bb0(%v20_a: f32, %v20_b: f32, %v20_out: f32):
      %v20_ab = arith.addf %v20_a, %v20_b : f32
      linalg.yield %v20_ab : f32
    } -> tensor<1x1x64x56x56xf32>
    %v21 = tensor.collapse_shape %v20 [[0], [1, 2], [3], [4]] : tensor<1x1x64x56x56xf32> into tensor<1x64x56x56xf32>

    %v22 = tensor.collapse_shape %v21 [[0, 1, 2, 3]] : tensor<1x64x56x56xf32> into !src_dst_buf

    return %v22 : !src_dst_buf
}
