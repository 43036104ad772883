// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
func.func @conv_direct__mb1ic17ih28oc17oh28kh3ph1__f32_aBcd16b__f32_ABcd16b16a__f32_aBcd16b__bias__relu_prepare(%wei: tensor<9216xf32>) -> tensor<1x17x17x3x3xf32> {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3, 4, 5]] output_shape [2, 2, 3, 3, 16, 16] : tensor<9216xf32> into tensor<2x2x3x3x16x16xf32>

    %w2_e = tensor.empty() : tensor<17x17x3x3xf32>
    %w2 = linalg.unpack %w1 outer_dims_perm = [0, 1, 2, 3] inner_dims_pos = [1, 0] inner_tiles = [16, 16] into %w2_e : tensor<2x2x3x3x16x16xf32> -> tensor<17x17x3x3xf32>

    %w3 = tensor.expand_shape %w2 [[0, 1], [2], [3], [4]] output_shape [1, 17, 17, 3, 3] : tensor<17x17x3x3xf32> into tensor<1x17x17x3x3xf32>

    return %w3 : tensor<1x17x17x3x3xf32>
}

func.func @conv_direct__mb1ic17ih28oc17oh28kh3ph1__f32_aBcd16b__f32_ABcd16b16a__f32_aBcd16b__bias__relu(%src: tensor<25088xf32>, %w: tensor<1x17x17x3x3xf32>, %bias: tensor<17xf32>) -> tensor<25088xf32> {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3, 4]] output_shape [1, 2, 28, 28, 16] : tensor<25088xf32> into tensor<1x2x28x28x16xf32>

    %v2_e = tensor.empty() : tensor<1x17x28x28xf32>
    %v2 = linalg.unpack %v1 outer_dims_perm = [0, 1, 2, 3] inner_dims_pos = [1] inner_tiles = [16] into %v2_e : tensor<1x2x28x28x16xf32> -> tensor<1x17x28x28xf32>

    %v3_z = arith.constant 0.0 : f32
    %v3 = tensor.pad %v2 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%v3_i0: index, %v3_i1: index, %v3_i2: index, %v3_i3: index):
      tensor.yield %v3_z : f32
    } : tensor<1x17x28x28xf32> to tensor<1x17x30x30xf32>

    %v4 = tensor.expand_shape %v3 [[0], [1, 2], [3], [4]] output_shape [1, 1, 17, 30, 30] : tensor<1x17x30x30xf32> into tensor<1x1x17x30x30xf32>

    %v5_z = arith.constant 0.0 : f32
    %v5_e = tensor.empty() : tensor<1x1x17x28x28xf32>
    %v5_acc = linalg.fill ins(%v5_z : f32) outs(%v5_e : tensor<1x1x17x28x28xf32>) -> tensor<1x1x17x28x28xf32>
    %v5 = linalg.generic {indexing_maps = [affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (n, g, ic, o0 * 1 + k0 * 1, o1 * 1 + k1 * 1)>, affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (g, oc, ic, k0, k1)>, affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (n, g, oc, o0, o1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
        ins(%v4, %w : tensor<1x1x17x30x30xf32>, tensor<1x17x17x3x3xf32>) outs(%v5_acc : tensor<1x1x17x28x28xf32>) {
    ^bb0(%v5_x: f32, %v5_w: f32, %v5_a: f32):
      %v5_m = arith.mulf %v5_x, %v5_w : f32
      %v5_s = arith.addf %v5_a, %v5_m : f32
      linalg.yield %v5_s : f32
    } -> tensor<1x1x17x28x28xf32>
    %v6 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 17] : tensor<17xf32> into tensor<1x17xf32>

    %v7_e = tensor.empty() : tensor<1x1x17x28x28xf32>
    %v7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v5, %v6 : tensor<1x1x17x28x28xf32>, tensor<1x17xf32>) outs(%v7_e : tensor<1x1x17x28x28xf32>) {
    ^bb0(%v7_a: f32, %v7_b: f32, %v7_out: f32):
      %v7_ab = arith.addf %v7_a, %v7_b : f32
      %v7_zero = arith.constant 0.0 : f32
      %v7_r = arith.maximumf %v7_ab, %v7_zero : f32
      linalg.yield %v7_r : f32
    } -> tensor<1x1x17x28x28xf32>
    %v8 = tensor.collapse_shape %v7 [[0], [1, 2], [3], [4]] : tensor<1x1x17x28x28xf32> into tensor<1x17x28x28xf32>

    %v9_z = arith.constant 0.0 : f32
    %v9_e = tensor.empty() : tensor<1x2x28x28x16xf32>
    %v9 = linalg.pack %v8 padding_value(%v9_z : f32) outer_dims_perm = [0, 1, 2, 3] inner_dims_pos = [1] inner_tiles = [16] into %v9_e : tensor<1x17x28x28xf32> -> tensor<1x2x28x28x16xf32>

    %v10 = tensor.collapse_shape %v9 [[0, 1, 2, 3, 4]] : tensor<1x2x28x28x16xf32> into tensor<25088xf32>

    return %v10 : tensor<25088xf32>
}
