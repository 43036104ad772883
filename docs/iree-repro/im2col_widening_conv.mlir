// RUN: iree-compile im2col_widening_conv.mlir --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host --iree-global-opt-use-im2col-for-convs -o /dev/null
// A named NHWC conv with widening inputs, bf16 x bf16 -> f32, 2 images (1 image, or f32, compiles)
func.func @conv(%x: tensor<2x8x8x16xbf16>, %w: tensor<3x3x16x16xbf16>) -> tensor<2x6x6x16xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x6x6x16xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<2x6x6x16xf32>) -> tensor<2x6x6x16xf32>
  %y = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<2x8x8x16xbf16>, tensor<3x3x16x16xbf16>)
      outs(%acc : tensor<2x6x6x16xf32>) -> tensor<2x6x6x16xf32>
  return %y : tensor<2x6x6x16xf32>
}
