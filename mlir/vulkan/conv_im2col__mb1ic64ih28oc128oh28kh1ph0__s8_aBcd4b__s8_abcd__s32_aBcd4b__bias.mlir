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

    %v2_e = tensor.empty() : tensor<1x16x4x28x28xi8>
    %v2 = linalg.transpose ins(%v1 : tensor<1x16x28x28x4xi8>) outs(%v2_e : tensor<1x16x4x28x28xi8>) permutation = [0, 1, 4, 2, 3]

    %v3 = tensor.collapse_shape %v2 [[0], [1, 2], [3], [4]] : tensor<1x16x4x28x28xi8> into tensor<1x64x28x28xi8>

    %v4 = tensor.expand_shape %v3 [[0], [1, 2], [3], [4]] output_shape [1, 1, 64, 28, 28] : tensor<1x64x28x28xi8> into tensor<1x1x64x28x28xi8>

    %v5_z = arith.constant 0 : i32
    %v5_e = tensor.empty() : tensor<1x1x128x28x28xi32>
    %v5_acc = linalg.fill ins(%v5_z : i32) outs(%v5_e : tensor<1x1x128x28x28xi32>) -> tensor<1x1x128x28x28xi32>
    %v5 = linalg.generic {indexing_maps = [affine_map<(n, g, oc, o0, o1, ic) -> (n, g, ic, o0 * 1, o1 * 1)>, affine_map<(n, g, oc, o0, o1, ic) -> (g, oc, ic)>, affine_map<(n, g, oc, o0, o1, ic) -> (n, g, oc, o0, o1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v4, %w : tensor<1x1x64x28x28xi8>, !wei_prepared) outs(%v5_acc : tensor<1x1x128x28x28xi32>) {
    ^bb0(%v5_x: i8, %v5_w: i8, %v5_a: i32):
      %v5_xe = arith.extsi %v5_x : i8 to i32
      %v5_we = arith.extsi %v5_w : i8 to i32
      %v5_m = arith.muli %v5_xe, %v5_we : i32
      %v5_s = arith.addi %v5_a, %v5_m : i32
      linalg.yield %v5_s : i32
    } -> tensor<1x1x128x28x28xi32>
    %v6 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 128] : !bias into tensor<1x128xf32>

    %v7_e = tensor.empty() : tensor<1x1x128x28x28xi32>
    %v7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v5, %v6 : tensor<1x1x128x28x28xi32>, tensor<1x128xf32>) outs(%v7_e : tensor<1x1x128x28x28xi32>) {
    ^bb0(%v7_a: i32, %v7_b: f32, %v7_out: i32):
      %v7_f = arith.sitofp %v7_a : i32 to f32
      %v7_ab = arith.addf %v7_f, %v7_b : f32
      %v7_rn = math.roundeven %v7_ab : f32
      %v7_lo = arith.constant -2.147483648e+09 : f32
      %v7_hi = arith.constant 2.147483520e+09 : f32
      %v7_c1 = arith.maximumf %v7_rn, %v7_lo : f32
      %v7_c2 = arith.minimumf %v7_c1, %v7_hi : f32
      %v7_i = arith.fptosi %v7_c2 : f32 to i32
      linalg.yield %v7_i : i32
    } -> tensor<1x1x128x28x28xi32>
    %v8 = tensor.collapse_shape %v7 [[0], [1, 2], [3], [4]] : tensor<1x1x128x28x28xi32> into tensor<1x128x28x28xi32>

    %v9 = tensor.expand_shape %v8 [[0], [1, 2], [3], [4]] output_shape [1, 32, 4, 28, 28] : tensor<1x128x28x28xi32> into tensor<1x32x4x28x28xi32>

    %v10_e = tensor.empty() : tensor<1x32x28x28x4xi32>
    %v10 = linalg.transpose ins(%v9 : tensor<1x32x4x28x28xi32>) outs(%v10_e : tensor<1x32x28x28x4xi32>) permutation = [0, 1, 3, 4, 2]

    %v11 = tensor.collapse_shape %v10 [[0, 1, 2, 3, 4]] : tensor<1x32x28x28x4xi32> into !dst_buf

    return %v11 : !dst_buf
}
