// RUN: iree-opt spelling_strided_slice.mlir
// the brace form fails; 3.13 takes: vector.extract_strided_slice %v offsets = [4], sizes = [4], strides = [1]
func.func @f(%v: vector<16xf32>) -> vector<4xf32> {
  %s = vector.extract_strided_slice %v {offsets = [4], sizes = [4], strides = [1]} : vector<16xf32> to vector<4xf32>
  return %s : vector<4xf32>
}
