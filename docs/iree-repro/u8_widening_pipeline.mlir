// RUN: iree-compile u8_widening_pipeline.mlir --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host --iree-hal-dump-executable-configurations-to=/tmp/u8cfg -o /dev/null && grep -h -o 'func.func @[a-z]*\|pipeline<[A-Za-z]*>' /tmp/u8cfg/*
// u8 x s8 depthwise NHWC (g16, 3x3, 8x8 -> 6x6) as kgen feeds it: the u8 source widened first, then the named op
func.func @extui(%x: tensor<1x8x8x16xi8>, %w: tensor<3x3x16xi8>) -> tensor<1x6x6x16xi32> {
  %e0 = tensor.empty() : tensor<1x8x8x16xi32>
  %xw = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x8x8x16xi8>) outs(%e0 : tensor<1x8x8x16xi32>) {
  ^bb0(%a: i8, %o: i32):
    %v = arith.extui %a : i8 to i32
    linalg.yield %v : i32
  } -> tensor<1x8x8x16xi32>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x6x6x16xi32>
  %acc = linalg.fill ins(%z : i32) outs(%e : tensor<1x6x6x16xi32>) -> tensor<1x6x6x16xi32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc ins(%xw, %w : tensor<1x8x8x16xi32>, tensor<3x3x16xi8>)
      outs(%acc : tensor<1x6x6x16xi32>) -> tensor<1x6x6x16xi32>
  return %y : tensor<1x6x6x16xi32>
}
func.func @uitofp(%x: tensor<1x8x8x16xi8>, %w: tensor<3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  %e0 = tensor.empty() : tensor<1x8x8x16xf32>
  %xw = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x8x8x16xi8>) outs(%e0 : tensor<1x8x8x16xf32>) {
  ^bb0(%a: i8, %o: f32):
    %v = arith.uitofp %a : i8 to f32
    linalg.yield %v : f32
  } -> tensor<1x8x8x16xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x6x16xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc ins(%xw, %w : tensor<1x8x8x16xf32>, tensor<3x3x16xf32>)
      outs(%acc : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  return %y : tensor<1x6x6x16xf32>
}
