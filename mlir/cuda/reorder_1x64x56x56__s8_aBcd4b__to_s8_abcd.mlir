// Auto-generated file. Do not edit!
//   Template: reorder.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<200704xi8>

func.func @reorder_1x64x56x56__s8_aBcd4b__to_s8_abcd(%src: !src_dst_buf) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3, 4]] output_shape [1, 16, 56, 56, 4] : !src_dst_buf into tensor<1x16x56x56x4xi8>
    %v2_e = tensor.empty() : tensor<1x64x56x56xi8>
    %v2 = linalg.unpack %v1 outer_dims_perm = [0, 1, 2, 3] inner_dims_pos = [1] inner_tiles = [4] into %v2_e : tensor<1x16x56x56x4xi8> -> tensor<1x64x56x56xi8>
    %v3 = tensor.collapse_shape %v2 [[0, 1, 2, 3]] : tensor<1x64x56x56xi8> into !src_dst_buf
    return %v3 : !src_dst_buf
}
