// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<25088xf32>
!wei_buf = tensor<2601xf32>
!wei_prepared = tensor<4x4x1x17x17xf32>
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
    %w5_e = tensor.empty() : !wei_prepared
    %w5_acc = linalg.fill ins(%w5_z : f32) outs(%w5_e : !wei_prepared) -> !wei_prepared
    %w5 = linalg.generic {indexing_maps = [affine_map<(a, b, g, oc, ic, j) -> (b, j)>, affine_map<(a, b, g, oc, ic, j) -> (a, g, oc, ic, j)>, affine_map<(a, b, g, oc, ic, j) -> (a, b, g, oc, ic)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%w3, %w4 : tensor<4x3xf32>, tensor<4x1x17x17x3xf32>) outs(%w5_acc : !wei_prepared) {
    ^bb0(%w5_c: f32, %w5_x: f32, %w5_a: f32):
      %w5_m = arith.mulf %w5_c, %w5_x : f32
      %w5_s = arith.addf %w5_a, %w5_m : f32
      linalg.yield %w5_s : f32
    } -> !wei_prepared
    return %w5 : !wei_prepared
}

func.func @conv_winograd_f2__mb1ic17ih28oc17oh28kh3ph1__f32_aBcd16b__f32_abcd__f32_aBcd16b__bias(%src: !src_dst_buf, %w: !wei_prepared, %bias: !bias) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3, 4]] output_shape [1, 2, 28, 28, 16] : !src_dst_buf into tensor<1x2x28x28x16xf32>

    %v2_e = tensor.empty() : tensor<1x17x28x28xf32>
    %v2 = linalg.unpack %v1 outer_dims_perm = [0, 1, 2, 3] inner_dims_pos = [1] inner_tiles = [16] into %v2_e : tensor<1x2x28x28x16xf32> -> tensor<1x17x28x28xf32>

    %v3 = tensor.expand_shape %v2 [[0], [1, 2], [3], [4]] output_shape [1, 1, 17, 28, 28] : tensor<1x17x28x28xf32> into tensor<1x1x17x28x28xf32>

    %v4_z = arith.constant 0.0 : f32
    %v4 = tensor.pad %v3 low[0, 0, 0, 1, 1] high[0, 0, 0, 1, 1] {
    ^bb0(%v4_i0: index, %v4_i1: index, %v4_i2: index, %v4_i3: index, %v4_i4: index):
      tensor.yield %v4_z : f32
    } : tensor<1x1x17x28x28xf32> to tensor<1x1x17x30x30xf32>

    %v5 = arith.constant dense<"0x0000803F00000000000080BF00000000000000000000803F0000803F0000000000000000000080BF0000803F00000000000000000000803F00000000000080BF"> : tensor<4x4xf32>
    %v6_e = tensor.empty() : tensor<4x4x1x1x17x14x14xf32>
    %v6 = linalg.generic {indexing_maps = [affine_map<(i, j, n, g, ic, th, tw) -> (n, g, ic, th * 2 + i, tw * 2 + j)>, affine_map<(i, j, n, g, ic, th, tw) -> (i, j, n, g, ic, th, tw)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v4 : tensor<1x1x17x30x30xf32>) outs(%v6_e : tensor<4x4x1x1x17x14x14xf32>) {
    ^bb0(%v6_x: f32, %v6_y: f32):
      linalg.yield %v6_x : f32
    } -> tensor<4x4x1x1x17x14x14xf32>
    %v7 = util.optimization_barrier %v6 : tensor<4x4x1x1x17x14x14xf32>
    %v8_z = arith.constant 0.0 : f32
    %v8_e = tensor.empty() : tensor<4x4x1x1x17x14x14xf32>
    %v8_acc = linalg.fill ins(%v8_z : f32) outs(%v8_e : tensor<4x4x1x1x17x14x14xf32>) -> tensor<4x4x1x1x17x14x14xf32>
    %v8 = linalg.generic {indexing_maps = [affine_map<(a, j, n, g, ic, th, tw, i) -> (a, i)>, affine_map<(a, j, n, g, ic, th, tw, i) -> (i, j, n, g, ic, th, tw)>, affine_map<(a, j, n, g, ic, th, tw, i) -> (a, j, n, g, ic, th, tw)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v5, %v7 : tensor<4x4xf32>, tensor<4x4x1x1x17x14x14xf32>) outs(%v8_acc : tensor<4x4x1x1x17x14x14xf32>) {
    ^bb0(%v8_c: f32, %v8_x: f32, %v8_a: f32):
      %v8_m = arith.mulf %v8_c, %v8_x : f32
      %v8_s = arith.addf %v8_a, %v8_m : f32
      linalg.yield %v8_s : f32
    } -> tensor<4x4x1x1x17x14x14xf32>
    %v9_z = arith.constant 0.0 : f32
    %v9_e = tensor.empty() : tensor<4x4x1x1x17x14x14xf32>
    %v9_acc = linalg.fill ins(%v9_z : f32) outs(%v9_e : tensor<4x4x1x1x17x14x14xf32>) -> tensor<4x4x1x1x17x14x14xf32>
    %v9 = linalg.generic {indexing_maps = [affine_map<(a, b, n, g, ic, th, tw, j) -> (b, j)>, affine_map<(a, b, n, g, ic, th, tw, j) -> (a, j, n, g, ic, th, tw)>, affine_map<(a, b, n, g, ic, th, tw, j) -> (a, b, n, g, ic, th, tw)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v5, %v8 : tensor<4x4xf32>, tensor<4x4x1x1x17x14x14xf32>) outs(%v9_acc : tensor<4x4x1x1x17x14x14xf32>) {
    ^bb0(%v9_c: f32, %v9_x: f32, %v9_a: f32):
      %v9_m = arith.mulf %v9_c, %v9_x : f32
      %v9_s = arith.addf %v9_a, %v9_m : f32
      linalg.yield %v9_s : f32
    } -> tensor<4x4x1x1x17x14x14xf32>
    %v10_z = arith.constant 0.0 : f32
    %v10_e = tensor.empty() : tensor<4x4x1x1x17x14x14xf32>
    %v10_acc = linalg.fill ins(%v10_z : f32) outs(%v10_e : tensor<4x4x1x1x17x14x14xf32>) -> tensor<4x4x1x1x17x14x14xf32>
    %v10 = linalg.generic {indexing_maps = [affine_map<(a, b, n, g, oc, th, tw, ic) -> (a, b, n, g, ic, th, tw)>, affine_map<(a, b, n, g, oc, th, tw, ic) -> (a, b, g, oc, ic)>, affine_map<(a, b, n, g, oc, th, tw, ic) -> (a, b, n, g, oc, th, tw)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v9, %w : tensor<4x4x1x1x17x14x14xf32>, !wei_prepared) outs(%v10_acc : tensor<4x4x1x1x17x14x14xf32>) {
    ^bb0(%v10_x: f32, %v10_w: f32, %v10_a: f32):
      %v10_m = arith.mulf %v10_x, %v10_w : f32
      %v10_s = arith.addf %v10_a, %v10_m : f32
      linalg.yield %v10_s : f32
    } -> tensor<4x4x1x1x17x14x14xf32>
    %v11 = arith.constant dense<"0x0000803F0000803F0000803F00000000000000000000803F000080BF000080BF"> : tensor<2x4xf32>
    %v12_z = arith.constant 0.0 : f32
    %v12_e = tensor.empty() : tensor<2x4x1x1x17x14x14xf32>
    %v12_acc = linalg.fill ins(%v12_z : f32) outs(%v12_e : tensor<2x4x1x1x17x14x14xf32>) -> tensor<2x4x1x1x17x14x14xf32>
    %v12 = linalg.generic {indexing_maps = [affine_map<(p, b, n, g, oc, th, tw, a) -> (p, a)>, affine_map<(p, b, n, g, oc, th, tw, a) -> (a, b, n, g, oc, th, tw)>, affine_map<(p, b, n, g, oc, th, tw, a) -> (p, b, n, g, oc, th, tw)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v11, %v10 : tensor<2x4xf32>, tensor<4x4x1x1x17x14x14xf32>) outs(%v12_acc : tensor<2x4x1x1x17x14x14xf32>) {
    ^bb0(%v12_c: f32, %v12_x: f32, %v12_a: f32):
      %v12_m = arith.mulf %v12_c, %v12_x : f32
      %v12_s = arith.addf %v12_a, %v12_m : f32
      linalg.yield %v12_s : f32
    } -> tensor<2x4x1x1x17x14x14xf32>
    %v13_z = arith.constant 0.0 : f32
    %v13_e = tensor.empty() : tensor<1x1x17x14x2x14x2xf32>
    %v13_acc = linalg.fill ins(%v13_z : f32) outs(%v13_e : tensor<1x1x17x14x2x14x2xf32>) -> tensor<1x1x17x14x2x14x2xf32>
    %v13 = linalg.generic {indexing_maps = [affine_map<(n, g, oc, th, p, tw, q, b) -> (q, b)>, affine_map<(n, g, oc, th, p, tw, q, b) -> (p, b, n, g, oc, th, tw)>, affine_map<(n, g, oc, th, p, tw, q, b) -> (n, g, oc, th, p, tw, q)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v11, %v12 : tensor<2x4xf32>, tensor<2x4x1x1x17x14x14xf32>) outs(%v13_acc : tensor<1x1x17x14x2x14x2xf32>) {
    ^bb0(%v13_c: f32, %v13_x: f32, %v13_a: f32):
      %v13_m = arith.mulf %v13_c, %v13_x : f32
      %v13_s = arith.addf %v13_a, %v13_m : f32
      linalg.yield %v13_s : f32
    } -> tensor<1x1x17x14x2x14x2xf32>
    %v14 = tensor.collapse_shape %v13 [[0], [1], [2], [3, 4], [5, 6]] : tensor<1x1x17x14x2x14x2xf32> into tensor<1x1x17x28x28xf32>

    %v15 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 17] : !bias into tensor<1x17xf32>

    %v16_e = tensor.empty() : tensor<1x1x17x28x28xf32>
    %v16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v14, %v15 : tensor<1x1x17x28x28xf32>, tensor<1x17xf32>) outs(%v16_e : tensor<1x1x17x28x28xf32>) {
    ^bb0(%v16_a: f32, %v16_b: f32, %v16_out: f32):
      %v16_ab = arith.addf %v16_a, %v16_b : f32
      linalg.yield %v16_ab : f32
    } -> tensor<1x1x17x28x28xf32>
    %v17 = tensor.collapse_shape %v16 [[0], [1, 2], [3], [4]] : tensor<1x1x17x28x28xf32> into tensor<1x17x28x28xf32>

    %v18_z = arith.constant 0.0 : f32
    %v18_e = tensor.empty() : tensor<1x2x28x28x16xf32>
    %v18 = linalg.pack %v17 padding_value(%v18_z : f32) outer_dims_perm = [0, 1, 2, 3] inner_dims_pos = [1] inner_tiles = [16] into %v18_e : tensor<1x17x28x28xf32> -> tensor<1x2x28x28x16xf32>

    %v19 = tensor.collapse_shape %v18 [[0, 1, 2, 3, 4]] : tensor<1x2x28x28x16xf32> into !src_dst_buf

    return %v19 : !src_dst_buf
}
