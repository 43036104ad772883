"""Problem layer: what a kernel computes, independent of how it is generated.

`conv_desc` (the convolution descriptor: shapes, strides, padding, dilation, groups) and `geometry`
(its size arithmetic); `conv` (a convolution problem: descriptor, tensors, attributes, variant) with
`attr` (scales, zero points, post-ops) and `reference` (the float64 model); `reorder` (a reorder
problem); `partition` (a problem cut into parts per CPU, for the host-threads driver); `conv_math`
(Winograd and indirection tables). Text is parsed into problems by `generator.benchdnn`.
"""
