// Auto-generated file. Do not edit!
//   Template: reorder.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<36864xf32>

func.func @reorder_64x64x3x3__f32_ABcd16b16a__to_f32_abcd(%src: !src_dst_buf) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3, 4, 5]] output_shape [4, 4, 3, 3, 16, 16] : !src_dst_buf into tensor<4x4x3x3x16x16xf32>
    %v2_e = tensor.empty() : tensor<4x16x4x16x3x3xf32>
    %v2 = linalg.transpose ins(%v1 : tensor<4x4x3x3x16x16xf32>) outs(%v2_e : tensor<4x16x4x16x3x3xf32>) permutation = [0, 5, 1, 4, 2, 3]
    %v3 = tensor.collapse_shape %v2 [[0, 1], [2, 3], [4], [5]] : tensor<4x16x4x16x3x3xf32> into tensor<64x64x3x3xf32>
    %v4 = tensor.collapse_shape %v3 [[0, 1, 2, 3]] : tensor<64x64x3x3xf32> into !src_dst_buf
    return %v4 : !src_dst_buf
}
