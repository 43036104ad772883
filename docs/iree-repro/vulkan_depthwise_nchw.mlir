// RUN: iree-compile vulkan_depthwise_nchw.mlir -o /tmp/dw.vmfb && iree-run-module --device=vulkan --module=/tmp/dw.vmfb --function=dw --input=1x4x6x6xf32=1 --input=4x3x3xf32=1 --expected_output=1x4x4x4xf32=9
// kgen's lavapipe target (compile.backends, the vulkan row's target_attr), wrapped as compile.cache.with_target does
// The named NCHW depthwise op, 4 channels, 3x3, for kgen's lavapipe target (every output must be 9)
#t = #hal.executable.target<"vulkan-spirv", "vulkan-spirv-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "", features = "spirv:v1.6,cap:Shader", wgp = <compute = fp32|fp16|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [], subgroup_size_choices = [8], max_workgroup_sizes = [64, 64, 64], max_thread_count_per_workgroup = 64, max_workgroup_memory_bytes = 32768, max_workgroup_counts = [65535, 65535, 65535]>>}>
#dev = #hal.device.target<"vulkan", [#t]> : !hal.device
module attributes {hal.device.targets = [#dev]} {
func.func @dw(%x: tensor<1x4x6x6xf32>, %w: tensor<4x3x3xf32>) -> tensor<1x4x4x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw
      ins(%x, %w : tensor<1x4x6x6xf32>, tensor<4x3x3xf32>) outs(%acc : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %y : tensor<1x4x4x4xf32>
}
}
