// RUN: iree-compile cuda_sm60_override.mlir --iree-hal-target-device=cuda --iree-cuda-target=sm_80 --iree-cuda-target=sm_60 --iree-hal-dump-executable-binaries-to=/tmp/ptx -o /dev/null && grep -h '^.target' /tmp/ptx/*.ptx && (grep -c mma.sync /tmp/ptx/*.ptx || true)
// f16 x f16 -> f32 matmul; with --iree-cuda-target=sm_80 alone the PTX targets sm_80 and holds mma.sync
func.func @mm(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>) -> tensor<64x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %y = linalg.matmul ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}
