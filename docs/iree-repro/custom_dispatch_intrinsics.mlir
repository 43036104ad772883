// RUN: iree-compile custom_dispatch_intrinsics.mlir --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host -o /tmp/cd.vmfb && iree-run-module --device=local-sync --module=/tmp/cd.vmfb --function=vnni --input=64xi8=-1 --input=64xi8=-1 && iree-run-module --device=local-sync --module=/tmp/cd.vmfb --function=bf16 --input=32xbf16=1.5 --input=32xbf16=2
// Custom dispatches as kgen's brgemm template writes them: a stream.executable, compiled for the module's CPU.
stream.executable private @dot_u8s8 {
  stream.executable.export public @dot_u8s8 workgroups() -> (index, index, index) {
    %c1 = arith.constant 1 : index
    stream.return %c1, %c1, %c1 : index, index, index
  }
  builtin.module {
    func.func @dot_u8s8(%a_b: !stream.binding, %b_b: !stream.binding, %y_b: !stream.binding) {
      %c0 = arith.constant 0 : index
      %a = stream.binding.subspan %a_b[%c0] : !stream.binding -> memref<64xi8>
      %b = stream.binding.subspan %b_b[%c0] : !stream.binding -> memref<64xi8>
      %y = stream.binding.subspan %y_b[%c0] : !stream.binding -> memref<16xi32>
      %wg = hal.interface.workgroup.id[0] : index
      %av = vector.load %a[%c0] : memref<64xi8>, vector<64xi8>
      %bv = vector.load %b[%c0] : memref<64xi8>, vector<64xi8>
      %zero = arith.constant dense<0> : vector<16xi32>
      // the u8 operand first; both byte operands as vector<64xi8>
      %r = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%zero, %av, %bv) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
      vector.store %r, %y[%wg] : memref<16xi32>, vector<16xi32>
      return
    }
  }
}
stream.executable private @dot_bf16 {
  stream.executable.export public @dot_bf16 workgroups() -> (index, index, index) {
    %c1 = arith.constant 1 : index
    stream.return %c1, %c1, %c1 : index, index, index
  }
  builtin.module {
    func.func @dot_bf16(%a_b: !stream.binding, %b_b: !stream.binding, %y_b: !stream.binding) {
      %c0 = arith.constant 0 : index
      %a = stream.binding.subspan %a_b[%c0] : !stream.binding -> memref<32xbf16>
      %b = stream.binding.subspan %b_b[%c0] : !stream.binding -> memref<32xbf16>
      %y = stream.binding.subspan %y_b[%c0] : !stream.binding -> memref<16xf32>
      %av = vector.load %a[%c0] : memref<32xbf16>, vector<32xbf16>
      %bv = vector.load %b[%c0] : memref<32xbf16>, vector<32xbf16>
      %zero = arith.constant dense<0.0> : vector<16xf32>
      %r = llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"(%zero, %av, %bv) : (vector<16xf32>, vector<32xbf16>, vector<32xbf16>) -> vector<16xf32>
      vector.store %r, %y[%c0] : memref<16xf32>, vector<16xf32>
      return
    }
  }
}
func.func @vnni(%a: tensor<64xi8>, %b: tensor<64xi8>) -> tensor<16xi32> {
  %y = flow.dispatch @dot_u8s8::@dot_u8s8(%a, %b) : (tensor<64xi8>, tensor<64xi8>) -> tensor<16xi32>
  return %y : tensor<16xi32>
}
func.func @bf16(%a: tensor<32xbf16>, %b: tensor<32xbf16>) -> tensor<16xf32> {
  %y = flow.dispatch @dot_bf16::@dot_bf16(%a, %b) : (tensor<32xbf16>, tensor<32xbf16>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}
