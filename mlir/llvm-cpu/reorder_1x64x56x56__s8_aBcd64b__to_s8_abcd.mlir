// Auto-generated file. Do not edit!
//   Template: reorder.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<200704xi8>

func.func @reorder_1x64x56x56__s8_aBcd64b__to_s8_abcd(%src: !src_dst_buf) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3, 4]] output_shape [1, 1, 56, 56, 64] : !src_dst_buf into tensor<1x1x56x56x64xi8>
    %v2_e = tensor.empty() : tensor<1x1x64x56x56xi8>
    %v2 = linalg.transpose ins(%v1 : tensor<1x1x56x56x64xi8>) outs(%v2_e : tensor<1x1x64x56x56xi8>) permutation = [0, 1, 4, 2, 3]
    %v3 = tensor.collapse_shape %v2 [[0], [1, 2], [3], [4]] : tensor<1x1x64x56x56xi8> into tensor<1x64x56x56xi8>
    %v4 = tensor.collapse_shape %v3 [[0, 1, 2, 3]] : tensor<1x64x56x56xi8> into !src_dst_buf
    return %v4 : !src_dst_buf
}
