// Auto-generated file. Do not edit!
//   Template: reorder.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<36864xi8>

func.func @reorder_64x64x3x3__s8_abcd__to_s8_ABcd16b16a(%src: !src_dst_buf) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3]] output_shape [64, 64, 3, 3] : !src_dst_buf into tensor<64x64x3x3xi8>
    %v2 = tensor.expand_shape %v1 [[0, 1], [2, 3], [4], [5]] output_shape [4, 16, 4, 16, 3, 3] : tensor<64x64x3x3xi8> into tensor<4x16x4x16x3x3xi8>
    %v3_e = tensor.empty() : tensor<4x4x3x3x16x16xi8>
    %v3 = linalg.transpose ins(%v2 : tensor<4x16x4x16x3x3xi8>) outs(%v3_e : tensor<4x4x3x3x16x16xi8>) permutation = [0, 2, 4, 5, 3, 1]
    %v4 = tensor.collapse_shape %v3 [[0, 1, 2, 3, 4, 5]] : tensor<4x4x3x3x16x16xi8> into !src_dst_buf
    return %v4 : !src_dst_buf
}
