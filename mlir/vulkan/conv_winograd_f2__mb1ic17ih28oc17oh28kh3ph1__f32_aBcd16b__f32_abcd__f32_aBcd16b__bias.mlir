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

    %v2 = tensor.extract_slice %v1[0, 0, 0, 0, 0] [1, 1, 28, 28, 16] [1, 1, 1, 1, 1] : tensor<1x2x28x28x16xf32> to tensor<1x1x28x28x16xf32>

    %v3_e = tensor.empty() : tensor<1x1x16x28x28xf32>
    %v3 = linalg.transpose ins(%v2 : tensor<1x1x28x28x16xf32>) outs(%v3_e : tensor<1x1x16x28x28xf32>) permutation = [0, 1, 4, 2, 3]

    %v4 = tensor.collapse_shape %v3 [[0], [1, 2], [3], [4]] : tensor<1x1x16x28x28xf32> into tensor<1x16x28x28xf32>

    %v5 = tensor.extract_slice %v1[0, 1, 0, 0, 0] [1, 1, 28, 28, 1] [1, 1, 1, 1, 1] : tensor<1x2x28x28x16xf32> to tensor<1x1x28x28x1xf32>

    %v6_e = tensor.empty() : tensor<1x1x1x28x28xf32>
    %v6 = linalg.transpose ins(%v5 : tensor<1x1x28x28x1xf32>) outs(%v6_e : tensor<1x1x1x28x28xf32>) permutation = [0, 1, 4, 2, 3]

    %v7 = tensor.collapse_shape %v6 [[0], [1, 2], [3], [4]] : tensor<1x1x1x28x28xf32> into tensor<1x1x28x28xf32>

    %v8 = tensor.concat dim(1) %v4, %v7 : (tensor<1x16x28x28xf32>, tensor<1x1x28x28xf32>) -> tensor<1x17x28x28xf32>

    %v9 = tensor.expand_shape %v8 [[0], [1, 2], [3], [4]] output_shape [1, 1, 17, 28, 28] : tensor<1x17x28x28xf32> into tensor<1x1x17x28x28xf32>

    %v10_z = arith.constant 0.0 : f32
    %v10 = tensor.pad %v9 low[0, 0, 0, 1, 1] high[0, 0, 0, 1, 1] {
    ^bb0(%v10_i0: index, %v10_i1: index, %v10_i2: index, %v10_i3: index, %v10_i4: index):
      tensor.yield %v10_z : f32
    } : tensor<1x1x17x28x28xf32> to tensor<1x1x17x30x30xf32>

    %v11 = arith.constant dense<"0x0000803F00000000000080BF00000000000000000000803F0000803F0000000000000000000080BF0000803F00000000000000000000803F00000000000080BF"> : tensor<4x4xf32>
    %v12_e = tensor.empty() : tensor<4x4x1x1x17x14x14xf32>
    %v12 = linalg.generic {indexing_maps = [affine_map<(i, j, n, g, ic, th, tw) -> (n, g, ic, th * 2 + i, tw * 2 + j)>, affine_map<(i, j, n, g, ic, th, tw) -> (i, j, n, g, ic, th, tw)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v10 : tensor<1x1x17x30x30xf32>) outs(%v12_e : tensor<4x4x1x1x17x14x14xf32>) {
    ^bb0(%v12_x: f32, %v12_y: f32):
      linalg.yield %v12_x : f32
    } -> tensor<4x4x1x1x17x14x14xf32>
    %v13 = util.optimization_barrier %v12 : tensor<4x4x1x1x17x14x14xf32>
    %v14_z = arith.constant 0.0 : f32
    %v14_e = tensor.empty() : tensor<4x4x1x1x17x14x14xf32>
    %v14_acc = linalg.fill ins(%v14_z : f32) outs(%v14_e : tensor<4x4x1x1x17x14x14xf32>) -> tensor<4x4x1x1x17x14x14xf32>
    %v14 = linalg.generic {indexing_maps = [affine_map<(a, j, n, g, ic, th, tw, i) -> (a, i)>, affine_map<(a, j, n, g, ic, th, tw, i) -> (i, j, n, g, ic, th, tw)>, affine_map<(a, j, n, g, ic, th, tw, i) -> (a, j, n, g, ic, th, tw)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v11, %v13 : tensor<4x4xf32>, tensor<4x4x1x1x17x14x14xf32>) outs(%v14_acc : tensor<4x4x1x1x17x14x14xf32>) {
    ^bb0(%v14_c: f32, %v14_x: f32, %v14_a: f32):
      %v14_m = arith.mulf %v14_c, %v14_x : f32
      %v14_s = arith.addf %v14_a, %v14_m : f32
      linalg.yield %v14_s : f32
    } -> tensor<4x4x1x1x17x14x14xf32>
    %v15_z = arith.constant 0.0 : f32
    %v15_e = tensor.empty() : tensor<4x4x1x1x17x14x14xf32>
    %v15_acc = linalg.fill ins(%v15_z : f32) outs(%v15_e : tensor<4x4x1x1x17x14x14xf32>) -> tensor<4x4x1x1x17x14x14xf32>
    %v15 = linalg.generic {indexing_maps = [affine_map<(a, b, n, g, ic, th, tw, j) -> (b, j)>, affine_map<(a, b, n, g, ic, th, tw, j) -> (a, j, n, g, ic, th, tw)>, affine_map<(a, b, n, g, ic, th, tw, j) -> (a, b, n, g, ic, th, tw)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v11, %v14 : tensor<4x4xf32>, tensor<4x4x1x1x17x14x14xf32>) outs(%v15_acc : tensor<4x4x1x1x17x14x14xf32>) {
    ^bb0(%v15_c: f32, %v15_x: f32, %v15_a: f32):
      %v15_m = arith.mulf %v15_c, %v15_x : f32
      %v15_s = arith.addf %v15_a, %v15_m : f32
      linalg.yield %v15_s : f32
    } -> tensor<4x4x1x1x17x14x14xf32>
    %v16_z = arith.constant 0.0 : f32
    %v16_e = tensor.empty() : tensor<4x4x1x1x17x14x14xf32>
    %v16_acc = linalg.fill ins(%v16_z : f32) outs(%v16_e : tensor<4x4x1x1x17x14x14xf32>) -> tensor<4x4x1x1x17x14x14xf32>
    %v16 = linalg.generic {indexing_maps = [affine_map<(a, b, n, g, oc, th, tw, ic) -> (a, b, n, g, ic, th, tw)>, affine_map<(a, b, n, g, oc, th, tw, ic) -> (a, b, g, oc, ic)>, affine_map<(a, b, n, g, oc, th, tw, ic) -> (a, b, n, g, oc, th, tw)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v15, %w : tensor<4x4x1x1x17x14x14xf32>, !wei_prepared) outs(%v16_acc : tensor<4x4x1x1x17x14x14xf32>) {
    ^bb0(%v16_x: f32, %v16_w: f32, %v16_a: f32):
      %v16_m = arith.mulf %v16_x, %v16_w : f32
      %v16_s = arith.addf %v16_a, %v16_m : f32
      linalg.yield %v16_s : f32
    } -> tensor<4x4x1x1x17x14x14xf32>
    %v17 = arith.constant dense<"0x0000803F0000803F0000803F00000000000000000000803F000080BF000080BF"> : tensor<2x4xf32>
    %v18_z = arith.constant 0.0 : f32
    %v18_e = tensor.empty() : tensor<2x4x1x1x17x14x14xf32>
    %v18_acc = linalg.fill ins(%v18_z : f32) outs(%v18_e : tensor<2x4x1x1x17x14x14xf32>) -> tensor<2x4x1x1x17x14x14xf32>
    %v18 = linalg.generic {indexing_maps = [affine_map<(p, b, n, g, oc, th, tw, a) -> (p, a)>, affine_map<(p, b, n, g, oc, th, tw, a) -> (a, b, n, g, oc, th, tw)>, affine_map<(p, b, n, g, oc, th, tw, a) -> (p, b, n, g, oc, th, tw)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v17, %v16 : tensor<2x4xf32>, tensor<4x4x1x1x17x14x14xf32>) outs(%v18_acc : tensor<2x4x1x1x17x14x14xf32>) {
    ^bb0(%v18_c: f32, %v18_x: f32, %v18_a: f32):
      %v18_m = arith.mulf %v18_c, %v18_x : f32
      %v18_s = arith.addf %v18_a, %v18_m : f32
      linalg.yield %v18_s : f32
    } -> tensor<2x4x1x1x17x14x14xf32>
    %v19_z = arith.constant 0.0 : f32
    %v19_e = tensor.empty() : tensor<1x1x17x14x2x14x2xf32>
    %v19_acc = linalg.fill ins(%v19_z : f32) outs(%v19_e : tensor<1x1x17x14x2x14x2xf32>) -> tensor<1x1x17x14x2x14x2xf32>
    %v19 = linalg.generic {indexing_maps = [affine_map<(n, g, oc, th, p, tw, q, b) -> (q, b)>, affine_map<(n, g, oc, th, p, tw, q, b) -> (p, b, n, g, oc, th, tw)>, affine_map<(n, g, oc, th, p, tw, q, b) -> (n, g, oc, th, p, tw, q)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v17, %v18 : tensor<2x4xf32>, tensor<2x4x1x1x17x14x14xf32>) outs(%v19_acc : tensor<1x1x17x14x2x14x2xf32>) {
    ^bb0(%v19_c: f32, %v19_x: f32, %v19_a: f32):
      %v19_m = arith.mulf %v19_c, %v19_x : f32
      %v19_s = arith.addf %v19_a, %v19_m : f32
      linalg.yield %v19_s : f32
    } -> tensor<1x1x17x14x2x14x2xf32>
    %v20 = tensor.collapse_shape %v19 [[0], [1], [2], [3, 4], [5, 6]] : tensor<1x1x17x14x2x14x2xf32> into tensor<1x1x17x28x28xf32>

    %v21 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 17] : !bias into tensor<1x17xf32>

    %v22_e = tensor.empty() : tensor<1x1x17x28x28xf32>
    %v22 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v20, %v21 : tensor<1x1x17x28x28xf32>, tensor<1x17xf32>) outs(%v22_e : tensor<1x1x17x28x28xf32>) {
    ^bb0(%v22_a: f32, %v22_b: f32, %v22_out: f32):
      %v22_ab = arith.addf %v22_a, %v22_b : f32
      linalg.yield %v22_ab : f32
    } -> tensor<1x1x17x28x28xf32>
    %v23 = tensor.collapse_shape %v22 [[0], [1, 2], [3], [4]] : tensor<1x1x17x28x28xf32> into tensor<1x17x28x28xf32>

    %v24_z = arith.constant 0.0 : f32
    %v24 = tensor.pad %v23 low[0, 0, 0, 0] high[0, 15, 0, 0] {
    ^bb0(%v24_i0: index, %v24_i1: index, %v24_i2: index, %v24_i3: index):
      tensor.yield %v24_z : f32
    } : tensor<1x17x28x28xf32> to tensor<1x32x28x28xf32>

    %v25 = tensor.expand_shape %v24 [[0], [1, 2], [3], [4]] output_shape [1, 2, 16, 28, 28] : tensor<1x32x28x28xf32> into tensor<1x2x16x28x28xf32>

    %v26_e = tensor.empty() : tensor<1x2x28x28x16xf32>
    %v26 = linalg.transpose ins(%v25 : tensor<1x2x16x28x28xf32>) outs(%v26_e : tensor<1x2x28x28x16xf32>) permutation = [0, 1, 3, 4, 2]

    %v27 = tensor.collapse_shape %v26 [[0, 1, 2, 3, 4]] : tensor<1x2x28x28x16xf32> into !src_dst_buf

    return %v27 : !src_dst_buf
}
