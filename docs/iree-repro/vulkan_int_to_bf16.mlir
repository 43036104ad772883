// RUN: iree-compile vulkan_int_to_bf16.mlir -o /dev/null
// kgen's lavapipe target (compile.backends, the vulkan row's target_attr), wrapped as compile.cache.with_target does
#t = #hal.executable.target<"vulkan-spirv", "vulkan-spirv-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "", features = "spirv:v1.6,cap:Shader", wgp = <compute = fp32|fp16|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [], subgroup_size_choices = [8], max_workgroup_sizes = [64, 64, 64], max_thread_count_per_workgroup = 64, max_workgroup_memory_bytes = 32768, max_workgroup_counts = [65535, 65535, 65535]>>}>
#dev = #hal.device.target<"vulkan", [#t]> : !hal.device
module attributes {hal.device.targets = [#dev]} {
// an i32 accumulator converted to a bf16 result: sitofp then truncf
func.func @i32_to_bf16(%x: tensor<64x64xi32>) -> tensor<64x64xbf16> {
  %e = tensor.empty() : tensor<64x64xbf16>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
      iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x64xi32>) outs(%e : tensor<64x64xbf16>) {
  ^bb0(%a: i32, %o: bf16):
    %f = arith.sitofp %a : i32 to f32
    %t = arith.truncf %f : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<64x64xbf16>
  return %y : tensor<64x64xbf16>
}
}
