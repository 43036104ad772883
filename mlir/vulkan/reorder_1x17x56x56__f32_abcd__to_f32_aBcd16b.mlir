// Auto-generated file. Do not edit!
//   Template: reorder.mlir.j2
//   Generator: kgen 0.1.0
!src_buf = tensor<53312xf32>
!dst_buf = tensor<100352xf32>

func.func @reorder_1x17x56x56__f32_abcd__to_f32_aBcd16b(%src: !src_buf) -> !dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3]] output_shape [1, 17, 56, 56] : !src_buf into tensor<1x17x56x56xf32>
    %v2_z = arith.constant 0.0 : f32
    %v2 = tensor.pad %v1 low[0, 0, 0, 0] high[0, 15, 0, 0] {
    ^bb0(%v2_i0: index, %v2_i1: index, %v2_i2: index, %v2_i3: index):
      tensor.yield %v2_z : f32
    } : tensor<1x17x56x56xf32> to tensor<1x32x56x56xf32>
    %v3 = tensor.expand_shape %v2 [[0], [1, 2], [3], [4]] output_shape [1, 2, 16, 56, 56] : tensor<1x32x56x56xf32> into tensor<1x2x16x56x56xf32>
    %v4_e = tensor.empty() : tensor<1x2x56x56x16xf32>
    %v4 = linalg.transpose ins(%v3 : tensor<1x2x16x56x56xf32>) outs(%v4_e : tensor<1x2x56x56x16xf32>) permutation = [0, 1, 3, 4, 2]
    %v5 = tensor.collapse_shape %v4 [[0, 1, 2, 3, 4]] : tensor<1x2x56x56x16xf32> into !dst_buf
    return %v5 : !dst_buf
}
