// RUN: iree-compile mmt4d_full_register_tile.mlir --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=haswell -o /tmp/mmt4d.vmfb && iree-run-module --device=local-sync --module=/tmp/mmt4d.vmfb --function=mmt4d "--input=1x2x8x1xf32=1 2 3 4 5 6 7 8 1 1 1 1 1 1 1 1" --input=1x2x16x1xf32=1
// f32 mmt4d, M0 x N0 = 8 x 16 = 128 floats: the whole AVX2 register file (16 ymm). Row i must be i + 2 (2..9).
func.func @mmt4d(%a: tensor<1x2x8x1xf32>, %b: tensor<1x2x16x1xf32>) -> tensor<1x1x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x8x16xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<1x1x8x16xf32>) -> tensor<1x1x8x16xf32>
  %y = linalg.mmt4d ins(%a, %b : tensor<1x2x8x1xf32>, tensor<1x2x16x1xf32>) outs(%acc : tensor<1x1x8x16xf32>) -> tensor<1x1x8x16xf32>
  return %y : tensor<1x1x8x16xf32>
}
