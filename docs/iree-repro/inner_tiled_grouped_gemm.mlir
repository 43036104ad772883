// RUN: iree-compile inner_tiled_grouped_gemm.mlir --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host --iree-opt-data-tiling --iree-llvmcpu-enable-ukernels=all --iree-llvmcpu-enable-inner-tiled -o /dev/null
// grouped im2col GEMM: 2 groups of u8 x s8 -> i32
func.func @ggemm(%a: tensor<2x256x32xi8>, %b: tensor<2x32x32xi8>) -> tensor<2x256x32xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2x256x32xi32>
  %acc = linalg.fill ins(%z : i32) outs(%e : tensor<2x256x32xi32>) -> tensor<2x256x32xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(g, m, n, k) -> (g, m, k)>, affine_map<(g, m, n, k) -> (g, k, n)>, affine_map<(g, m, n, k) -> (g, m, n)>],
      iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<2x256x32xi8>, tensor<2x32x32xi8>) outs(%acc : tensor<2x256x32xi32>) {
  ^bb0(%x: i8, %w: i8, %o: i32):
    %x32 = arith.extui %x : i8 to i32
    %w32 = arith.extsi %w : i8 to i32
    %m = arith.muli %x32, %w32 : i32
    %s = arith.addi %o, %m : i32
    linalg.yield %s : i32
  } -> tensor<2x256x32xi32>
  return %y : tensor<2x256x32xi32>
}
