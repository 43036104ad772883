// RUN: iree-compile cuda_gather_one_tap.mlir --iree-hal-target-device=cuda --iree-cuda-target=sm_80 -o /dev/null
// 1x1 indirect conv (one tap): the table gather inside the contraction, 64 -> 64 channels, 56x56
func.func @indirect(%x: tensor<1x64x3137xf32>, %idx: tensor<3136x1xi32>, %w: tensor<64x64x1xf32>) -> tensor<1x64x3136xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x3136xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<1x64x3136xf32>) -> tensor<1x64x3136xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, f, q, c, k) -> (q, k)>, affine_map<(n, f, q, c, k) -> (f, c, k)>,
                                        affine_map<(n, f, q, c, k) -> (n, f, q)>],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%idx, %w : tensor<3136x1xi32>, tensor<64x64x1xf32>) outs(%acc : tensor<1x64x3136xf32>) {
  ^bb0(%i: i32, %wv: f32, %o: f32):
    %n = linalg.index 0 : index
    %c = linalg.index 3 : index
    %ii = arith.index_cast %i : i32 to index
    %xv = tensor.extract %x[%n, %c, %ii] : tensor<1x64x3137xf32>
    %m = arith.mulf %xv, %wv : f32
    %a = arith.addf %o, %m : f32
    linalg.yield %a : f32
  } -> tensor<1x64x3136xf32>
  return %r : tensor<1x64x3136xf32>
}
