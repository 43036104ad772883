// RUN: iree-compile nchwc_conv_ukernel.mlir --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host --iree-dispatch-creation-data-tiling --iree-dispatch-creation-experimental-set-data-tiling-ops=matmul --iree-dispatch-creation-experimental-set-data-tiling-ops=convolution --iree-llvmcpu-enable-ukernels=all --iree-hal-dump-executable-intermediates-to=/tmp/nchwc -o /dev/null && grep -o -m1 'iree_uk_conv_nchwc_tile_[a-z0-9_]*' /tmp/nchwc/*.ll
// f32 2D NCHW conv, 32 -> 32 channels, 3x3 (the dtconv+uk flag set)
func.func @conv(%x: tensor<1x32x16x16xf32>, %w: tensor<32x32x3x3xf32>) -> tensor<1x32x14x14xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x14x14xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<1x32x14x14xf32>) -> tensor<1x32x14x14xf32>
  %y = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x32x16x16xf32>, tensor<32x32x3x3xf32>)
      outs(%acc : tensor<1x32x14x14xf32>) -> tensor<1x32x14x14xf32>
  return %y : tensor<1x32x14x14xf32>
}
