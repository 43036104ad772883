// RUN: iree-compile vulkan_gather_in_contraction.mlir -o /dev/null
// kgen's lavapipe target (compile.backends, the vulkan row's target_attr), wrapped as compile.cache.with_target does
// Indirect conv (QNNPACK-style table) with the table gather inside the contraction, for kgen's lavapipe target.
#t = #hal.executable.target<"vulkan-spirv", "vulkan-spirv-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "", features = "spirv:v1.6,cap:Shader", wgp = <compute = fp32|fp16|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [], subgroup_size_choices = [8], max_workgroup_sizes = [64, 64, 64], max_thread_count_per_workgroup = 64, max_workgroup_memory_bytes = 32768, max_workgroup_counts = [65535, 65535, 65535]>>}>
#dev = #hal.device.target<"vulkan", [#t]> : !hal.device
module attributes {hal.device.targets = [#dev]} {
// x_flat: N x C x (H*W + 1 zero pixel); idx: (outputs, taps) -> pixel; w: (F, C, taps)
func.func @indirect(%x: tensor<1x16x65xf32>, %idx: tensor<64x9xi32>, %w: tensor<16x16x9xf32>) -> tensor<1x16x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x64xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, f, q, c, k) -> (q, k)>, affine_map<(n, f, q, c, k) -> (f, c, k)>,
                                        affine_map<(n, f, q, c, k) -> (n, f, q)>],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%idx, %w : tensor<64x9xi32>, tensor<16x16x9xf32>) outs(%acc : tensor<1x16x64xf32>) {
  ^bb0(%i: i32, %wv: f32, %o: f32):
    %n = linalg.index 0 : index
    %c = linalg.index 3 : index
    %ii = arith.index_cast %i : i32 to index
    %xv = tensor.extract %x[%n, %c, %ii] : tensor<1x16x65xf32>
    %m = arith.mulf %xv, %wv : f32
    %a = arith.addf %o, %m : f32
    linalg.yield %a : f32
  } -> tensor<1x16x64xf32>
  return %r : tensor<1x16x64xf32>
}
}
