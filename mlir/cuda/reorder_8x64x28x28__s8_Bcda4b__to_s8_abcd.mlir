// Auto-generated file. Do not edit!
//   Template: reorder.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<401408xi8>

func.func @reorder_8x64x28x28__s8_Bcda4b__to_s8_abcd(%src: !src_dst_buf) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3, 4]] output_shape [16, 28, 28, 8, 4] : !src_dst_buf into tensor<16x28x28x8x4xi8>
    %v2_e = tensor.empty() : tensor<8x64x28x28xi8>
    %v2 = linalg.unpack %v1 outer_dims_perm = [1, 2, 3, 0] inner_dims_pos = [1] inner_tiles = [4] into %v2_e : tensor<16x28x28x8x4xi8> -> tensor<8x64x28x28xi8>
    %v3 = tensor.collapse_shape %v2 [[0, 1, 2, 3]] : tensor<8x64x28x28xi8> into !src_dst_buf
    return %v3 : !src_dst_buf
}
