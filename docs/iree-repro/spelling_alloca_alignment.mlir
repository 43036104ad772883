// RUN: iree-opt spelling_alloca_alignment.mlir
// memref.alloca takes no {alignment = ..} attribute dictionary in 3.13: write memref.alloca() : memref<64xi8>
func.func @f() {
  %a = memref.alloca() {alignment = 64 : i64} : memref<64xi8>
  return
}
