// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_buf = tensor<50176xi8>
!wei_buf = tensor<8192xi8>
!wei_prepared = tensor<1x128x64xi8>
!bias = tensor<128xf32>
!dst_buf = tensor<100352xi32>

func.func @conv_im2col__mb1ic64ih28oc128oh28kh1ph0__s8_aBcd4b__s8_abcd__s32_aBcd4b__bias_prepare(%wei: !wei_buf) -> !wei_prepared {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3]] output_shape [128, 64, 1, 1] : !wei_buf into tensor<128x64x1x1xi8>

    %w2 = tensor.expand_shape %w1 [[0, 1], [2], [3], [4]] output_shape [1, 128, 64, 1, 1] : tensor<128x64x1x1xi8> into tensor<1x128x64x1x1xi8>

    %w3 = tensor.collapse_shape %w2 [[0], [1], [2, 3, 4]] : tensor<1x128x64x1x1xi8> into !wei_prepared

    return %w3 : !wei_prepared
}

func.func @conv_im2col__mb1ic64ih28oc128oh28kh1ph0__s8_aBcd4b__s8_abcd__s32_aBcd4b__bias(%src: !src_buf, %w: !wei_prepared, %bias: !bias) -> !dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3, 4]] output_shape [1, 16, 28, 28, 4] : !src_buf into tensor<1x16x28x28x4xi8>

    %v2_e = tensor.empty() : tensor<1x64x28x28xi8>
    %v2 = linalg.unpack %v1 outer_dims_perm = [0, 1, 2, 3] inner_dims_pos = [1] inner_tiles = [4] into %v2_e : tensor<1x16x28x28x4xi8> -> tensor<1x64x28x28xi8>

    %v3 = tensor.expand_shape %v2 [[0], [1, 2], [3], [4]] output_shape [1, 1, 64, 28, 28] : tensor<1x64x28x28xi8> into tensor<1x1x64x28x28xi8>

    %v4_z = arith.constant 0 : i32
    %v4_e = tensor.empty() : tensor<1x1x128x28x28xi32>
    %v4_acc = linalg.fill ins(%v4_z : i32) outs(%v4_e : tensor<1x1x128x28x28xi32>) -> tensor<1x1x128x28x28xi32>
    %v4 = linalg.generic {indexing_maps = [affine_map<(n, g, oc, o0, o1, ic) -> (n, g, ic, o0 * 1, o1 * 1)>, affine_map<(n, g, oc, o0, o1, ic) -> (g, oc, ic)>, affine_map<(n, g, oc, o0, o1, ic) -> (n, g, oc, o0, o1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v3, %w : tensor<1x1x64x28x28xi8>, !wei_prepared) outs(%v4_acc : tensor<1x1x128x28x28xi32>) {
    ^bb0(%v4_x: i8, %v4_w: i8, %v4_a: i32):
      %v4_xe = arith.extsi %v4_x : i8 to i32
      %v4_we = arith.extsi %v4_w : i8 to i32
      %v4_m = arith.muli %v4_xe, %v4_we : i32
      %v4_s = arith.addi %v4_a, %v4_m : i32
      linalg.yield %v4_s : i32
    } -> tensor<1x1x128x28x28xi32>
    %v5 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 128] : !bias into tensor<1x128xf32>

    %v6_e = tensor.empty() : tensor<1x1x128x28x28xi32>
    %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v4, %v5 : tensor<1x1x128x28x28xi32>, tensor<1x128xf32>) outs(%v6_e : tensor<1x1x128x28x28xi32>) {
    ^bb0(%v6_a: i32, %v6_b: f32, %v6_out: i32):
      %v6_f = arith.sitofp %v6_a : i32 to f32
      %v6_ab = arith.addf %v6_f, %v6_b : f32
      %v6_rn = math.roundeven %v6_ab : f32
      %v6_lo = arith.constant -2.147483648e+09 : f32
      %v6_hi = arith.constant 2.147483520e+09 : f32
      %v6_c1 = arith.maximumf %v6_rn, %v6_lo : f32
      %v6_c2 = arith.minimumf %v6_c1, %v6_hi : f32
      %v6_i = arith.fptosi %v6_c2 : f32 to i32
      linalg.yield %v6_i : i32
    } -> tensor<1x1x128x28x28xi32>
    %v7 = tensor.collapse_shape %v6 [[0], [1, 2], [3], [4]] : tensor<1x1x128x28x28xi32> into tensor<1x128x28x28xi32>

    %v8_z = arith.constant 0 : i32
    %v8_e = tensor.empty() : tensor<1x32x28x28x4xi32>
    %v8 = linalg.pack %v7 padding_value(%v8_z : i32) outer_dims_perm = [0, 1, 2, 3] inner_dims_pos = [1] inner_tiles = [4] into %v8_e : tensor<1x128x28x28xi32> -> tensor<1x32x28x28x4xi32>

    %v9 = tensor.collapse_shape %v8 [[0, 1, 2, 3, 4]] : tensor<1x32x28x28x4xi32> into !dst_buf

    return %v9 : !dst_buf
}
