// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
func.func @conv_direct__mb1ic17ih28oc17oh28kh3ph1__f32_aBcd16b__f32_ABcd16b16a__f32_aBcd16b__bias__relu_prepare(%wei: tensor<9216xf32>) -> tensor<1x17x17x3x3xf32> {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3, 4, 5]] output_shape [2, 2, 3, 3, 16, 16] : tensor<9216xf32> into tensor<2x2x3x3x16x16xf32>

    %w2_e = tensor.empty() : tensor<2x16x2x16x3x3xf32>
    %w2 = linalg.transpose ins(%w1 : tensor<2x2x3x3x16x16xf32>) outs(%w2_e : tensor<2x16x2x16x3x3xf32>) permutation = [0, 5, 1, 4, 2, 3]

    %w3 = tensor.collapse_shape %w2 [[0, 1], [2, 3], [4], [5]] : tensor<2x16x2x16x3x3xf32> into tensor<32x32x3x3xf32>

    %w4 = tensor.extract_slice %w3[0, 0, 0, 0] [17, 17, 3, 3] [1, 1, 1, 1] : tensor<32x32x3x3xf32> to tensor<17x17x3x3xf32>

    %w5 = tensor.expand_shape %w4 [[0, 1], [2], [3], [4]] output_shape [1, 17, 17, 3, 3] : tensor<17x17x3x3xf32> into tensor<1x17x17x3x3xf32>

    return %w5 : tensor<1x17x17x3x3xf32>
}

func.func @conv_direct__mb1ic17ih28oc17oh28kh3ph1__f32_aBcd16b__f32_ABcd16b16a__f32_aBcd16b__bias__relu(%src: tensor<25088xf32>, %w: tensor<1x17x17x3x3xf32>, %bias: tensor<17xf32>) -> tensor<25088xf32> {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3, 4]] output_shape [1, 2, 28, 28, 16] : tensor<25088xf32> into tensor<1x2x28x28x16xf32>

    %v2_e = tensor.empty() : tensor<1x2x16x28x28xf32>
    %v2 = linalg.transpose ins(%v1 : tensor<1x2x28x28x16xf32>) outs(%v2_e : tensor<1x2x16x28x28xf32>) permutation = [0, 1, 4, 2, 3]

    %v3 = tensor.collapse_shape %v2 [[0], [1, 2], [3], [4]] : tensor<1x2x16x28x28xf32> into tensor<1x32x28x28xf32>

    %v4 = tensor.extract_slice %v3[0, 0, 0, 0] [1, 17, 28, 28] [1, 1, 1, 1] : tensor<1x32x28x28xf32> to tensor<1x17x28x28xf32>

    %v5_z = arith.constant 0.0 : f32
    %v5 = tensor.pad %v4 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%v5_i0: index, %v5_i1: index, %v5_i2: index, %v5_i3: index):
      tensor.yield %v5_z : f32
    } : tensor<1x17x28x28xf32> to tensor<1x17x30x30xf32>

    %v6 = tensor.expand_shape %v5 [[0], [1, 2], [3], [4]] output_shape [1, 1, 17, 30, 30] : tensor<1x17x30x30xf32> into tensor<1x1x17x30x30xf32>

    %v7_z = arith.constant 0.0 : f32
    %v7_e = tensor.empty() : tensor<1x1x17x28x28xf32>
    %v7_acc = linalg.fill ins(%v7_z : f32) outs(%v7_e : tensor<1x1x17x28x28xf32>) -> tensor<1x1x17x28x28xf32>
    %v7 = linalg.generic {indexing_maps = [affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (n, g, ic, o0 * 1 + k0 * 1, o1 * 1 + k1 * 1)>, affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (g, oc, ic, k0, k1)>, affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (n, g, oc, o0, o1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
        ins(%v6, %w : tensor<1x1x17x30x30xf32>, tensor<1x17x17x3x3xf32>) outs(%v7_acc : tensor<1x1x17x28x28xf32>) {
    ^bb0(%v7_x: f32, %v7_w: f32, %v7_a: f32):
      %v7_m = arith.mulf %v7_x, %v7_w : f32
      %v7_s = arith.addf %v7_a, %v7_m : f32
      linalg.yield %v7_s : f32
    } -> tensor<1x1x17x28x28xf32>
    %v8 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 17] : tensor<17xf32> into tensor<1x17xf32>

    %v9_e = tensor.empty() : tensor<1x1x17x28x28xf32>
    %v9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v7, %v8 : tensor<1x1x17x28x28xf32>, tensor<1x17xf32>) outs(%v9_e : tensor<1x1x17x28x28xf32>) {
    ^bb0(%v9_a: f32, %v9_b: f32, %v9_out: f32):
      %v9_ab = arith.addf %v9_a, %v9_b : f32
      %v9_zero = arith.constant 0.0 : f32
      %v9_r = arith.maximumf %v9_ab, %v9_zero : f32
      linalg.yield %v9_r : f32
    } -> tensor<1x1x17x28x28xf32>
    %v10 = tensor.collapse_shape %v9 [[0], [1, 2], [3], [4]] : tensor<1x1x17x28x28xf32> into tensor<1x17x28x28xf32>

    %v11_z = arith.constant 0.0 : f32
    %v11 = tensor.pad %v10 low[0, 0, 0, 0] high[0, 15, 0, 0] {
    ^bb0(%v11_i0: index, %v11_i1: index, %v11_i2: index, %v11_i3: index):
      tensor.yield %v11_z : f32
    } : tensor<1x17x28x28xf32> to tensor<1x32x28x28xf32>

    %v12 = tensor.expand_shape %v11 [[0], [1, 2], [3], [4]] output_shape [1, 2, 16, 28, 28] : tensor<1x32x28x28xf32> into tensor<1x2x16x28x28xf32>

    %v13_e = tensor.empty() : tensor<1x2x28x28x16xf32>
    %v13 = linalg.transpose ins(%v12 : tensor<1x2x16x28x28xf32>) outs(%v13_e : tensor<1x2x28x28x16xf32>) permutation = [0, 1, 3, 4, 2]

    %v14 = tensor.collapse_shape %v13 [[0, 1, 2, 3, 4]] : tensor<1x2x28x28x16xf32> into tensor<25088xf32>

    return %v14 : tensor<25088xf32>
}
