// Auto-generated file. Do not edit!
//   Template: reorder.mlir.j2
//   Generator: kgen 0.1.0
!src_buf = tensor<53312xf32>
!dst_buf = tensor<100352xf32>

func.func @reorder_1x17x56x56__f32_abcd__to_f32_aBcd16b(%src: !src_buf) -> !dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3]] output_shape [1, 17, 56, 56] : !src_buf into tensor<1x17x56x56xf32>
    %v2 = tensor.extract_slice %v1[0, 0, 0, 0] [1, 16, 56, 56] [1, 1, 1, 1] : tensor<1x17x56x56xf32> to tensor<1x16x56x56xf32>
    %v3 = tensor.expand_shape %v2 [[0], [1, 2], [3], [4]] output_shape [1, 1, 16, 56, 56] : tensor<1x16x56x56xf32> into tensor<1x1x16x56x56xf32>
    %v4_e = tensor.empty() : tensor<1x1x56x56x16xf32>
    %v4 = linalg.transpose ins(%v3 : tensor<1x1x16x56x56xf32>) outs(%v4_e : tensor<1x1x56x56x16xf32>) permutation = [0, 1, 3, 4, 2]
    %v5 = tensor.collapse_shape %v4 [[0, 1, 2, 3, 4]] : tensor<1x1x56x56x16xf32> into tensor<50176xf32>
    %v6 = tensor.extract_slice %v1[0, 16, 0, 0] [1, 1, 56, 56] [1, 1, 1, 1] : tensor<1x17x56x56xf32> to tensor<1x1x56x56xf32>
    %v7_z = arith.constant 0.0 : f32
    %v7_e = tensor.empty() : tensor<1x1x56x56x16xf32>
    %v7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v6 : tensor<1x1x56x56xf32>) outs(%v7_e : tensor<1x1x56x56x16xf32>) {
    ^bb0(%v7_x0: f32, %v7_out: f32):
      %v7_lane = linalg.index 4 : index
      %v7_k0 = arith.constant 0 : index
      %v7_is0 = arith.cmpi eq, %v7_lane, %v7_k0 : index
      %v7_r0 = arith.select %v7_is0, %v7_x0, %v7_z : f32
      linalg.yield %v7_r0 : f32
    } -> tensor<1x1x56x56x16xf32>
    %v8 = tensor.collapse_shape %v7 [[0, 1, 2, 3, 4]] : tensor<1x1x56x56x16xf32> into tensor<50176xf32>
    %v9 = tensor.concat dim(0) %v5, %v8 : (tensor<50176xf32>, tensor<50176xf32>) -> !dst_buf
    return %v9 : !dst_buf
}
