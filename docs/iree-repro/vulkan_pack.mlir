// RUN: iree-compile vulkan_pack.mlir -o /dev/null
// kgen's lavapipe target (compile.backends, the vulkan row's target_attr), wrapped as compile.cache.with_target does
#t = #hal.executable.target<"vulkan-spirv", "vulkan-spirv-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "", features = "spirv:v1.6,cap:Shader", wgp = <compute = fp32|fp16|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [], subgroup_size_choices = [8], max_workgroup_sizes = [64, 64, 64], max_thread_count_per_workgroup = 64, max_workgroup_memory_bytes = 32768, max_workgroup_counts = [65535, 65535, 65535]>>}>
#dev = #hal.device.target<"vulkan", [#t]> : !hal.device
module attributes {hal.device.targets = [#dev]} {
// nchw -> nChw16c
func.func @pack(%x: tensor<1x32x8x8xf32>) -> tensor<1x2x8x8x16xf32> {
  %e = tensor.empty() : tensor<1x2x8x8x16xf32>
  %y = linalg.pack %x inner_dims_pos = [1] inner_tiles = [16] into %e : tensor<1x32x8x8xf32> -> tensor<1x2x8x8x16xf32>
  return %y : tensor<1x2x8x8x16xf32>
}
}
