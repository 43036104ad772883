// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<200704xf32>
!wei_buf = tensor<36864xf32>
!wei_prepared = tensor<6x6x1x64x64xf32>
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
    %w5_e = tensor.empty() : !wei_prepared
    %w5_acc = linalg.fill ins(%w5_z : f32) outs(%w5_e : !wei_prepared) -> !wei_prepared
    %w5 = linalg.generic {indexing_maps = [affine_map<(a, b, g, oc, ic, j) -> (b, j)>, affine_map<(a, b, g, oc, ic, j) -> (a, g, oc, ic, j)>, affine_map<(a, b, g, oc, ic, j) -> (a, b, g, oc, ic)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%w3, %w4 : tensor<6x3xf32>, tensor<6x1x64x64x3xf32>) outs(%w5_acc : !wei_prepared) {
    ^bb0(%w5_c: f32, %w5_x: f32, %w5_a: f32):
      %w5_m = arith.mulf %w5_c, %w5_x : f32
      %w5_s = arith.addf %w5_a, %w5_m : f32
      linalg.yield %w5_s : f32
    } -> !wei_prepared
    return %w5 : !wei_prepared
}

func.func @conv_winograd__mb1ic64ih56oc64oh56kh3ph1__f32_abcd__f32_abcd__f32_abcd__bias(%src: !src_dst_buf, %w: !wei_prepared, %bias: !bias) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3]] output_shape [1, 64, 56, 56] : !src_dst_buf into tensor<1x64x56x56xf32>

    %v2 = tensor.expand_shape %v1 [[0], [1, 2], [3], [4]] output_shape [1, 1, 64, 56, 56] : tensor<1x64x56x56xf32> into tensor<1x1x64x56x56xf32>

    %v3_z = arith.constant 0.0 : f32
    %v3 = tensor.pad %v2 low[0, 0, 0, 1, 1] high[0, 0, 0, 1, 1] {
    ^bb0(%v3_i0: index, %v3_i1: index, %v3_i2: index, %v3_i3: index, %v3_i4: index):
      tensor.yield %v3_z : f32
    } : tensor<1x1x64x56x56xf32> to tensor<1x1x64x58x58xf32>

    %v4 = arith.constant dense<"0x00008040000000000000A0C0000000000000803F0000000000000000000080C0000080C00000803F0000803F000000000000000000008040000080C0000080BF0000803F0000000000000000000000C0000080BF000000400000803F000000000000000000000040000080BF000000C00000803F000000000000000000008040000000000000A0C0000000000000803F"> : tensor<6x6xf32>
    %v5_e = tensor.empty() : tensor<6x6x1x1x64x14x14xf32>
    %v5 = linalg.generic {indexing_maps = [affine_map<(i, j, n, g, ic, th, tw) -> (n, g, ic, th * 4 + i, tw * 4 + j)>, affine_map<(i, j, n, g, ic, th, tw) -> (i, j, n, g, ic, th, tw)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v3 : tensor<1x1x64x58x58xf32>) outs(%v5_e : tensor<6x6x1x1x64x14x14xf32>) {
    ^bb0(%v5_x: f32, %v5_y: f32):
      linalg.yield %v5_x : f32
    } -> tensor<6x6x1x1x64x14x14xf32>
    %v6 = util.optimization_barrier %v5 : tensor<6x6x1x1x64x14x14xf32>
    %v7_z = arith.constant 0.0 : f32
    %v7_e = tensor.empty() : tensor<6x6x1x1x64x14x14xf32>
    %v7_acc = linalg.fill ins(%v7_z : f32) outs(%v7_e : tensor<6x6x1x1x64x14x14xf32>) -> tensor<6x6x1x1x64x14x14xf32>
    %v7 = linalg.generic {indexing_maps = [affine_map<(a, j, n, g, ic, th, tw, i) -> (a, i)>, affine_map<(a, j, n, g, ic, th, tw, i) -> (i, j, n, g, ic, th, tw)>, affine_map<(a, j, n, g, ic, th, tw, i) -> (a, j, n, g, ic, th, tw)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v4, %v6 : tensor<6x6xf32>, tensor<6x6x1x1x64x14x14xf32>) outs(%v7_acc : tensor<6x6x1x1x64x14x14xf32>) {
    ^bb0(%v7_c: f32, %v7_x: f32, %v7_a: f32):
      %v7_m = arith.mulf %v7_c, %v7_x : f32
      %v7_s = arith.addf %v7_a, %v7_m : f32
      linalg.yield %v7_s : f32
    } -> tensor<6x6x1x1x64x14x14xf32>
    %v8_z = arith.constant 0.0 : f32
    %v8_e = tensor.empty() : tensor<6x6x1x1x64x14x14xf32>
    %v8_acc = linalg.fill ins(%v8_z : f32) outs(%v8_e : tensor<6x6x1x1x64x14x14xf32>) -> tensor<6x6x1x1x64x14x14xf32>
    %v8 = linalg.generic {indexing_maps = [affine_map<(a, b, n, g, ic, th, tw, j) -> (b, j)>, affine_map<(a, b, n, g, ic, th, tw, j) -> (a, j, n, g, ic, th, tw)>, affine_map<(a, b, n, g, ic, th, tw, j) -> (a, b, n, g, ic, th, tw)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v4, %v7 : tensor<6x6xf32>, tensor<6x6x1x1x64x14x14xf32>) outs(%v8_acc : tensor<6x6x1x1x64x14x14xf32>) {
    ^bb0(%v8_c: f32, %v8_x: f32, %v8_a: f32):
      %v8_m = arith.mulf %v8_c, %v8_x : f32
      %v8_s = arith.addf %v8_a, %v8_m : f32
      linalg.yield %v8_s : f32
    } -> tensor<6x6x1x1x64x14x14xf32>
    %v9_z = arith.constant 0.0 : f32
    %v9_e = tensor.empty() : tensor<6x6x1x1x64x14x14xf32>
    %v9_acc = linalg.fill ins(%v9_z : f32) outs(%v9_e : tensor<6x6x1x1x64x14x14xf32>) -> tensor<6x6x1x1x64x14x14xf32>
    %v9 = linalg.generic {indexing_maps = [affine_map<(a, b, n, g, oc, th, tw, ic) -> (a, b, n, g, ic, th, tw)>, affine_map<(a, b, n, g, oc, th, tw, ic) -> (a, b, g, oc, ic)>, affine_map<(a, b, n, g, oc, th, tw, ic) -> (a, b, n, g, oc, th, tw)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v8, %w : tensor<6x6x1x1x64x14x14xf32>, !wei_prepared) outs(%v9_acc : tensor<6x6x1x1x64x14x14xf32>) {
    ^bb0(%v9_x: f32, %v9_w: f32, %v9_a: f32):
      %v9_m = arith.mulf %v9_x, %v9_w : f32
      %v9_s = arith.addf %v9_a, %v9_m : f32
      linalg.yield %v9_s : f32
    } -> tensor<6x6x1x1x64x14x14xf32>
    %v10 = arith.constant dense<"0x0000803F0000803F0000803F0000803F0000803F00000000000000000000803F000080BF00000040000000C000000000000000000000803F0000803F000080400000804000000000000000000000803F000080BF00000041000000C10000803F"> : tensor<4x6xf32>
    %v11_z = arith.constant 0.0 : f32
    %v11_e = tensor.empty() : tensor<4x6x1x1x64x14x14xf32>
    %v11_acc = linalg.fill ins(%v11_z : f32) outs(%v11_e : tensor<4x6x1x1x64x14x14xf32>) -> tensor<4x6x1x1x64x14x14xf32>
    %v11 = linalg.generic {indexing_maps = [affine_map<(p, b, n, g, oc, th, tw, a) -> (p, a)>, affine_map<(p, b, n, g, oc, th, tw, a) -> (a, b, n, g, oc, th, tw)>, affine_map<(p, b, n, g, oc, th, tw, a) -> (p, b, n, g, oc, th, tw)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v10, %v9 : tensor<4x6xf32>, tensor<6x6x1x1x64x14x14xf32>) outs(%v11_acc : tensor<4x6x1x1x64x14x14xf32>) {
    ^bb0(%v11_c: f32, %v11_x: f32, %v11_a: f32):
      %v11_m = arith.mulf %v11_c, %v11_x : f32
      %v11_s = arith.addf %v11_a, %v11_m : f32
      linalg.yield %v11_s : f32
    } -> tensor<4x6x1x1x64x14x14xf32>
    %v12_z = arith.constant 0.0 : f32
    %v12_e = tensor.empty() : tensor<1x1x64x14x4x14x4xf32>
    %v12_acc = linalg.fill ins(%v12_z : f32) outs(%v12_e : tensor<1x1x64x14x4x14x4xf32>) -> tensor<1x1x64x14x4x14x4xf32>
    %v12 = linalg.generic {indexing_maps = [affine_map<(n, g, oc, th, p, tw, q, b) -> (q, b)>, affine_map<(n, g, oc, th, p, tw, q, b) -> (p, b, n, g, oc, th, tw)>, affine_map<(n, g, oc, th, p, tw, q, b) -> (n, g, oc, th, p, tw, q)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v10, %v11 : tensor<4x6xf32>, tensor<4x6x1x1x64x14x14xf32>) outs(%v12_acc : tensor<1x1x64x14x4x14x4xf32>) {
    ^bb0(%v12_c: f32, %v12_x: f32, %v12_a: f32):
      %v12_m = arith.mulf %v12_c, %v12_x : f32
      %v12_s = arith.addf %v12_a, %v12_m : f32
      linalg.yield %v12_s : f32
    } -> tensor<1x1x64x14x4x14x4xf32>
    %v13 = tensor.collapse_shape %v12 [[0], [1], [2], [3, 4], [5, 6]] : tensor<1x1x64x14x4x14x4xf32> into tensor<1x1x64x56x56xf32>

    %v14 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 64] : !bias into tensor<1x64xf32>

    %v15_e = tensor.empty() : tensor<1x1x64x56x56xf32>
    %v15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v13, %v14 : tensor<1x1x64x56x56xf32>, tensor<1x64xf32>) outs(%v15_e : tensor<1x1x64x56x56xf32>) {
    ^bb0(%v15_a: f32, %v15_b: f32, %v15_out: f32):
      %v15_ab = arith.addf %v15_a, %v15_b : f32
      linalg.yield %v15_ab : f32
    } -> tensor<1x1x64x56x56xf32>
    %v16 = tensor.collapse_shape %v15 [[0], [1, 2], [3], [4]] : tensor<1x1x64x56x56xf32> into tensor<1x64x56x56xf32>

    %v17 = tensor.collapse_shape %v16 [[0, 1, 2, 3]] : tensor<1x64x56x56xf32> into !src_dst_buf

    return %v17 : !src_dst_buf
}
