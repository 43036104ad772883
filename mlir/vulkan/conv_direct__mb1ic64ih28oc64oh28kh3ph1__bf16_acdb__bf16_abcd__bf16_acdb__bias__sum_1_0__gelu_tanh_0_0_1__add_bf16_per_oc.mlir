// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<50176xbf16>
!wei_buf = tensor<36864xbf16>
!wei_prepared = tensor<3x3x64x64xf32>
!bias = tensor<64xf32>

func.func @conv_direct__mb1ic64ih28oc64oh28kh3ph1__bf16_acdb__bf16_abcd__bf16_acdb__bias__sum_1_0__gelu_tanh_0_0_1__add_bf16_per_oc_prepare(%wei: !wei_buf) -> !wei_prepared {
    %w1 = tensor.bitcast %wei : !wei_buf to tensor<36864xi16>

    %w2 = tensor.expand_shape %w1 [[0, 1, 2, 3]] output_shape [64, 64, 3, 3] : tensor<36864xi16> into tensor<64x64x3x3xi16>

    %w3 = tensor.expand_shape %w2 [[0, 1], [2], [3], [4]] output_shape [1, 64, 64, 3, 3] : tensor<64x64x3x3xi16> into tensor<1x64x64x3x3xi16>

    %w4_e = tensor.empty() : tensor<1x64x64x3x3xf32>
    %w4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%w3 : tensor<1x64x64x3x3xi16>) outs(%w4_e : tensor<1x64x64x3x3xf32>) {
    ^bb0(%w4_a: i16, %w4_out: f32):
      %w4_w = arith.extui %w4_a : i16 to i32
      %w4_c16 = arith.constant 16 : i32
      %w4_s = arith.shli %w4_w, %w4_c16 : i32
      %w4_f = arith.bitcast %w4_s : i32 to f32
      linalg.yield %w4_f : f32
    } -> tensor<1x64x64x3x3xf32>


    %w5 = tensor.collapse_shape %w4 [[0, 1], [2], [3], [4]] : tensor<1x64x64x3x3xf32> into tensor<64x64x3x3xf32>

    %w6_e = tensor.empty() : !wei_prepared
    %w6 = linalg.transpose ins(%w5 : tensor<64x64x3x3xf32>) outs(%w6_e : !wei_prepared) permutation = [2, 3, 1, 0]

    return %w6 : !wei_prepared
}

