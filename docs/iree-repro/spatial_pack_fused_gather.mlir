// RUN: iree-compile spatial_pack_fused_gather.mlir --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host -o /dev/null
// 1x2x10x10 input, 3x3 kernel, 4 output channels; 8x8 output cut into 2x2 tiles of 4x4 (halo'd 6x6).
#gx = affine_map<(n, c, th, tw, i, j) -> (n, c, th * 4 + i, tw * 4 + j)>
#gt = affine_map<(n, c, th, tw, i, j) -> (n, c, th, tw, i, j)>
#cx = affine_map<(n, f, th, tw, vh, vw, c, kh, kw) -> (n, c, th, tw, vh + kh, vw + kw)>
#cw = affine_map<(n, f, th, tw, vh, vw, c, kh, kw) -> (f, c, kh, kw)>
#co = affine_map<(n, f, th, tw, vh, vw, c, kh, kw) -> (n, f, th, tw, vh, vw)>
func.func @spatial_pack(%x: tensor<1x2x10x10xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x2x2x4x4xf32> {
  %e = tensor.empty() : tensor<1x2x2x2x6x6xf32>
  %tiles = linalg.generic {indexing_maps = [#gx, #gt],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x2x10x10xf32>) outs(%e : tensor<1x2x2x2x6x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x2x2x2x6x6xf32>
  // kgen's form: the conv reads %tb instead of %tiles (ins(%tb, %w ...)); then it compiles.
  %tb = util.optimization_barrier %tiles : tensor<1x2x2x2x6x6xf32>
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<1x4x2x2x4x4xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e2 : tensor<1x4x2x2x4x4xf32>) -> tensor<1x4x2x2x4x4xf32>
  %y = linalg.generic {indexing_maps = [#cx, #cw, #co],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%tiles, %w : tensor<1x2x2x2x6x6xf32>, tensor<4x2x3x3xf32>) outs(%acc : tensor<1x4x2x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x2x2x4x4xf32>
  return %y : tensor<1x4x2x2x4x4xf32>
}
