// RUN: iree-compile im2col_depthwise_batch.mlir --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host --iree-global-opt-use-im2col-for-convs -o /dev/null
// 2 images, 16 channels, 11x11 (padded 9x9) -> 9x9, 3x3 depthwise
func.func @dw(%x: tensor<2x11x11x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<2x9x9x16xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x9x9x16xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<2x9x9x16xf32>) -> tensor<2x9x9x16xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc ins(%x, %w : tensor<2x11x11x16xf32>, tensor<3x3x16xf32>)
      outs(%acc : tensor<2x9x9x16xf32>) -> tensor<2x9x9x16xf32>
  return %y : tensor<2x9x9x16xf32>
}
