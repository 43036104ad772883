// Auto-generated file. Do not edit!
//   Template: reorder.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<401408xi8>

func.func @reorder_8x64x28x28__s8_abcd__to_s8_Bcda4b(%src: !src_dst_buf) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3]] output_shape [8, 64, 28, 28] : !src_dst_buf into tensor<8x64x28x28xi8>
    %v2 = tensor.expand_shape %v1 [[0], [1, 2], [3], [4]] output_shape [8, 16, 4, 28, 28] : tensor<8x64x28x28xi8> into tensor<8x16x4x28x28xi8>
    %v3_e = tensor.empty() : tensor<16x28x28x8x4xi8>
    %v3 = linalg.transpose ins(%v2 : tensor<8x16x4x28x28xi8>) outs(%v3_e : tensor<16x28x28x8x4xi8>) permutation = [1, 3, 4, 0, 2]
    %v4 = tensor.collapse_shape %v3 [[0, 1, 2, 3, 4]] : tensor<16x28x28x8x4xi8> into !src_dst_buf
    return %v4 : !src_dst_buf
}
