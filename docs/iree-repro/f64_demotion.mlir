// RUN: iree-compile f64_demotion.mlir --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host -o /tmp/f64.vmfb && iree-run-module --device=local-sync --module=/tmp/f64.vmfb --function=add --input=4xf64=1.5 --input=4xf64=2
func.func @add(%a: tensor<4xf64>, %b: tensor<4xf64>) -> tensor<4xf64> {
  %c = arith.addf %a, %b : tensor<4xf64>
  return %c : tensor<4xf64>
}
