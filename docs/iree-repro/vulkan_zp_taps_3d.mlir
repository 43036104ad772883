// RUN: iree-compile vulkan_zp_taps_3d.mlir -o /tmp/zp.vmfb && iree-run-module --device=vulkan --module=/tmp/zp.vmfb --function=zp "--input=5x2xi32=0 1 1 1 1 1 1 1 1 0" "--input=5x2xi32=0 1 1 1 1 1 1 1 1 0" "--input=5x2xi32=0 1 1 1 1 1 1 1 1 0" --input=1x4x2x2x2xi32=1
// kgen's lavapipe target (compile.backends, the vulkan row's target_attr), wrapped as compile.cache.with_target does
// Valid-tap masks of a 3D kernel of extent 2, stride 2, padding 1 (8 -> 5 per axis). Plane o0 = 0 must be [[1 2 2 2 1] [2 4 4 4 2] x3 [1 2 2 2 1]].
#t = #hal.executable.target<"vulkan-spirv", "vulkan-spirv-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "", features = "spirv:v1.6,cap:Shader", wgp = <compute = fp32|fp16|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [], subgroup_size_choices = [8], max_workgroup_sizes = [64, 64, 64], max_thread_count_per_workgroup = 64, max_workgroup_memory_bytes = 32768, max_workgroup_counts = [65535, 65535, 65535]>>}>
#dev = #hal.device.target<"vulkan", [#t]> : !hal.device
module attributes {hal.device.targets = [#dev]} {
// sum over the 2x2x2 taps of v0[o0, k0] * v1[o1, k1] * v2[o2, k2] * wz[g, oc, k0, k1, k2], every tap axis in one generic
func.func @zp(%v0: tensor<5x2xi32>, %v1: tensor<5x2xi32>, %v2: tensor<5x2xi32>, %wz: tensor<1x4x2x2x2xi32>) -> tensor<1x4x5x5x5xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x4x5x5x5xi32>
  %acc = linalg.fill ins(%z : i32) outs(%e : tensor<1x4x5x5x5xi32>) -> tensor<1x4x5x5x5xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(g, c, o0, o1, o2, k0, k1, k2) -> (o0, k0)>,
                                        affine_map<(g, c, o0, o1, o2, k0, k1, k2) -> (o1, k1)>,
                                        affine_map<(g, c, o0, o1, o2, k0, k1, k2) -> (o2, k2)>,
                                        affine_map<(g, c, o0, o1, o2, k0, k1, k2) -> (g, c, k0, k1, k2)>,
                                        affine_map<(g, c, o0, o1, o2, k0, k1, k2) -> (g, c, o0, o1, o2)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%v0, %v1, %v2, %wz : tensor<5x2xi32>, tensor<5x2xi32>, tensor<5x2xi32>, tensor<1x4x2x2x2xi32>) outs(%acc : tensor<1x4x5x5x5xi32>) {
  ^bb0(%a: i32, %b: i32, %c: i32, %w: i32, %o: i32):
    %ab = arith.muli %a, %b : i32
    %abc = arith.muli %ab, %c : i32
    %m = arith.muli %abc, %w : i32
    %s = arith.addi %o, %m : i32
    linalg.yield %s : i32
  } -> tensor<1x4x5x5x5xi32>
  return %y : tensor<1x4x5x5x5xi32>
}
}
