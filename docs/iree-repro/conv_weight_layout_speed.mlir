// RUN: iree-compile conv_weight_layout_speed.mlir --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host -o /tmp/cw.vmfb && iree-benchmark-module --device=local-sync --module=/tmp/cw.vmfb --function=hwcf --input=1x58x58x64xf32=1 --input=3x3x64x64xf32=1 && iree-benchmark-module --device=local-sync --module=/tmp/cw.vmfb --function=fhwc --input=1x58x58x64xf32=1 --input=64x3x3x64xf32=1
// ic64 56x56 -> oc64 3x3 f32 NHWC, source pre-padded: weights HWCF against FHWC
func.func @hwcf(%x: tensor<1x58x58x64xf32>, %w: tensor<3x3x64x64xf32>) -> tensor<1x56x56x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x56x56x64xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %y = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>)
      outs(%acc : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  return %y : tensor<1x56x56x64xf32>
}
func.func @fhwc(%x: tensor<1x58x58x64xf32>, %w: tensor<64x3x3x64xf32>) -> tensor<1x56x56x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x56x56x64xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %y = linalg.conv_2d_nhwc_fhwc ins(%x, %w : tensor<1x58x58x64xf32>, tensor<64x3x3x64xf32>)
      outs(%acc : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  return %y : tensor<1x56x56x64xf32>
}
