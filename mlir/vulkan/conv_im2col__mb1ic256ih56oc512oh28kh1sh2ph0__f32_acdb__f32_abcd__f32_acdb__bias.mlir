// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_buf = tensor<802816xf32>
!wei_buf = tensor<131072xf32>
!wei_prepared = tensor<1x256x512xf32>
!bias = tensor<512xf32>
!dst_buf = tensor<401408xf32>

func.func @conv_im2col__mb1ic256ih56oc512oh28kh1sh2ph0__f32_acdb__f32_abcd__f32_acdb__bias_prepare(%wei: !wei_buf) -> !wei_prepared {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3]] output_shape [512, 256, 1, 1] : !wei_buf into tensor<512x256x1x1xf32>

    %w2 = tensor.expand_shape %w1 [[0, 1], [2], [3], [4]] output_shape [1, 512, 256, 1, 1] : tensor<512x256x1x1xf32> into tensor<1x512x256x1x1xf32>

    %w3_e = tensor.empty() : tensor<1x1x1x256x512xf32>
    %w3 = linalg.transpose ins(%w2 : tensor<1x512x256x1x1xf32>) outs(%w3_e : tensor<1x1x1x256x512xf32>) permutation = [0, 3, 4, 2, 1]

    %w4 = tensor.collapse_shape %w3 [[0], [1, 2, 3], [4]] : tensor<1x1x1x256x512xf32> into !wei_prepared

    return %w4 : !wei_prepared
}

func.func @conv_im2col__mb1ic256ih56oc512oh28kh1sh2ph0__f32_acdb__f32_abcd__f32_acdb__bias(%src: !src_buf, %w: !wei_prepared, %bias: !bias) -> !dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3]] output_shape [1, 56, 56, 256] : !src_buf into tensor<1x56x56x256xf32>

    %v2 = tensor.extract_slice %v1[0, 0, 0, 0] [1, 55, 55, 256] [1, 1, 1, 1] : tensor<1x56x56x256xf32> to tensor<1x55x55x256xf32>

    %v3 = tensor.expand_shape %v2 [[0], [1], [2], [3, 4]] output_shape [1, 55, 55, 1, 256] : tensor<1x55x55x256xf32> into tensor<1x55x55x1x256xf32>

    %v4 = tensor.extract_slice %v3[0, 0, 0, 0, 0] [1, 28, 28, 1, 256] [1, 2, 2, 1, 1] : tensor<1x55x55x1x256xf32> to tensor<1x28x28x1x256xf32>

    %v5 = util.optimization_barrier %v4 : tensor<1x28x28x1x256xf32>
    %v6 = tensor.collapse_shape %v5 [[0], [1, 2], [3], [4]] : tensor<1x28x28x1x256xf32> into tensor<1x784x1x256xf32>

    %v7_z = arith.constant 0.0 : f32
    %v7_e = tensor.empty() : tensor<1x784x1x512xf32>
    %v7_acc = linalg.fill ins(%v7_z : f32) outs(%v7_e : tensor<1x784x1x512xf32>) -> tensor<1x784x1x512xf32>
    %v7 = linalg.generic {indexing_maps = [affine_map<(n, o, g, oc, r) -> (n, o, g, r)>, affine_map<(n, o, g, oc, r) -> (g, r, oc)>, affine_map<(n, o, g, oc, r) -> (n, o, g, oc)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v6, %w : tensor<1x784x1x256xf32>, !wei_prepared) outs(%v7_acc : tensor<1x784x1x512xf32>) {
    ^bb0(%v7_x: f32, %v7_w: f32, %v7_a: f32):
      %v7_m = arith.mulf %v7_x, %v7_w : f32
      %v7_s = arith.addf %v7_a, %v7_m : f32
      linalg.yield %v7_s : f32
    } -> tensor<1x784x1x512xf32>
    %v8 = tensor.expand_shape %v7 [[0], [1, 2], [3], [4]] output_shape [1, 28, 28, 1, 512] : tensor<1x784x1x512xf32> into tensor<1x28x28x1x512xf32>

    %v9 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 512] : !bias into tensor<1x512xf32>

    %v10_e = tensor.empty() : tensor<1x28x28x1x512xf32>
    %v10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v8, %v9 : tensor<1x28x28x1x512xf32>, tensor<1x512xf32>) outs(%v10_e : tensor<1x28x28x1x512xf32>) {
    ^bb0(%v10_a: f32, %v10_b: f32, %v10_out: f32):
      %v10_ab = arith.addf %v10_a, %v10_b : f32
      linalg.yield %v10_ab : f32
    } -> tensor<1x28x28x1x512xf32>
    %v11 = tensor.collapse_shape %v10 [[0], [1], [2], [3, 4]] : tensor<1x28x28x1x512xf32> into tensor<1x28x28x512xf32>

    %v12 = tensor.collapse_shape %v11 [[0, 1, 2, 3]] : tensor<1x28x28x512xf32> into !dst_buf

    return %v12 : !dst_buf
}
