// Auto-generated file. Do not edit!
//   Template: reorder.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<401408xf32>

func.func @reorder_8x64x28x28__f32_abcd__to_f32_Bcda4b(%src: !src_dst_buf) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3]] output_shape [8, 64, 28, 28] : !src_dst_buf into tensor<8x64x28x28xf32>
    %v2_z = arith.constant 0.0 : f32
    %v2_e = tensor.empty() : tensor<16x28x28x8x4xf32>
    %v2 = linalg.pack %v1 padding_value(%v2_z : f32) outer_dims_perm = [1, 2, 3, 0] inner_dims_pos = [1] inner_tiles = [4] into %v2_e : tensor<8x64x28x28xf32> -> tensor<16x28x28x8x4xf32>
    %v3 = tensor.collapse_shape %v2 [[0, 1, 2, 3, 4]] : tensor<16x28x28x8x4xf32> into !src_dst_buf
    return %v3 : !src_dst_buf
}
