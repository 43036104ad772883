// RUN: iree-compile bf16_gemm_data_tiling.mlir --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host --iree-opt-data-tiling --iree-hal-dump-executable-intermediates-to=/tmp/bf16dt -o /dev/null && grep -c vdpbf16ps /tmp/bf16dt/*.s
// bf16 x bf16 -> f32 GEMM (a 1x1 NHWC conv); without --iree-opt-data-tiling the .s has no vdpbf16ps
func.func @mm(%x: tensor<64x64xbf16>, %w: tensor<64x64xbf16>) -> tensor<64x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<64x64xbf16>, tensor<64x64xbf16>) outs(%acc : tensor<64x64xf32>) {
  ^bb0(%a: bf16, %b: bf16, %o: f32):
    %a32 = arith.extf %a : bf16 to f32
    %b32 = arith.extf %b : bf16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}
