// RUN: iree-compile vulkan_i8_conv1x1.mlir -o /tmp/i8.vmfb && iree-run-module --device=vulkan --module=/tmp/i8.vmfb --function=conv1x1 --input=1x8x4xi8=1 --input=16x8xi8=-1 --expected_output=1x16x4xi32=-8
// kgen's lavapipe target (compile.backends, the vulkan row's target_attr), wrapped as compile.cache.with_target does
#t = #hal.executable.target<"vulkan-spirv", "vulkan-spirv-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "", features = "spirv:v1.6,cap:Shader", wgp = <compute = fp32|fp16|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [], subgroup_size_choices = [8], max_workgroup_sizes = [64, 64, 64], max_thread_count_per_workgroup = 64, max_workgroup_memory_bytes = 32768, max_workgroup_counts = [65535, 65535, 65535]>>}>
#dev = #hal.device.target<"vulkan", [#t]> : !hal.device
module attributes {hal.device.targets = [#dev]} {
// a 1x1 NCHW conv, 8 -> 16 channels on a 2x2 image: y[n, f, p] = sum_c w[f, c] * x[n, c, p], i8 x i8 -> i32
func.func @conv1x1(%x: tensor<1x8x4xi8>, %w: tensor<16x8xi8>) -> tensor<1x16x4xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x16x4xi32>
  %acc = linalg.fill ins(%z : i32) outs(%e : tensor<1x16x4xi32>) -> tensor<1x16x4xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, p, c) -> (n, c, p)>, affine_map<(n, f, p, c) -> (f, c)>, affine_map<(n, f, p, c) -> (n, f, p)>],
      iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<1x8x4xi8>, tensor<16x8xi8>) outs(%acc : tensor<1x16x4xi32>) {
  ^bb0(%a: i8, %b: i8, %o: i32):
    %a32 = arith.extsi %a : i8 to i32
    %b32 = arith.extsi %b : i8 to i32
    %m = arith.muli %a32, %b32 : i32
    %s = arith.addi %o, %m : i32
    linalg.yield %s : i32
  } -> tensor<1x16x4xi32>
  return %y : tensor<1x16x4xi32>
}
}
