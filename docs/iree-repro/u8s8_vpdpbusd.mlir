// RUN: iree-compile u8s8_vpdpbusd.mlir --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host --iree-opt-data-tiling --iree-llvmcpu-enable-ukernels=all --iree-llvmcpu-enable-inner-tiled --iree-hal-dump-executable-intermediates-to=/tmp/u8s8 -o /dev/null && grep -c vpdpbusd /tmp/u8s8/*.s
// u8 x s8 -> i32 GEMM written as kgen writes it: arith.extui on the u8 operand, arith.extsi on the s8 one
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>
func.func @gemm(%a: tensor<256x64xi8>, %b: tensor<64x64xi8>) -> tensor<256x64xi32> {
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
  return %y : tensor<256x64xi32>
}
