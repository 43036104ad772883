// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<50176xi8>
!wei_buf = tensor<36864xi8>
!wei_prepared = tensor<1x576x64xi32>
!bias = tensor<64xf32>

func.func @conv_im2col__mb1ic64ih28oc64oh28kh3ph1__u8_acdb__s8_abcd__u8_acdb__bias__scale_src_common__scale_wei_per_oc__scale_dst_common__zp_src_common__zp_dst_common__sum_1_3__relu_0_0_1_prepare(%wei: !wei_buf) -> (!wei_prepared, tensor<1x64x9xi32>) {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3]] output_shape [64, 64, 3, 3] : !wei_buf into tensor<64x64x3x3xi8>

    %w2 = tensor.expand_shape %w1 [[0, 1], [2], [3], [4]] output_shape [1, 64, 64, 3, 3] : tensor<64x64x3x3xi8> into tensor<1x64x64x3x3xi8>

    %w3 = tensor.collapse_shape %w2 [[0], [1], [2], [3, 4]] : tensor<1x64x64x3x3xi8> into tensor<1x64x64x9xi8>

    %w4_z = arith.constant 0 : i32
    %w4_e = tensor.empty() : tensor<1x64x9xi32>
    %w4_acc = linalg.fill ins(%w4_z : i32) outs(%w4_e : tensor<1x64x9xi32>) -> tensor<1x64x9xi32>
    %w4 = linalg.generic {indexing_maps = [affine_map<(g, oc, k, c) -> (g, oc, c, k)>, affine_map<(g, oc, k, c) -> (g, oc, k)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
        ins(%w3 : tensor<1x64x64x9xi8>) outs(%w4_acc : tensor<1x64x9xi32>) {
    ^bb0(%w4_w: i8, %w4_a: i32):
      %w4_we = arith.extsi %w4_w : i8 to i32
      %w4_s = arith.addi %w4_a, %w4_we : i32
      linalg.yield %w4_s : i32
    } -> tensor<1x64x9xi32>
    %w5_e = tensor.empty() : tensor<1x64x64x3x3xi32>
    %w5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%w2 : tensor<1x64x64x3x3xi8>) outs(%w5_e : tensor<1x64x64x3x3xi32>) {
    ^bb0(%w5_a: i8, %w5_out: i32):
      %w5_w = arith.extsi %w5_a : i8 to i32
      %w5_lo = arith.constant -2147483648 : i32
      %w5_hi = arith.constant 2147483647 : i32
      %w5_c1 = arith.maxsi %w5_w, %w5_lo : i32
      %w5_c2 = arith.minsi %w5_c1, %w5_hi : i32
      linalg.yield %w5_c2 : i32
    } -> tensor<1x64x64x3x3xi32>


    %w6_e = tensor.empty() : tensor<1x3x3x64x64xi32>
    %w6 = linalg.transpose ins(%w5 : tensor<1x64x64x3x3xi32>) outs(%w6_e : tensor<1x3x3x64x64xi32>) permutation = [0, 3, 4, 2, 1]

    %w7 = tensor.collapse_shape %w6 [[0], [1, 2, 3], [4]] : tensor<1x3x3x64x64xi32> into !wei_prepared

    return %w7, %w4 : !wei_prepared, tensor<1x64x9xi32>
}

