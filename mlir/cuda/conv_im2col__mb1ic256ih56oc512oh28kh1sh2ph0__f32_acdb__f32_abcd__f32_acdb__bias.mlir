// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
func.func @conv_im2col__mb1ic256ih56oc512oh28kh1sh2ph0__f32_acdb__f32_abcd__f32_acdb__bias_prepare(%wei: tensor<131072xf32>) -> tensor<1x512x256xf32> {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3]] output_shape [512, 256, 1, 1] : tensor<131072xf32> into tensor<512x256x1x1xf32>

    %w2 = tensor.expand_shape %w1 [[0, 1], [2], [3], [4]] output_shape [1, 512, 256, 1, 1] : tensor<512x256x1x1xf32> into tensor<1x512x256x1x1xf32>

    %w3 = tensor.collapse_shape %w2 [[0], [1], [2, 3, 4]] : tensor<1x512x256x1x1xf32> into tensor<1x512x256xf32>

    return %w3 : tensor<1x512x256xf32>
}

func.func @conv_im2col__mb1ic256ih56oc512oh28kh1sh2ph0__f32_acdb__f32_abcd__f32_acdb__bias(%src: tensor<802816xf32>, %w: tensor<1x512x256xf32>, %bias: tensor<512xf32>) -> tensor<401408xf32> {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3]] output_shape [1, 56, 56, 256] : tensor<802816xf32> into tensor<1x56x56x256xf32>

    %v2_e = tensor.empty() : tensor<1x256x56x56xf32>
    %v2 = linalg.transpose ins(%v1 : tensor<1x56x56x256xf32>) outs(%v2_e : tensor<1x256x56x56xf32>) permutation = [0, 3, 1, 2]

    %v3 = tensor.extract_slice %v2[0, 0, 0, 0] [1, 256, 55, 55] [1, 1, 1, 1] : tensor<1x256x56x56xf32> to tensor<1x256x55x55xf32>

    %v4 = tensor.expand_shape %v3 [[0], [1, 2], [3], [4]] output_shape [1, 1, 256, 55, 55] : tensor<1x256x55x55xf32> into tensor<1x1x256x55x55xf32>

    %v5_z = arith.constant 0.0 : f32
    %v5_e = tensor.empty() : tensor<1x1x512x28x28xf32>
    %v5_acc = linalg.fill ins(%v5_z : f32) outs(%v5_e : tensor<1x1x512x28x28xf32>) -> tensor<1x1x512x28x28xf32>
    %v5 = linalg.generic {indexing_maps = [affine_map<(n, g, oc, o0, o1, ic) -> (n, g, ic, o0 * 2, o1 * 2)>, affine_map<(n, g, oc, o0, o1, ic) -> (g, oc, ic)>, affine_map<(n, g, oc, o0, o1, ic) -> (n, g, oc, o0, o1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v4, %w : tensor<1x1x256x55x55xf32>, tensor<1x512x256xf32>) outs(%v5_acc : tensor<1x1x512x28x28xf32>) {
    ^bb0(%v5_x: f32, %v5_w: f32, %v5_a: f32):
      %v5_m = arith.mulf %v5_x, %v5_w : f32
      %v5_s = arith.addf %v5_a, %v5_m : f32
      linalg.yield %v5_s : f32
    } -> tensor<1x1x512x28x28xf32>
    %v6 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 512] : tensor<512xf32> into tensor<1x512xf32>

    %v7_e = tensor.empty() : tensor<1x1x512x28x28xf32>
    %v7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v5, %v6 : tensor<1x1x512x28x28xf32>, tensor<1x512xf32>) outs(%v7_e : tensor<1x1x512x28x28xf32>) {
    ^bb0(%v7_a: f32, %v7_b: f32, %v7_out: f32):
      %v7_ab = arith.addf %v7_a, %v7_b : f32
      linalg.yield %v7_ab : f32
    } -> tensor<1x1x512x28x28xf32>
    %v8 = tensor.collapse_shape %v7 [[0], [1, 2], [3], [4]] : tensor<1x1x512x28x28xf32> into tensor<1x512x28x28xf32>

    %v9_e = tensor.empty() : tensor<1x28x28x512xf32>
    %v9 = linalg.transpose ins(%v8 : tensor<1x512x28x28xf32>) outs(%v9_e : tensor<1x28x28x512xf32>) permutation = [0, 2, 3, 1]

    %v10 = tensor.collapse_shape %v9 [[0, 1, 2, 3]] : tensor<1x28x28x512xf32> into tensor<401408xf32>

    return %v10 : tensor<401408xf32>
}
