// RUN: iree-compile depthwise_layout_speed.mlir --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host -o /tmp/dwp.vmfb && iree-benchmark-module --device=local-sync --module=/tmp/dwp.vmfb --function=nchw --input=1x144x58x58xf32=1 --input=144x3x3xf32=1 && iree-benchmark-module --device=local-sync --module=/tmp/dwp.vmfb --function=nhwc --input=1x58x58x144xf32=1 --input=3x3x144xf32=1
// g144 56x56 3x3 f32 depthwise, source pre-padded: the named NCHW op and the named NHWC op
func.func @nchw(%x: tensor<1x144x58x58xf32>, %w: tensor<144x3x3xf32>) -> tensor<1x144x56x56xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x144x56x56xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<1x144x56x56xf32>) -> tensor<1x144x56x56xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw ins(%x, %w : tensor<1x144x58x58xf32>, tensor<144x3x3xf32>)
      outs(%acc : tensor<1x144x56x56xf32>) -> tensor<1x144x56x56xf32>
  return %y : tensor<1x144x56x56xf32>
}
func.func @nhwc(%x: tensor<1x58x58x144xf32>, %w: tensor<3x3x144xf32>) -> tensor<1x56x56x144xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x56x56x144xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<1x56x56x144xf32>) -> tensor<1x56x56x144xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc ins(%x, %w : tensor<1x58x58x144xf32>, tensor<3x3x144xf32>)
      outs(%acc : tensor<1x56x56x144xf32>) -> tensor<1x56x56x144xf32>
  return %y : tensor<1x56x56x144xf32>
}
