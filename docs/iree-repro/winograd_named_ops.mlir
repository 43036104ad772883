// RUN: iree-compile winograd_named_ops.mlir --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host -o /dev/null
// Upstream linalg.winograd_filter_transform, F(2,3): 2 filters of 3x3x5 -> (4, 4, C, F)
func.func @filter(%g: tensor<2x3x3x5xf32>) -> tensor<4x4x5x2xf32> {
  %e = tensor.empty() : tensor<4x4x5x2xf32>
  %u = linalg.winograd_filter_transform fmr(F_2_3) ins(%g : tensor<2x3x3x5xf32>) outs(%e : tensor<4x4x5x2xf32>) -> tensor<4x4x5x2xf32>
  return %u : tensor<4x4x5x2xf32>
}
