// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_buf = tensor<50176xi8>
!wei_buf = tensor<8192xi8>
!wei_prepared = tensor<1x128x64xi32>
!bias = tensor<128xf32>
!dst_buf = tensor<100352xi32>

func.func @conv_im2col__mb1ic64ih28oc128oh28kh1ph0__s8_aBcd4b__s8_abcd__s32_aBcd4b__bias_prepare(%wei: !wei_buf) -> !wei_prepared {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3]] output_shape [128, 64, 1, 1] : !wei_buf into tensor<128x64x1x1xi8>

    %w2 = tensor.expand_shape %w1 [[0, 1], [2], [3], [4]] output_shape [1, 128, 64, 1, 1] : tensor<128x64x1x1xi8> into tensor<1x128x64x1x1xi8>

    %w3_e = tensor.empty() : tensor<1x128x64x1x1xi32>
    %w3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%w2 : tensor<1x128x64x1x1xi8>) outs(%w3_e : tensor<1x128x64x1x1xi32>) {
    ^bb0(%w3_a: i8, %w3_out: i32):
      %w3_w = arith.extsi %w3_a : i8 to i32
      %w3_lo = arith.constant -2147483648 : i32
      %w3_hi = arith.constant 2147483647 : i32
      %w3_c1 = arith.maxsi %w3_w, %w3_lo : i32
      %w3_c2 = arith.minsi %w3_c1, %w3_hi : i32
      linalg.yield %w3_c2 : i32
    } -> tensor<1x128x64x1x1xi32>


    %w4 = tensor.collapse_shape %w3 [[0], [1], [2, 3, 4]] : tensor<1x128x64x1x1xi32> into !wei_prepared

    return %w4 : !wei_prepared
}

func.func @conv_im2col__mb1ic64ih28oc128oh28kh1ph0__s8_aBcd4b__s8_abcd__s32_aBcd4b__bias(%src: !src_buf, %w: !wei_prepared, %bias: !bias) -> !dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3, 4]] output_shape [1, 16, 28, 28, 4] : !src_buf into tensor<1x16x28x28x4xi8>

    %v2_e = tensor.empty() : tensor<1x16x4x28x28xi8>
    %v2 = linalg.transpose ins(%v1 : tensor<1x16x28x28x4xi8>) outs(%v2_e : tensor<1x16x4x28x28xi8>) permutation = [0, 1, 4, 2, 3]

    %v3 = tensor.collapse_shape %v2 [[0], [1, 2], [3], [4]] : tensor<1x16x4x28x28xi8> into tensor<1x64x28x28xi8>

    %v4 = tensor.expand_shape %v3 [[0], [1, 2], [3], [4]] output_shape [1, 1, 64, 28, 28] : tensor<1x64x28x28xi8> into tensor<1x1x64x28x28xi8>

    %v5_e = tensor.empty() : tensor<1x1x64x28x28xi32>
    %v5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v4 : tensor<1x1x64x28x28xi8>) outs(%v5_e : tensor<1x1x64x28x28xi32>) {
    ^bb0(%v5_a: i8, %v5_out: i32):
      %v5_w = arith.extsi %v5_a : i8 to i32
      %v5_lo = arith.constant -2147483648 : i32
      %v5_hi = arith.constant 2147483647 : i32
      %v5_c1 = arith.maxsi %v5_w, %v5_lo : i32
      %v5_c2 = arith.minsi %v5_c1, %v5_hi : i32
      linalg.yield %v5_c2 : i32
    } -> tensor<1x1x64x28x28xi32>


    %v6 = util.optimization_barrier %v5 : tensor<1x1x64x28x28xi32>
    %v7_z = arith.constant 0 : i32
    %v7_e = tensor.empty() : tensor<1x1x128x28x28xi32>
    %v7_acc = linalg.fill ins(%v7_z : i32) outs(%v7_e : tensor<1x1x128x28x28xi32>) -> tensor<1x1x128x28x28xi32>
    %v7 = linalg.generic {indexing_maps = [affine_map<(n, g, oc, o0, o1, ic) -> (n, g, ic, o0 * 1, o1 * 1)>, affine_map<(n, g, oc, o0, o1, ic) -> (g, oc, ic)>, affine_map<(n, g, oc, o0, o1, ic) -> (n, g, oc, o0, o1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%v6, %w : tensor<1x1x64x28x28xi32>, !wei_prepared) outs(%v7_acc : tensor<1x1x128x28x28xi32>) {
    ^bb0(%v7_x: i32, %v7_w: i32, %v7_a: i32):
      %v7_m = arith.muli %v7_x, %v7_w : i32
      %v7_s = arith.addi %v7_a, %v7_m : i32
      linalg.yield %v7_s : i32
    } -> tensor<1x1x128x28x28xi32>
    %v8 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 128] : !bias into tensor<1x128xf32>

    %v9_e = tensor.empty() : tensor<1x1x128x28x28xi32>
    %v9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v7, %v8 : tensor<1x1x128x28x28xi32>, tensor<1x128xf32>) outs(%v9_e : tensor<1x1x128x28x28xi32>) {
    ^bb0(%v9_a: i32, %v9_b: f32, %v9_out: i32):
      %v9_f = arith.sitofp %v9_a : i32 to f32
      %v9_ab = arith.addf %v9_f, %v9_b : f32
      %v9_rn = math.roundeven %v9_ab : f32
      %v9_lo = arith.constant -2.147483648e+09 : f32
      %v9_hi = arith.constant 2.147483520e+09 : f32
      %v9_c1 = arith.maximumf %v9_rn, %v9_lo : f32
      %v9_c2 = arith.minimumf %v9_c1, %v9_hi : f32
      %v9_i = arith.fptosi %v9_c2 : f32 to i32
      linalg.yield %v9_i : i32
    } -> tensor<1x1x128x28x28xi32>
    %v10 = tensor.collapse_shape %v9 [[0], [1, 2], [3], [4]] : tensor<1x1x128x28x28xi32> into tensor<1x128x28x28xi32>

    %v11 = tensor.expand_shape %v10 [[0], [1, 2], [3], [4]] output_shape [1, 32, 4, 28, 28] : tensor<1x128x28x28xi32> into tensor<1x32x4x28x28xi32>

    %v12_e = tensor.empty() : tensor<1x32x28x28x4xi32>
    %v12 = linalg.transpose ins(%v11 : tensor<1x32x4x28x28xi32>) outs(%v12_e : tensor<1x32x28x28x4xi32>) permutation = [0, 1, 3, 4, 2]

    %v13 = tensor.collapse_shape %v12 [[0, 1, 2, 3, 4]] : tensor<1x32x28x28x4xi32> into !dst_buf

    return %v13 : !dst_buf
}
