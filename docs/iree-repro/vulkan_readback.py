# RUN: python vulkan_readback.py   (from the project's .venv; lavapipe installed)
# DeviceArray.to_host() of a Vulkan result fails on lavapipe; kgen reads results through a staging buffer.
import numpy as np
import iree.compiler as ic
import iree.runtime as rt

SRC = """#t = #hal.executable.target<"vulkan-spirv", "vulkan-spirv-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "", features = "spirv:v1.6,cap:Shader", wgp = <compute = fp32|fp16|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [], subgroup_size_choices = [8], max_workgroup_sizes = [64, 64, 64], max_thread_count_per_workgroup = 64, max_workgroup_memory_bytes = 32768, max_workgroup_counts = [65535, 65535, 65535]>>}>
#dev = #hal.device.target<"vulkan", [#t]> : !hal.device
module attributes {hal.device.targets = [#dev]} {
func.func @add(%a: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<1024xf32> {
  %c = arith.addf %a, %b : tensor<1024xf32>
  return %c : tensor<1024xf32>
}
}
"""
vmfb = ic.compile_str(SRC)
dev = rt.get_device("vulkan")
ctx = rt.SystemContext(config=rt.Config(device=dev))
ctx.add_vm_module(rt.VmModule.copy_buffer(ctx.instance, vmfb))
r = ctx.modules.module.add(np.ones(1024, np.float32), np.ones(1024, np.float32))
try:
    print("to_host:", r.to_host()[:4])
except Exception as e:
    print("to_host failed:", type(e).__name__, str(e).splitlines()[0])
