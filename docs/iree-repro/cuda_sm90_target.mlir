// RUN: iree-compile cuda_sm90_target.mlir --iree-hal-target-device=cuda --iree-cuda-target=sm_90 -o /dev/null
// Any kernel: IREE 3.13's CUDA target table has no sm_90 entry (sm_80 compiles it)
func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.addf %a, %b : tensor<4xf32>
  return %c : tensor<4xf32>
}