func.func @conv_direct__mb1ic64ih28oc64oh28kh3ph1__bf16_acdb__bf16_abcd__bf16_acdb__bias__sum_1_0__gelu_tanh_0_0_1__add_bf16_per_oc(%src: !src_dst_buf, %w: !wei_prepared, %bias: !bias, %dst_init: !src_dst_buf, %binary_2: tensor<64xbf16>) -> !src_dst_buf {
    %v1 = tensor.bitcast %src : !src_dst_buf to tensor<50176xi16>

    %v2 = tensor.expand_shape %v1 [[0, 1, 2, 3]] output_shape [1, 28, 28, 64] : tensor<50176xi16> into tensor<1x28x28x64xi16>

    %v3_z = arith.constant 0 : i16
    %v3 = tensor.pad %v2 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%v3_i0: index, %v3_i1: index, %v3_i2: index, %v3_i3: index):
      tensor.yield %v3_z : i16
    } : tensor<1x28x28x64xi16> to tensor<1x30x30x64xi16>

    %v4 = tensor.expand_shape %v3 [[0], [1], [2], [3, 4]] output_shape [1, 30, 30, 1, 64] : tensor<1x30x30x64xi16> into tensor<1x30x30x1x64xi16>

    %v5_e = tensor.empty() : tensor<1x30x30x1x64xf32>
    %v5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v4 : tensor<1x30x30x1x64xi16>) outs(%v5_e : tensor<1x30x30x1x64xf32>) {
    ^bb0(%v5_a: i16, %v5_out: f32):
      %v5_w = arith.extui %v5_a : i16 to i32
      %v5_c16 = arith.constant 16 : i32
      %v5_s = arith.shli %v5_w, %v5_c16 : i32
      %v5_f = arith.bitcast %v5_s : i32 to f32
      linalg.yield %v5_f : f32
    } -> tensor<1x30x30x1x64xf32>


    %v6 = util.optimization_barrier %v5 : tensor<1x30x30x1x64xf32>
    %v7 = tensor.collapse_shape %v6 [[0], [1], [2], [3, 4]] : tensor<1x30x30x1x64xf32> into tensor<1x30x30x64xf32>

    %v8_z = arith.constant 0.0 : f32
    %v8_e = tensor.empty() : tensor<1x28x28x64xf32>
    %v8_acc = linalg.fill ins(%v8_z : f32) outs(%v8_e : tensor<1x28x28x64xf32>) -> tensor<1x28x28x64xf32>
    %v8 = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
        ins(%v7, %w : tensor<1x30x30x64xf32>, !wei_prepared) outs(%v8_acc : tensor<1x28x28x64xf32>) -> tensor<1x28x28x64xf32>
    %v9 = tensor.expand_shape %v8 [[0], [1], [2], [3, 4]] output_shape [1, 28, 28, 1, 64] : tensor<1x28x28x64xf32> into tensor<1x28x28x1x64xf32>

    %v10 = tensor.bitcast %dst_init : !src_dst_buf to tensor<50176xi16>

    %v11 = tensor.bitcast %binary_2 : tensor<64xbf16> to tensor<64xi16>

    %v12 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 64] : !bias into tensor<1x64xf32>

    %v13 = tensor.expand_shape %v10 [[0, 1, 2, 3]] output_shape [1, 28, 28, 64] : tensor<50176xi16> into tensor<1x28x28x64xi16>

    %v14 = tensor.expand_shape %v13 [[0], [1], [2], [3, 4]] output_shape [1, 28, 28, 1, 64] : tensor<1x28x28x64xi16> into tensor<1x28x28x1x64xi16>

    %v15 = tensor.expand_shape %v11 [[0, 1]] output_shape [1, 64] : tensor<64xi16> into tensor<1x64xi16>

    %v16_e = tensor.empty() : tensor<1x28x28x1x64xi16>
    %v16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v9, %v12, %v14, %v15 : tensor<1x28x28x1x64xf32>, tensor<1x64xf32>, tensor<1x28x28x1x64xi16>, tensor<1x64xi16>) outs(%v16_e : tensor<1x28x28x1x64xi16>) {
    ^bb0(%v16_a: f32, %v16_x0: f32, %v16_x1: i16, %v16_x2: i16, %v16_out: i16):

      %v16_p0 = arith.addf %v16_a, %v16_x0 : f32
      %v16_p1_y_w = arith.extui %v16_x1 : i16 to i32
      %v16_p1_y_c16 = arith.constant 16 : i32
      %v16_p1_y_s = arith.shli %v16_p1_y_w, %v16_p1_y_c16 : i32
      %v16_p1_y = arith.bitcast %v16_p1_y_s : i32 to f32

      %v16_p1_sc = arith.constant 1.000000000e+00 : f32
      %v16_p1_ys = arith.mulf %v16_p1_y, %v16_p1_sc : f32
      %v16_p1 = arith.addf %v16_p0, %v16_p1_ys : f32
      %v16_p2_al = arith.constant 0.000000000e+00 : f32
      %v16_p2_be = arith.constant 0.000000000e+00 : f32
      %v16_p2_0 = arith.constant 0.0 : f32
      %v16_p2_1 = arith.constant 1.0 : f32
      %v16_p2_h = arith.constant 0.5 : f32
      %v16_p2_k0 = arith.constant 0.79788456080286536 : f32
      %v16_p2_k1 = arith.constant 0.044715 : f32
      %v16_p2_x2 = arith.mulf %v16_p1, %v16_p1 : f32
      %v16_p2_x3 = arith.mulf %v16_p2_x2, %v16_p1 : f32
      %v16_p2_kx3 = arith.mulf %v16_p2_x3, %v16_p2_k1 : f32
      %v16_p2_in = arith.addf %v16_p1, %v16_p2_kx3 : f32
      %v16_p2_ar = arith.mulf %v16_p2_in, %v16_p2_k0 : f32
      %v16_p2_th = math.tanh %v16_p2_ar : f32
      %v16_p2_t1 = arith.addf %v16_p2_th, %v16_p2_1 : f32
      %v16_p2_hx = arith.mulf %v16_p1, %v16_p2_h : f32
      %v16_p2_r = arith.mulf %v16_p2_hx, %v16_p2_t1 : f32

      %v16_p3_y_w = arith.extui %v16_x2 : i16 to i32
      %v16_p3_y_c16 = arith.constant 16 : i32
      %v16_p3_y_s = arith.shli %v16_p3_y_w, %v16_p3_y_c16 : i32
      %v16_p3_y = arith.bitcast %v16_p3_y_s : i32 to f32

      %v16_p3 = arith.addf %v16_p2_r, %v16_p3_y : f32
      %v16_p4_b = arith.bitcast %v16_p3 : f32 to i32
      %v16_p4_b16 = arith.constant 16 : i32
      %v16_p4_b1 = arith.constant 1 : i32
      %v16_p4_bias = arith.constant 32767 : i32
      %v16_p4_bh = arith.shrui %v16_p4_b, %v16_p4_b16 : i32
      %v16_p4_blsb = arith.andi %v16_p4_bh, %v16_p4_b1 : i32
      %v16_p4_br0 = arith.addi %v16_p4_b, %v16_p4_bias : i32
      %v16_p4_br1 = arith.addi %v16_p4_br0, %v16_p4_blsb : i32
      %v16_p4_br2 = arith.shrui %v16_p4_br1, %v16_p4_b16 : i32
      %v16_p4_nan = arith.constant 32704 : i32
      %v16_p4_ord = arith.cmpf ord, %v16_p3, %v16_p3 : f32
      %v16_p4_br3 = arith.select %v16_p4_ord, %v16_p4_br2, %v16_p4_nan : i32
      %v16_p4 = arith.trunci %v16_p4_br3 : i32 to i16

      linalg.yield %v16_p4 : i16
    } -> tensor<1x28x28x1x64xi16>
    %v17 = tensor.collapse_shape %v16 [[0], [1], [2], [3, 4]] : tensor<1x28x28x1x64xi16> into tensor<1x28x28x64xi16>

    %v18 = tensor.collapse_shape %v17 [[0, 1, 2, 3]] : tensor<1x28x28x64xi16> into tensor<50176xi16>

    %v19 = tensor.bitcast %v18 : tensor<50176xi16> to !src_dst_buf

    return %v19 : !src_dst_buf
}