func.func @conv_im2col__mb1ic64ih28oc64oh28kh3ph1__u8_acdb__s8_abcd__u8_acdb__bias__scale_src_common__scale_wei_per_oc__scale_dst_common__zp_src_common__zp_dst_common__sum_1_3__relu_0_0_1(%src: !src_dst_buf, %w: !wei_prepared, %wref: tensor<1x64x9xi32>, %bias: !bias, %src_scale: tensor<f32>, %wei_scale: !bias, %dst_scale: tensor<f32>, %src_zp: tensor<i32>, %dst_zp: tensor<i32>, %dst_init: !src_dst_buf) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3]] output_shape [1, 28, 28, 64] : !src_dst_buf into tensor<1x28x28x64xi8>

    %v2_z = arith.constant 0 : i8
    %v2 = tensor.pad %v1 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%v2_i0: index, %v2_i1: index, %v2_i2: index, %v2_i3: index):
      tensor.yield %v2_z : i8
    } : tensor<1x28x28x64xi8> to tensor<1x30x30x64xi8>

    %v3 = tensor.expand_shape %v2 [[0], [1], [2], [3, 4]] output_shape [1, 30, 30, 1, 64] : tensor<1x30x30x64xi8> into tensor<1x30x30x1x64xi8>

    %v4_e = tensor.empty() : tensor<1x30x30x1x64xi32>
    %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v3 : tensor<1x30x30x1x64xi8>) outs(%v4_e : tensor<1x30x30x1x64xi32>) {
    ^bb0(%v4_a: i8, %v4_out: i32):
      %v4_w = arith.extui %v4_a : i8 to i32
      %v4_lo = arith.constant -2147483648 : i32
      %v4_hi = arith.constant 2147483647 : i32
      %v4_c1 = arith.maxsi %v4_w, %v4_lo : i32
      %v4_c2 = arith.minsi %v4_c1, %v4_hi : i32
      linalg.yield %v4_c2 : i32
    } -> tensor<1x30x30x1x64xi32>


    %v5 = util.optimization_barrier %v4 : tensor<1x30x30x1x64xi32>
    %v6_e = tensor.empty() : tensor<1x28x28x1x3x3x64xi32>
    %v6 = linalg.generic {indexing_maps = [affine_map<(n, o0, o1, g, k0, k1, ic) -> (n, o0 * 1 + k0 * 1, o1 * 1 + k1 * 1, g, ic)>, affine_map<(n, o0, o1, g, k0, k1, ic) -> (n, o0, o1, g, k0, k1, ic)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v5 : tensor<1x30x30x1x64xi32>) outs(%v6_e : tensor<1x28x28x1x3x3x64xi32>) {
    ^bb0(%v6_x: i32, %v6_y: i32):
      linalg.yield %v6_x : i32
    } -> tensor<1x28x28x1x3x3x64xi32>
    %v7 = util.optimization_barrier %v6 : tensor<1x28x28x1x3x3x64xi32>
    %v8 = tensor.collapse_shape %v7 [[0], [1, 2], [3], [4, 5, 6]] : tensor<1x28x28x1x3x3x64xi32> into tensor<1x784x1x576xi32>

    %v9_z = arith.constant 0 : i32
    %v9_e = tensor.empty() : tensor<1x784x1x64xi32>
    %v9_acc = linalg.fill ins(%v9_z : i32) outs(%v9_e : tensor<1x784x1x64xi32>) -> tensor<1x784x1x64xi32>
    %v9 = linalg.generic {indexing_maps = [affine_map<(n, o, g, oc, r) -> (n, o, g, r)>, affine_map<(n, o, g, oc, r) -> (g, r, oc)>, affine_map<(n, o, g, oc, r) -> (n, o, g, oc)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v8, %w : tensor<1x784x1x576xi32>, !wei_prepared) outs(%v9_acc : tensor<1x784x1x64xi32>) {
    ^bb0(%v9_x: i32, %v9_w: i32, %v9_a: i32):
      %v9_m = arith.muli %v9_x, %v9_w : i32
      %v9_s = arith.addi %v9_a, %v9_m : i32
      linalg.yield %v9_s : i32
    } -> tensor<1x784x1x64xi32>
    %v10 = tensor.expand_shape %v9 [[0], [1, 2], [3], [4]] output_shape [1, 28, 28, 1, 64] : tensor<1x784x1x64xi32> into tensor<1x28x28x1x64xi32>

    %v11_e = tensor.empty() : tensor<1x64x9xi32>
    %v11 = linalg.generic {indexing_maps = [affine_map<(g, oc, k) -> (g, oc, k)>, affine_map<(g, oc, k) -> ()>, affine_map<(g, oc, k) -> (g, oc, k)>], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%wref, %src_zp : tensor<1x64x9xi32>, tensor<i32>) outs(%v11_e : tensor<1x64x9xi32>) {
    ^bb0(%v11_ws: i32, %v11_zs: i32, %v11_y: i32):
      %v11_m = arith.muli %v11_ws, %v11_zs : i32
      linalg.yield %v11_m : i32
    } -> tensor<1x64x9xi32>
    %v12 = tensor.expand_shape %v11 [[0], [1], [2, 3]] output_shape [1, 64, 3, 3] : tensor<1x64x9xi32> into tensor<1x64x3x3xi32>

    %v13 = arith.constant dense<"0x000000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000000000000"> : tensor<28x3xi32>
    %v14 = arith.constant dense<"0x000000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000001000000010000000100000000000000"> : tensor<28x3xi32>
    %v15_t1_z = arith.constant 0 : i32
    %v15_t1_e = tensor.empty() : tensor<1x64x3x28xi32>
    %v15_t1_acc = linalg.fill ins(%v15_t1_z : i32) outs(%v15_t1_e : tensor<1x64x3x28xi32>) -> tensor<1x64x3x28xi32>
    %v15_t1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, k) -> (d0, d1, d2, k)>, affine_map<(d0, d1, d2, d3, k) -> (d3, k)>, affine_map<(d0, d1, d2, d3, k) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v12, %v14 : tensor<1x64x3x3xi32>, tensor<28x3xi32>) outs(%v15_t1_acc : tensor<1x64x3x28xi32>) {
    ^bb0(%v15_t1_w: i32, %v15_t1_m: i32, %v15_t1_a: i32):
      %v15_t1_p = arith.muli %v15_t1_w, %v15_t1_m : i32
      %v15_t1_s = arith.addi %v15_t1_a, %v15_t1_p : i32
      linalg.yield %v15_t1_s : i32
    } -> tensor<1x64x3x28xi32>
    %v15_z = arith.constant 0 : i32
    %v15_e = tensor.empty() : tensor<1x64x28x28xi32>
    %v15_acc = linalg.fill ins(%v15_z : i32) outs(%v15_e : tensor<1x64x28x28xi32>) -> tensor<1x64x28x28xi32>
    %v15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, k) -> (d0, d1, k, d3)>, affine_map<(d0, d1, d2, d3, k) -> (d2, k)>, affine_map<(d0, d1, d2, d3, k) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v15_t1, %v13 : tensor<1x64x3x28xi32>, tensor<28x3xi32>) outs(%v15_acc : tensor<1x64x28x28xi32>) {
    ^bb0(%v15_w: i32, %v15_m: i32, %v15_a: i32):
      %v15_p = arith.muli %v15_w, %v15_m : i32
      %v15_s = arith.addi %v15_a, %v15_p : i32
      linalg.yield %v15_s : i32
    } -> tensor<1x64x28x28xi32>
    %v16_e = tensor.empty() : tensor<1x1x64x28x28xi32>
    %v16 = linalg.generic {indexing_maps = [affine_map<(n, g, oc, o0, o1) -> (g, oc, o0, o1)>, affine_map<(n, g, oc, o0, o1) -> (n, g, oc, o0, o1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v15 : tensor<1x64x28x28xi32>) outs(%v16_e : tensor<1x1x64x28x28xi32>) {
    ^bb0(%v16_t0: i32, %v16_y: i32):
      linalg.yield %v16_t0 : i32
    } -> tensor<1x1x64x28x28xi32>
    %v17 = tensor.collapse_shape %v16 [[0], [1, 2], [3], [4]] : tensor<1x1x64x28x28xi32> into tensor<1x64x28x28xi32>

    %v18_e = tensor.empty() : tensor<1x28x28x64xi32>
    %v18 = linalg.transpose ins(%v17 : tensor<1x64x28x28xi32>) outs(%v18_e : tensor<1x28x28x64xi32>) permutation = [0, 2, 3, 1]

    %v19 = tensor.expand_shape %v18 [[0], [1], [2], [3, 4]] output_shape [1, 28, 28, 1, 64] : tensor<1x28x28x64xi32> into tensor<1x28x28x1x64xi32>

    %v20 = tensor.expand_shape %wei_scale [[0, 1]] output_shape [1, 64] : !bias into tensor<1x64xf32>

    %v21 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 64] : !bias into tensor<1x64xf32>

    %v22 = tensor.expand_shape %dst_init [[0, 1, 2, 3]] output_shape [1, 28, 28, 64] : !src_dst_buf into tensor<1x28x28x64xi8>

    %v23 = tensor.expand_shape %v22 [[0], [1], [2], [3, 4]] output_shape [1, 28, 28, 1, 64] : tensor<1x28x28x64xi8> into tensor<1x28x28x1x64xi8>

    %v24_e = tensor.empty() : tensor<1x28x28x1x64xi8>
    %v24 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v10, %v19, %src_scale, %v20, %v21, %v23, %dst_scale, %dst_zp : tensor<1x28x28x1x64xi32>, tensor<1x28x28x1x64xi32>, tensor<f32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x28x28x1x64xi8>, tensor<f32>, tensor<i32>) outs(%v24_e : tensor<1x28x28x1x64xi8>) {
    ^bb0(%v24_a: i32, %v24_x0: i32, %v24_x1: f32, %v24_x2: f32, %v24_x3: f32, %v24_x4: i8, %v24_x5: f32, %v24_x6: i32, %v24_out: i8):
      %v24_p0 = arith.subi %v24_a, %v24_x0 : i32
      %v24_p1 = arith.sitofp %v24_p0 : i32 to f32

      %v24_p2 = arith.mulf %v24_p1, %v24_x1 : f32

      %v24_p3 = arith.mulf %v24_p2, %v24_x2 : f32

      %v24_p4 = arith.addf %v24_p3, %v24_x3 : f32
      %v24_p5_y = arith.uitofp %v24_x4 : i8 to f32

      %v24_p5_zp = arith.constant 3.000000000e+00 : f32
      %v24_p5_yz = arith.subf %v24_p5_y, %v24_p5_zp : f32
      %v24_p5_sc = arith.constant 1.000000000e+00 : f32
      %v24_p5_ys = arith.mulf %v24_p5_yz, %v24_p5_sc : f32
      %v24_p5 = arith.addf %v24_p4, %v24_p5_ys : f32
      %v24_p6_al = arith.constant 0.000000000e+00 : f32
      %v24_p6_be = arith.constant 0.000000000e+00 : f32
      %v24_p6_0 = arith.constant 0.0 : f32
      %v24_p6_1 = arith.constant 1.0 : f32
      %v24_p6_gt = arith.cmpf ogt, %v24_p5, %v24_p6_0 : f32
      %v24_p6_ax = arith.mulf %v24_p5, %v24_p6_al : f32
      %v24_p6_r = arith.select %v24_p6_gt, %v24_p5, %v24_p6_ax : f32


      %v24_p7 = arith.divf %v24_p6_r, %v24_x5 : f32
      %v24_p8_y = arith.sitofp %v24_x6 : i32 to f32

      %v24_p8 = arith.addf %v24_p7, %v24_p8_y : f32
      %v24_p9_rn = math.roundeven %v24_p8 : f32
      %v24_p9_lo = arith.constant 0.000000000e+00 : f32
      %v24_p9_hi = arith.constant 2.550000000e+02 : f32
      %v24_p9_c1 = arith.maximumf %v24_p9_rn, %v24_p9_lo : f32
      %v24_p9_c2 = arith.minimumf %v24_p9_c1, %v24_p9_hi : f32
      %v24_p9_ord = arith.cmpf ord, %v24_p9_c2, %v24_p9_c2 : f32
      %v24_p9_f0 = arith.constant 0.0 : f32
      %v24_p9_c3 = arith.select %v24_p9_ord, %v24_p9_c2, %v24_p9_f0 : f32
      %v24_p9 = arith.fptoui %v24_p9_c3 : f32 to i8
      linalg.yield %v24_p9 : i8
    } -> tensor<1x28x28x1x64xi8>
    %v25 = tensor.collapse_shape %v24 [[0], [1], [2], [3, 4]] : tensor<1x28x28x1x64xi8> into tensor<1x28x28x64xi8>

    %v26 = tensor.collapse_shape %v25 [[0, 1, 2, 3]] : tensor<1x28x28x64xi8> into !src_dst_buf

    return %v26 : !src_dst_buf
}
