// Auto-generated file. Do not edit!
//   Template: reorder.mlir.j2
//   Generator: kgen 0.1.0
!src_buf = tensor<200704xf32>
!src_scale = tensor<64xf32>
!dst_buf = tensor<200704xi8>

func.func @reorder_1x64x56x56__f32_abcd__to_s8_aBcd4b__srcscale_per_dim_1(%src: !src_buf, %src_scale: !src_scale) -> !dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3]] output_shape [1, 64, 56, 56] : !src_buf into tensor<1x64x56x56xf32>
    %v2_e = tensor.empty() : tensor<1x64x56x56xi8>
    %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%v1, %src_scale : tensor<1x64x56x56xf32>, !src_scale) outs(%v2_e : tensor<1x64x56x56xi8>) {
    ^bb0(%v2_a: f32, %v2_q0: f32, %v2_out: i8):
      %v2_t0 = arith.mulf %v2_a, %v2_q0 : f32
      %v2_r = math.roundeven %v2_t0 : f32
      %v2_lo = arith.constant -1.280000000e+02 : f32
      %v2_hi = arith.constant 1.270000000e+02 : f32
      %v2_c1 = arith.maximumf %v2_r, %v2_lo : f32
      %v2_c2 = arith.minimumf %v2_c1, %v2_hi : f32
      %v2_i = arith.fptosi %v2_c2 : f32 to i8
      linalg.yield %v2_i : i8
    } -> tensor<1x64x56x56xi8>

    %v3_z = arith.constant 0 : i8
    %v3_e = tensor.empty() : tensor<1x16x56x56x4xi8>
    %v3 = linalg.pack %v2 padding_value(%v3_z : i8) outer_dims_perm = [0, 1, 2, 3] inner_dims_pos = [1] inner_tiles = [4] into %v3_e : tensor<1x64x56x56xi8> -> tensor<1x16x56x56x4xi8>
    %v4 = tensor.collapse_shape %v3 [[0, 1, 2, 3, 4]] : tensor<1x16x56x56x4xi8> into !dst_buf
    return %v4 : !dst_buf
}
