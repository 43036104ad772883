// RUN: iree-compile amx_tiles.mlir --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=sapphirerapids --iree-hal-dump-executable-intermediates-to=/tmp/amx -o /tmp/amx.vmfb && grep -E 'ldtilecfg|tilezero|tilestored|tilerelease' /tmp/amx/*.s
// AMX tile intrinsics from a stream.executable (compiled only: running needs an AMX CPU and the arch_prctl permission)
stream.executable private @tiles {
  stream.executable.export public @tiles workgroups() -> (index, index, index) {
    %c1 = arith.constant 1 : index
    stream.return %c1, %c1, %c1 : index, index, index
  }
  builtin.module {
    func.func @tiles(%y_b: !stream.binding) {
      %c0 = arith.constant 0 : index
      %y = stream.binding.subspan %y_b[%c0] : !stream.binding -> memref<16x16xi32>
      // palette 1; tile 0: 16 rows x 64 bytes
      %cfg_v = arith.constant dense<[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 64, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : vector<64xi8>
      %cfg = memref.alloca() : memref<64xi8>
      vector.store %cfg_v, %cfg[%c0] : memref<64xi8>, vector<64xi8>
      %cfg_i = memref.extract_aligned_pointer_as_index %cfg : memref<64xi8> -> index
      %cfg_a = arith.index_cast %cfg_i : index to i64
      %cfg_p = llvm.inttoptr %cfg_a : i64 to !llvm.ptr
      %y_i = memref.extract_aligned_pointer_as_index %y : memref<16x16xi32> -> index
      %y_a = arith.index_cast %y_i : index to i64
      %y_p = llvm.inttoptr %y_a : i64 to !llvm.ptr
      %t0 = arith.constant 0 : i8
      %stride = arith.constant 64 : i64
      llvm.call_intrinsic "llvm.x86.ldtilecfg"(%cfg_p) : (!llvm.ptr) -> ()
      llvm.call_intrinsic "llvm.x86.tilezero"(%t0) : (i8) -> ()
      llvm.call_intrinsic "llvm.x86.tilestored64"(%t0, %y_p, %stride) : (i8, !llvm.ptr, i64) -> ()
      llvm.call_intrinsic "llvm.x86.tilerelease"() : () -> ()
      return
    }
  }
}
func.func @main() -> tensor<16x16xi32> {
  %y = flow.dispatch @tiles::@tiles() : () -> tensor<16x16xi32>
  return %y : tensor<16x16xi32>
}
