// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<25088xf32>
!wei_buf = tensor<2601xf32>
!wei_prepared = tensor<16x3x17x8x1xf32>
!bias = tensor<17xf32>

func.func @conv_winograd_f2__mb1ic17ih28oc17oh28kh3ph1__f32_aBcd16b__f32_abcd__f32_aBcd16b__bias_prepare(%wei: !wei_buf) -> !wei_prepared {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3]] output_shape [17, 17, 3, 3] : !wei_buf into tensor<17x17x3x3xf32>

    %w2 = tensor.expand_shape %w1 [[0, 1], [2], [3], [4]] output_shape [1, 17, 17, 3, 3] : tensor<17x17x3x3xf32> into tensor<1x17x17x3x3xf32>

    %w3 = arith.constant dense<"0x0000803F00000000000000000000003F0000003F0000003F0000003F000000BF0000003F00000000000000000000803F"> : tensor<4x3xf32>
    %w4_z = arith.constant 0.0 : f32
    %w4_e = tensor.empty() : tensor<4x1x17x17x3xf32>
    %w4_acc = linalg.fill ins(%w4_z : f32) outs(%w4_e : tensor<4x1x17x17x3xf32>) -> tensor<4x1x17x17x3xf32>
    %w4 = linalg.generic {indexing_maps = [affine_map<(a, g, oc, ic, j, i) -> (a, i)>, affine_map<(a, g, oc, ic, j, i) -> (g, oc, ic, i, j)>, affine_map<(a, g, oc, ic, j, i) -> (a, g, oc, ic, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%w3, %w2 : tensor<4x3xf32>, tensor<1x17x17x3x3xf32>) outs(%w4_acc : tensor<4x1x17x17x3xf32>) {
    ^bb0(%w4_c: f32, %w4_x: f32, %w4_a: f32):
      %w4_m = arith.mulf %w4_c, %w4_x : f32
      %w4_s = arith.addf %w4_a, %w4_m : f32
      linalg.yield %w4_s : f32
    } -> tensor<4x1x17x17x3xf32>
    %w5_z = arith.constant 0.0 : f32
    %w5_e = tensor.empty() : tensor<4x4x1x17x17xf32>
    %w5_acc = linalg.fill ins(%w5_z : f32) outs(%w5_e : tensor<4x4x1x17x17xf32>) -> tensor<4x4x1x17x17xf32>
    %w5 = linalg.generic {indexing_maps = [affine_map<(a, b, g, oc, ic, j) -> (b, j)>, affine_map<(a, b, g, oc, ic, j) -> (a, g, oc, ic, j)>, affine_map<(a, b, g, oc, ic, j) -> (a, b, g, oc, ic)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%w3, %w4 : tensor<4x3xf32>, tensor<4x1x17x17x3xf32>) outs(%w5_acc : tensor<4x4x1x17x17xf32>) {
    ^bb0(%w5_c: f32, %w5_x: f32, %w5_a: f32):
      %w5_m = arith.mulf %w5_c, %w5_x : f32
      %w5_s = arith.addf %w5_a, %w5_m : f32
      linalg.yield %w5_s : f32
    } -> tensor<4x4x1x17x17xf32>
    %w6_z = arith.constant 0.0 : f32
    %w6 = tensor.pad %w5 low[0, 0, 0, 0, 0] high[0, 0, 0, 7, 0] {
    ^bb0(%w6_i0: index, %w6_i1: index, %w6_i2: index, %w6_i3: index, %w6_i4: index):
      tensor.yield %w6_z : f32
    } : tensor<4x4x1x17x17xf32> to tensor<4x4x1x24x17xf32>

    %w7 = tensor.expand_shape %w6 [[0], [1], [2], [3, 4], [5]] output_shape [4, 4, 1, 3, 8, 17] : tensor<4x4x1x24x17xf32> into tensor<4x4x1x3x8x17xf32>

    %w8_e = tensor.empty() : tensor<4x4x1x3x17x8xf32>
    %w8 = linalg.transpose ins(%w7 : tensor<4x4x1x3x8x17xf32>) outs(%w8_e : tensor<4x4x1x3x17x8xf32>) permutation = [0, 1, 2, 3, 5, 4]

    %w9 = tensor.collapse_shape %w8 [[0, 1, 2], [3], [4], [5]] : tensor<4x4x1x3x17x8xf32> into tensor<16x3x17x8xf32>

    %w10 = tensor.expand_shape %w9 [[0], [1], [2], [3, 4]] output_shape [16, 3, 17, 8, 1] : tensor<16x3x17x8xf32> into !wei_prepared

    return %w10 : !wei_prepared
}

func.func @conv_winograd_f2__mb1ic17ih28oc17oh28kh3ph1__f32_aBcd16b__f32_abcd__f32_aBcd16b__bias(%src: !src_dst_buf, %w: !wei_prepared, %bias: !bias) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3, 4]] output_shape [1, 2, 28, 28, 16] : !src_dst_buf into tensor<1x2x28x28x16xf32>

    %v2_e = tensor.empty() : tensor<1x17x28x28xf32>
    %v2 = linalg.unpack %v1 outer_dims_perm = [0, 1, 2, 3] inner_dims_pos = [1] inner_tiles = [16] into %v2_e : tensor<1x2x28x28x16xf32> -> tensor<1x17x28x28xf32>

    %v3_z = arith.constant 0.0 : f32
    %v3 = tensor.pad %v2 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%v3_i0: index, %v3_i1: index, %v3_i2: index, %v3_i3: index):
      tensor.yield %v3_z : f32
    } : tensor<1x17x28x28xf32> to tensor<1x17x30x30xf32>

    %v4 = tensor.expand_shape %v3 [[0], [1, 2], [3], [4]] output_shape [1, 1, 17, 30, 30] : tensor<1x17x30x30xf32> into tensor<1x1x17x30x30xf32>

    %v5 = arith.constant dense<"0x0000803F00000000000080BF00000000000000000000803F0000803F0000000000000000000080BF0000803F00000000000000000000803F00000000000080BF"> : tensor<4x4xf32>
    %v6 = arith.constant dense<"0x0000803F0000803F0000803F00000000000000000000803F000080BF000080BF"> : tensor<2x4xf32>
    %v7_z = arith.constant 0.0 : f32
    %v7 = tensor.pad %v4 low[0, 0, 0, 0, 0] high[0, 0, 0, 0, 4] {
    ^bb0(%v7_i0: index, %v7_i1: index, %v7_i2: index, %v7_i3: index, %v7_i4: index):
      tensor.yield %v7_z : f32
    } : tensor<1x1x17x30x30xf32> to tensor<1x1x17x30x34xf32>

    %v8_e = tensor.empty() : tensor<4x4x1x1x14x2x17x8xf32>
    %v8 = linalg.generic {indexing_maps = [affine_map<(i, j, g, n, th, t1, ic, t0) -> (n, g, ic, th * 2 + i, (t1 * 8 + t0) * 2 + j)>, affine_map<(i, j, g, n, th, t1, ic, t0) -> (i, j, g, n, th, t1, ic, t0)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v7 : tensor<1x1x17x30x34xf32>) outs(%v8_e : tensor<4x4x1x1x14x2x17x8xf32>) {
    ^bb0(%v8_x: f32, %v8_y: f32):
      linalg.yield %v8_x : f32
    } -> tensor<4x4x1x1x14x2x17x8xf32>
    %v9 = util.optimization_barrier %v8 : tensor<4x4x1x1x14x2x17x8xf32>
    %v10_z = arith.constant 0.0 : f32
    %v10_e = tensor.empty() : tensor<4x4x1x1x14x2x17x8xf32>
    %v10_acc = linalg.fill ins(%v10_z : f32) outs(%v10_e : tensor<4x4x1x1x14x2x17x8xf32>) -> tensor<4x4x1x1x14x2x17x8xf32>
    %v10 = linalg.generic {indexing_maps = [affine_map<(a, j, g, n, th, t1, ic, t0, i) -> (a, i)>, affine_map<(a, j, g, n, th, t1, ic, t0, i) -> (i, j, g, n, th, t1, ic, t0)>, affine_map<(a, j, g, n, th, t1, ic, t0, i) -> (a, j, g, n, th, t1, ic, t0)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v5, %v9 : tensor<4x4xf32>, tensor<4x4x1x1x14x2x17x8xf32>) outs(%v10_acc : tensor<4x4x1x1x14x2x17x8xf32>) {
    ^bb0(%v10_c: f32, %v10_x: f32, %v10_a: f32):
      %v10_m = arith.mulf %v10_c, %v10_x : f32
      %v10_s = arith.addf %v10_a, %v10_m : f32
      linalg.yield %v10_s : f32
    } -> tensor<4x4x1x1x14x2x17x8xf32>
    %v11_z = arith.constant 0.0 : f32
    %v11_e = tensor.empty() : tensor<4x4x1x1x14x2x17x8xf32>
    %v11_acc = linalg.fill ins(%v11_z : f32) outs(%v11_e : tensor<4x4x1x1x14x2x17x8xf32>) -> tensor<4x4x1x1x14x2x17x8xf32>
    %v11 = linalg.generic {indexing_maps = [affine_map<(a, b, g, n, th, t1, ic, t0, j) -> (b, j)>, affine_map<(a, b, g, n, th, t1, ic, t0, j) -> (a, j, g, n, th, t1, ic, t0)>, affine_map<(a, b, g, n, th, t1, ic, t0, j) -> (a, b, g, n, th, t1, ic, t0)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v5, %v10 : tensor<4x4xf32>, tensor<4x4x1x1x14x2x17x8xf32>) outs(%v11_acc : tensor<4x4x1x1x14x2x17x8xf32>) {
    ^bb0(%v11_c: f32, %v11_x: f32, %v11_a: f32):
      %v11_m = arith.mulf %v11_c, %v11_x : f32
      %v11_s = arith.addf %v11_a, %v11_m : f32
      linalg.yield %v11_s : f32
    } -> tensor<4x4x1x1x14x2x17x8xf32>
    %v12 = tensor.collapse_shape %v11 [[0, 1, 2], [3, 4, 5], [6], [7]] : tensor<4x4x1x1x14x2x17x8xf32> into tensor<16x28x17x8xf32>

    %v13 = tensor.expand_shape %v12 [[0], [1], [2], [3, 4]] output_shape [16, 28, 17, 8, 1] : tensor<16x28x17x8xf32> into tensor<16x28x17x8x1xf32>

    %v14_z = arith.constant 0.0 : f32
    %v14_e = tensor.empty() : tensor<16x28x3x8x8xf32>
    %v14_acc = linalg.fill ins(%v14_z : f32) outs(%v14_e : tensor<16x28x3x8x8xf32>) -> tensor<16x28x3x8x8xf32>
    %v14 = linalg.batch_mmt4d ins(%v13, %w : tensor<16x28x17x8x1xf32>, !wei_prepared) outs(%v14_acc : tensor<16x28x3x8x8xf32>) -> tensor<16x28x3x8x8xf32>
    %v15 = tensor.expand_shape %v14 [[0, 1, 2], [3, 4, 5], [6], [7], [8]] output_shape [4, 4, 1, 1, 14, 2, 3, 8, 8] : tensor<16x28x3x8x8xf32> into tensor<4x4x1x1x14x2x3x8x8xf32>

    %v16_z = arith.constant 0.0 : f32
    %v16_e = tensor.empty() : tensor<2x4x1x1x14x2x3x8x8xf32>
    %v16_acc = linalg.fill ins(%v16_z : f32) outs(%v16_e : tensor<2x4x1x1x14x2x3x8x8xf32>) -> tensor<2x4x1x1x14x2x3x8x8xf32>
    %v16 = linalg.generic {indexing_maps = [affine_map<(p, b, g, n, th, t1, ob, t0, o0, a) -> (p, a)>, affine_map<(p, b, g, n, th, t1, ob, t0, o0, a) -> (a, b, g, n, th, t1, ob, t0, o0)>, affine_map<(p, b, g, n, th, t1, ob, t0, o0, a) -> (p, b, g, n, th, t1, ob, t0, o0)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v6, %v15 : tensor<2x4xf32>, tensor<4x4x1x1x14x2x3x8x8xf32>) outs(%v16_acc : tensor<2x4x1x1x14x2x3x8x8xf32>) {
    ^bb0(%v16_c: f32, %v16_x: f32, %v16_a: f32):
      %v16_m = arith.mulf %v16_c, %v16_x : f32
      %v16_s = arith.addf %v16_a, %v16_m : f32
      linalg.yield %v16_s : f32
    } -> tensor<2x4x1x1x14x2x3x8x8xf32>
    %v17_z = arith.constant 0.0 : f32
    %v17_e = tensor.empty() : tensor<1x1x3x8x14x2x2x8x2xf32>
    %v17_acc = linalg.fill ins(%v17_z : f32) outs(%v17_e : tensor<1x1x3x8x14x2x2x8x2xf32>) -> tensor<1x1x3x8x14x2x2x8x2xf32>
    %v17 = linalg.generic {indexing_maps = [affine_map<(n, g, ob, o0, th, p, t1, t0, q, b) -> (q, b)>, affine_map<(n, g, ob, o0, th, p, t1, t0, q, b) -> (p, b, g, n, th, t1, ob, t0, o0)>, affine_map<(n, g, ob, o0, th, p, t1, t0, q, b) -> (n, g, ob, o0, th, p, t1, t0, q)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v6, %v16 : tensor<2x4xf32>, tensor<2x4x1x1x14x2x3x8x8xf32>) outs(%v17_acc : tensor<1x1x3x8x14x2x2x8x2xf32>) {
    ^bb0(%v17_c: f32, %v17_x: f32, %v17_a: f32):
      %v17_m = arith.mulf %v17_c, %v17_x : f32
      %v17_s = arith.addf %v17_a, %v17_m : f32
      linalg.yield %v17_s : f32
    } -> tensor<1x1x3x8x14x2x2x8x2xf32>
    %v18 = tensor.collapse_shape %v17 [[0], [1], [2, 3], [4, 5], [6, 7, 8]] : tensor<1x1x3x8x14x2x2x8x2xf32> into tensor<1x1x24x28x32xf32>

    %v19 = tensor.extract_slice %v18[0, 0, 0, 0, 0] [1, 1, 17, 28, 28] [1, 1, 1, 1, 1] : tensor<1x1x24x28x32xf32> to tensor<1x1x17x28x28xf32>

    %v20 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 17] : !bias into tensor<1x17xf32>

    %v21_e = tensor.empty() : tensor<1x1x17x28x28xf32>
    %v21 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v19, %v20 : tensor<1x1x17x28x28xf32>, tensor<1x17xf32>) outs(%v21_e : tensor<1x1x17x28x28xf32>) {
    ^bb0(%v21_a: f32, %v21_b: f32, %v21_out: f32):
      %v21_ab = arith.addf %v21_a, %v21_b : f32
      linalg.yield %v21_ab : f32
    } -> tensor<1x1x17x28x28xf32>
    %v22 = tensor.collapse_shape %v21 [[0], [1, 2], [3], [4]] : tensor<1x1x17x28x28xf32> into tensor<1x17x28x28xf32>

    %v23_z = arith.constant 0.0 : f32
    %v23_e = tensor.empty() : tensor<1x2x28x28x16xf32>
    %v23 = linalg.pack %v22 padding_value(%v23_z : f32) outer_dims_perm = [0, 1, 2, 3] inner_dims_pos = [1] inner_tiles = [16] into %v23_e : tensor<1x17x28x28xf32> -> tensor<1x2x28x28x16xf32>

    %v24 = tensor.collapse_shape %v23 [[0, 1, 2, 3, 4]] : tensor<1x2x28x28x16xf32> into !src_dst_buf

    return %v24 : !src_dst_buf
}
