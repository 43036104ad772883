// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
func.func @conv_direct__mb1ic64ih14oc64oh14kh3ph1__s8_aBcd32b__s8_abcd__s32_aBcd32b__bias__relu_prepare(%wei: tensor<36864xi8>) -> tensor<1x64x64x3x3xi8> {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3]] output_shape [64, 64, 3, 3] : tensor<36864xi8> into tensor<64x64x3x3xi8>

    %w2 = tensor.expand_shape %w1 [[0, 1], [2], [3], [4]] output_shape [1, 64, 64, 3, 3] : tensor<64x64x3x3xi8> into tensor<1x64x64x3x3xi8>

    return %w2 : tensor<1x64x64x3x3xi8>
}

func.func @conv_direct__mb1ic64ih14oc64oh14kh3ph1__s8_aBcd32b__s8_abcd__s32_aBcd32b__bias__relu(%src: tensor<12544xi8>, %w: tensor<1x64x64x3x3xi8>, %bias: tensor<64xf32>) -> tensor<12544xi32> {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3, 4]] output_shape [1, 2, 14, 14, 32] : tensor<12544xi8> into tensor<1x2x14x14x32xi8>

    %v2_e = tensor.empty() : tensor<1x2x32x14x14xi8>
    %v2 = linalg.transpose ins(%v1 : tensor<1x2x14x14x32xi8>) outs(%v2_e : tensor<1x2x32x14x14xi8>) permutation = [0, 1, 4, 2, 3]

    %v3 = tensor.collapse_shape %v2 [[0], [1, 2], [3], [4]] : tensor<1x2x32x14x14xi8> into tensor<1x64x14x14xi8>

    %v4_z = arith.constant 0 : i8
    %v4 = tensor.pad %v3 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%v4_i0: index, %v4_i1: index, %v4_i2: index, %v4_i3: index):
      tensor.yield %v4_z : i8
    } : tensor<1x64x14x14xi8> to tensor<1x64x16x16xi8>

    %v5 = tensor.expand_shape %v4 [[0], [1, 2], [3], [4]] output_shape [1, 1, 64, 16, 16] : tensor<1x64x16x16xi8> into tensor<1x1x64x16x16xi8>

    %v6_z = arith.constant 0 : i32
    %v6_e = tensor.empty() : tensor<1x1x64x14x14xi32>
    %v6_acc = linalg.fill ins(%v6_z : i32) outs(%v6_e : tensor<1x1x64x14x14xi32>) -> tensor<1x1x64x14x14xi32>
    %v6 = linalg.generic {indexing_maps = [affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (n, g, ic, o0 * 1 + k0 * 1, o1 * 1 + k1 * 1)>, affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (g, oc, ic, k0, k1)>, affine_map<(n, g, oc, o0, o1, ic, k0, k1) -> (n, g, oc, o0, o1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
        ins(%v5, %w : tensor<1x1x64x16x16xi8>, tensor<1x64x64x3x3xi8>) outs(%v6_acc : tensor<1x1x64x14x14xi32>) {
    ^bb0(%v6_x: i8, %v6_w: i8, %v6_a: i32):
      %v6_xe = arith.extsi %v6_x : i8 to i32
      %v6_we = arith.extsi %v6_w : i8 to i32
      %v6_m = arith.muli %v6_xe, %v6_we : i32
      %v6_s = arith.addi %v6_a, %v6_m : i32
      linalg.yield %v6_s : i32
    } -> tensor<1x1x64x14x14xi32>
    %v7 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 64] : tensor<64xf32> into tensor<1x64xf32>

    %v8_e = tensor.empty() : tensor<1x1x64x14x14xi32>
    %v8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
        ins(%v6, %v7 : tensor<1x1x64x14x14xi32>, tensor<1x64xf32>) outs(%v8_e : tensor<1x1x64x14x14xi32>) {
    ^bb0(%v8_a: i32, %v8_b: f32, %v8_out: i32):
      %v8_f = arith.sitofp %v8_a : i32 to f32
      %v8_ab = arith.addf %v8_f, %v8_b : f32
      %v8_zero = arith.constant 0.0 : f32
      %v8_r = arith.maximumf %v8_ab, %v8_zero : f32
      %v8_rn = math.roundeven %v8_r : f32
      %v8_lo = arith.constant -2.147483648e+09 : f32
      %v8_hi = arith.constant 2.147483520e+09 : f32
      %v8_c1 = arith.maximumf %v8_rn, %v8_lo : f32
      %v8_c2 = arith.minimumf %v8_c1, %v8_hi : f32
      %v8_i = arith.fptosi %v8_c2 : f32 to i32
      linalg.yield %v8_i : i32
    } -> tensor<1x1x64x14x14xi32>
    %v9 = tensor.collapse_shape %v8 [[0], [1, 2], [3], [4]] : tensor<1x1x64x14x14xi32> into tensor<1x64x14x14xi32>

    %v10 = tensor.expand_shape %v9 [[0], [1, 2], [3], [4]] output_shape [1, 2, 32, 14, 14] : tensor<1x64x14x14xi32> into tensor<1x2x32x14x14xi32>

    %v11_e = tensor.empty() : tensor<1x2x14x14x32xi32>
    %v11 = linalg.transpose ins(%v10 : tensor<1x2x32x14x14xi32>) outs(%v11_e : tensor<1x2x14x14x32xi32>) permutation = [0, 1, 3, 4, 2]

    %v12 = tensor.collapse_shape %v11 [[0, 1, 2, 3, 4]] : tensor<1x2x14x14x32xi32> into tensor<12544xi32>

    return %v12 : tensor<12544xi32>
}
