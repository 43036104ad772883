// Auto-generated file. Do not edit!
//   Template: reorder.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<200704xf32>

func.func @reorder_1x64x56x56__f32_abcd__to_f32_aBcd64b(%src: !src_dst_buf) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3]] output_shape [1, 64, 56, 56] : !src_dst_buf into tensor<1x64x56x56xf32>
    %v2_z = arith.constant 0.0 : f32
    %v2_e = tensor.empty() : tensor<1x1x56x56x64xf32>
    %v2 = linalg.pack %v1 padding_value(%v2_z : f32) outer_dims_perm = [0, 1, 2, 3] inner_dims_pos = [1] inner_tiles = [64] into %v2_e : tensor<1x64x56x56xf32> -> tensor<1x1x56x56x64xf32>
    %v3 = tensor.collapse_shape %v2 [[0, 1, 2, 3, 4]] : tensor<1x1x56x56x64xf32> into !src_dst_buf
    return %v3 : !src_dst_buf
}
