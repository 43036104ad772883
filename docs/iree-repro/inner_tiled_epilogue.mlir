// RUN: iree-compile inner_tiled_epilogue.mlir --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host --iree-opt-data-tiling --iree-llvmcpu-enable-ukernels=all --iree-llvmcpu-enable-inner-tiled -o /dev/null
// u8 x s8 -> i32 GEMM, then a per-column scale (a broadcast operand) fused after it
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>
func.func @gemm(%a: tensor<256x64xi8>, %b: tensor<64x64xi8>, %scale: tensor<64xf32>) -> tensor<256x64xf32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<256x64xi32>
  %acc = linalg.fill ins(%z : i32) outs(%e : tensor<256x64xi32>) -> tensor<256x64xi32>
  %y = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<256x64xi8>, tensor<64x64xi8>) outs(%acc : tensor<256x64xi32>) {
  ^bb0(%x: i8, %w: i8, %o: i32):
    %x32 = arith.extui %x : i8 to i32
    %w32 = arith.extsi %w : i8 to i32
    %m = arith.muli %x32, %w32 : i32
    %s = arith.addi %o, %m : i32
    linalg.yield %s : i32
  } -> tensor<256x64xi32>
  // kgen (acc_apart): %yb = util.optimization_barrier %y, and the epilogue reads %yb; then it compiles
  %e2 = tensor.empty() : tensor<256x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
      iterator_types = ["parallel", "parallel"]} ins(%y, %scale : tensor<256x64xi32>, tensor<64xf32>) outs(%e2 : tensor<256x64xf32>) {
  ^bb0(%v: i32, %sc: f32, %o: f32):
    %f = arith.sitofp %v : i32 to f32
    %q = arith.mulf %f, %sc : f32
    linalg.yield %q : f32
  } -> tensor<256x64xf32>
  return %r : tensor<256x64xf32>
}
