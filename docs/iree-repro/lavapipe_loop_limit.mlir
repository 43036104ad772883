// RUN: iree-compile lavapipe_loop_limit.mlir -o /tmp/loop.vmfb && iree-run-module --device=vulkan --module=/tmp/loop.vmfb --function=rowsum --input=1x25165824xi32=1
// kgen's lavapipe target (compile.backends, the vulkan row's target_attr), wrapped as compile.cache.with_target does
#t = #hal.executable.target<"vulkan-spirv", "vulkan-spirv-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "", features = "spirv:v1.6,cap:Shader", wgp = <compute = fp32|fp16|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [], subgroup_size_choices = [8], max_workgroup_sizes = [64, 64, 64], max_thread_count_per_workgroup = 64, max_workgroup_memory_bytes = 32768, max_workgroup_counts = [65535, 65535, 65535]>>}>
#dev = #hal.device.target<"vulkan", [#t]> : !hal.device
module attributes {hal.device.targets = [#dev]} {
// one output reducing 25165824 ones (the sum must be 25165824)
func.func @rowsum(%x: tensor<1x25165824xi32>) -> tensor<1xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1xi32>
  %acc = linalg.fill ins(%z : i32) outs(%e : tensor<1xi32>) -> tensor<1xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m)>],
      iterator_types = ["parallel", "reduction"]} ins(%x : tensor<1x25165824xi32>) outs(%acc : tensor<1xi32>) {
  ^bb0(%a: i32, %o: i32):
    %s = arith.addi %o, %a : i32
    linalg.yield %s : i32
  } -> tensor<1xi32>
  return %y : tensor<1xi32>
}
}
