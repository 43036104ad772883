"""Convolution kernels: the variant table and the shared plan around each variant's compute.

Every kernel module holds two functions:

* `<name>_prepare(wei_buf)`: reorders (or, for Winograd, transforms) the weights once into the
  variant's compute layout: grouped (G, OC/G, IC/G, [KD,] [KH,] KW), a named op's (FCHW, HWCF, CHW...),
  a GEMM's (G, OC/G, IC/G*Kvol) or Winograd's U;
* `<name>(src_buf, wei_prepared[, bias])`: source buffer -> logical tensor (relayout steps; channels
  last for a channels-last variant) -> spatial crop (negative padding) and zero pad -> grouped view ->
  the variant's compute -> epilogue (bias, ReLU, conversion to the destination type) -> destination
  buffer, padding zero.

Where things are:

* variants.py: `VARIANTS`, one `Variant` each (when it applies, prepare's layout, its compute), and
  `refusal`, the one place a variant is checked against a problem and a target;
* plan.py: `render_conv`, prepare and the conv function around a variant's compute;
* direct.py, packed.py: direct (named ops, the generic, the reduction split; the packed form for
  blocked layouts); gemm.py: im2col, indirect, spatial_pack; winograd.py: Winograd F(m, 3);
* brgemm/: oneDNN's batch-reduce GEMM conv as a generated microkernel (its __init__ maps its files);
* common.py, operands.py: plan pieces the variants share, and how operands enter on a target.
"""
from .brgemm.fusion import depthwise_src_zp_limit
from .packed import plain_blocks
from .plan import render_conv
from .variants import VARIANTS, refusal, why_not

__all__ = ["VARIANTS", "depthwise_src_zp_limit", "plain_blocks", "refusal", "render_conv", "why_not"]
