// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
func.func @conv_direct__mb1ic64ih28oc64oh28kh3ph1__s8_aBcd4b__s8_abcd__s32_aBcd4b__bias_prepare(%wei: tensor<36864xi8>) -> tensor<1x64x64x3x3xi8> {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3]] output_shape [64, 64, 3, 3] : tensor<36864xi8> into tensor<64x64x3x3xi8>

    %w2 = tensor.expand_shape %w1 [[0, 1], [2], [3], [4]] output_shape [1, 64, 64, 3, 3] : tensor<64x64x3x3xi8> into tensor<1x64x64x3x3xi8>

    return %w2 : tensor<1x64x64x3x3xi8>
}

func.func @conv_direct__mb1ic64ih28oc64oh28kh3ph1__s8_aBcd4b__s8_abcd__s32_aBcd4b__bias(%src: tensor<50176xi8>, %w: tensor<1x64x64x3x3xi8>, %bias: tensor<64xf32>) -> tensor<50176xi32> {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3, 4]] output_shape [1, 16, 28, 28, 4] : tensor<50176xi8> into tensor<1x16x28x28x4xi8>

    %v2_e = tensor.empty() : tensor<1x64x28x28xi8>
    %v2 = linalg.unpack %v1 outer_dims_perm = [0, 1, 2, 3] inner_dims_pos = [1] inner_tiles = [4] into %v2_e : tensor<1x16x28x28x4xi8> -> tensor<1x64x28x28xi8>

    %v3_z = arith.constant 0 : i8
    %v3 = tensor.pad %v2 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%v3_i0: index, %v3_i1: index, %v3_i2: index, %v3_i3: index):
      tensor.yield %v3_z : i8
    } : tensor<1x64x28x28xi8> to tensor<1x64x30x30xi8>

    %v4 = tensor.expand_shape %v3 [[0], [1, 2], [3], [4]] output_shape [1, 1, 64, 30, 30] : tensor<1x64x30x30xi8> into tensor<1x1x64x30x30xi8>

    %v5_z = arith.constant 0 : i32
    %v5_e = tensor.empty() : tensor<1x1x64x28x28xi32>
    %v5_acc = linalg.fill ins(%v5_z : i32) outs(%v5_e : tensor<1x1x64x28x28xi32>) -> tensor<1x1x64x28x28xi32>
    %v5 = linalg.generic {indexing_maps = [affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (n, g, ic, o0 * 1 + k0 * 1, o1 * 1 + k1 * 1)>, affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (g, oc, ic, k0, k1)>, affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (n, g, oc, o0, o1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
        ins(%v4, %w : tensor<1x1x64x30x30xi8>, tensor<1x64x64x3x3xi8>) outs(%v5_acc : tensor<1x1x64x28x28xi32>) {
    ^bb0(%v5_x: i8, %v5_w: i8, %v5_a: i32):
      %v5_xe = arith.extsi %v5_x : i8 to i32
      %v5_we = arith.extsi %v5_w : i8 to i32
      %v5_m = arith.muli %v5_xe, %v5_we : i32
      %v5_s = arith.addi %v5_a, %v5_m : i32
      linalg.yield %v5_s : i32
    } -> tensor<1x1x64x28x28xi32>
    %v6 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 64] : tensor<64xf32> into tensor<1x64xf32>

    %v7_e = tensor.empty() : tensor<1x1x64x28x28xi32>
    %v7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v5, %v6 : tensor<1x1x64x28x28xi32>, tensor<1x64xf32>) outs(%v7_e : tensor<1x1x64x28x28xi32>) {
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
    } -> tensor<1x1x64x28x28xi32>
    %v8 = tensor.collapse_shape %v7 [[0], [1, 2], [3], [4]] : tensor<1x1x64x28x28xi32> into tensor<1x64x28x28xi32>

    %v9_z = arith.constant 0 : i32
    %v9_e = tensor.empty() : tensor<1x16x28x28x4xi32>
    %v9 = linalg.pack %v8 padding_value(%v9_z : i32) outer_dims_perm = [0, 1, 2, 3] inner_dims_pos = [1] inner_tiles = [4] into %v9_e : tensor<1x64x28x28xi32> -> tensor<1x16x28x28x4xi32>

    %v10 = tensor.collapse_shape %v9 [[0, 1, 2, 3, 4]] : tensor<1x16x28x28x4xi32> into tensor<50176xi32>

    return %v10 : tensor<50176xi32>
}
