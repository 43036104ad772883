// Auto-generated file. Do not edit!
//   Template: reorder.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<200704xf32>

func.func @reorder_1x64x56x56__f32_aBcd32b__to_f32_abcd(%src: !src_dst_buf) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3, 4]] output_shape [1, 2, 56, 56, 32] : !src_dst_buf into tensor<1x2x56x56x32xf32>
    %v2_e = tensor.empty() : tensor<1x2x32x56x56xf32>
    %v2 = linalg.transpose ins(%v1 : tensor<1x2x56x56x32xf32>) outs(%v2_e : tensor<1x2x32x56x56xf32>) permutation = [0, 1, 4, 2, 3]
    %v3 = tensor.collapse_shape %v2 [[0], [1, 2], [3], [4]] : tensor<1x2x32x56x56xf32> into tensor<1x64x56x56xf32>
    %v4 = tensor.collapse_shape %v3 [[0, 1, 2, 3]] : tensor<1x64x56x56xf32> into !src_dst_buf
    return %v4 : !src_dst_buf
}
