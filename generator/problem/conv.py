"""The convolution problem model: `ConvProblem`, a descriptor (`conv_desc.ConvDesc`: shapes, strides,
padding, dilation, groups) plus data types, memory formats, bias, oneDNN's quantization attributes,
post-ops and the variant: what a kernel is generated from. Cutting one into parts per CPU is
`partition.conv_host_parts`'s.

No text is parsed here: the descriptor grammar and the conv driver are `generator.benchdnn.conv`'s.

`ConvProblem`'s tensors are MemoryDescs over oneDNN's logical dims: src (N, IC, [D,] [H,] W), weights
(G, OC/G, IC/G, [KD,] [KH,] KW) when the descriptor has groups, else (OC, IC, ...), dst (N, OC, ...).
`reference()` is the float64 NumPy model (`reference.conv_reference`) followed by the destination
type's rounding and saturation.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

import numpy as np

from ..errors import FormatError, ProblemError
from ..layout import MemoryDesc, get_dtype
from ..layout.dtypes import DataType
from .attr import (RELU, Binary, DwConv, Eltwise, PostOp, Prelu, QuantArg, Sum, binary_reference, eltwise_reference,
                   f32, policy_mask)
from .conv_desc import AXES, ConvDesc
from .reference import conv_reference
from .reorder import convert_values

__all__ = ["ACCUMULATORS", "BF16X3_TOLERANCE", "ConvProblem", "WINOGRAD_TOLERANCE", "torch_wei_dims"]

FLOAT_TYPES = ("f32", "bf16", "f16")
INT8_SRC_TYPES = ("u8", "s8")
INT8_DST_TYPES = ("u8", "s8", "s32", "f32", "bf16", "f16")
#: (src, wei, dst) -> accumulator, oneDNN's convolution data types: floats (any mix of f32, bf16, f16)
#: accumulate in f32, also when the destination is an integer (f16:f16:u8: rounded and saturated);
#: u8 or s8 sources with s8 weights accumulate in s32, whatever the destination.
ACCUMULATORS = {**{(s, w, d): "f32" for s in FLOAT_TYPES for w in FLOAT_TYPES
                   for d in FLOAT_TYPES + ("u8", "s8", "s32")},
                **{(s, "s8", d): "s32" for s in INT8_SRC_TYPES for d in INT8_DST_TYPES}}
BIAS_TYPES = ("f32", "bf16", "f16", "s32")
#: Where each scale and zero point may vary (oneDNN's convolution: src and dst common, weights per
#: output channel; zero points per channel on the activations, common on the weights).
SCALE_POLICIES = {"src": ("common",), "wei": ("common", "per_oc"), "dst": ("common",),
                  # the fused depthwise post-op's weights and destination (benchdnn attr_post_op_dw_wei / _dst)
                  "dw_wei": ("common", "per_oc"), "dw_dst": ("common",)}
ZERO_POINT_POLICIES = {"src": ("common", "per_dim_1"), "wei": ("common",), "dst": ("common", "per_dim_1")}
ZERO_POINT_TYPES = ("s32", "s8", "u8")
#: The kernel's runtime quantization arguments, in argument order.
QUANT_ARGS = ("src_scale", "wei_scale", "dst_scale", "src_zp", "wei_zp", "dst_zp", "dw_wei_scale", "dw_dst_scale")


WINOGRAD_TOLERANCE = {"winograd": 2e-5, "winograd_f2": 1e-5, "winograd_f4": 2e-5, "winograd_f6": 1e-4}
#: bf16x3 (emit.conv.brgemm.bf16x3): each product loses x_lo w_lo and the bits past both parts, about
#: 2^-16 of it; relative to the largest output (measured: docs/conv-algorithms.md, bf16x3)
BF16X3_TOLERANCE = {"brgemm_bf16x3": 2e-5, "brgemm_amx_bf16x3": 2e-5}


@dataclass(frozen=True)
class ConvProblem:
    """A convolution to generate: descriptor, tensors, accumulator, bias, post-ops, variant, and oneDNN's
    quantization attributes (`generator.problem.attr`: scales and zero points are runtime arguments of
    the kernel, `QUANT_ARGS` order; post-op parameters are baked in)."""
    desc: ConvDesc
    src: MemoryDesc
    wei: MemoryDesc
    dst: MemoryDesc
    acc: DataType
    bias: bool = True
    post_ops: tuple[PostOp, ...] = ()
    alg: str = "direct"
    bias_dt: str = "f32"
    scales: tuple[QuantArg, ...] = ()
    zero_points: tuple[QuantArg, ...] = ()

    def __post_init__(self):
        d = self.desc
        for what, desc, dims in (("src", self.src, d.src_dims), ("weights", self.wei, d.wei_dims),
                                 ("dst", self.dst, d.dst_dims)):
            if desc.dims != tuple(dims):
                raise FormatError(f"{what} descriptor dims {'x'.join(map(str, desc.dims))} do not match the "
                                  f"problem's {'x'.join(map(str, dims))}")
        object.__setattr__(self, "post_ops", tuple(self.post_ops))
        order = ("src", "wei", "dst", "dw_wei", "dw_dst")
        object.__setattr__(self, "scales", tuple(sorted(self.scales, key=lambda q: order.index(q.arg)
                                                        if q.arg in order else len(order))))
        object.__setattr__(self, "zero_points", tuple(sorted(self.zero_points, key=lambda q: order.index(q.arg)
                                                             if q.arg in order else len(order))))
        self._check_attributes()

    def _check_attributes(self) -> None:
        dts = (self.src.dtype.name, self.wei.dtype.name, self.dst.dtype.name)
        if self.bias and self.bias_dt not in BIAS_TYPES:
            raise ProblemError(f"bias data type {self.bias_dt} is not supported (supported: {', '.join(BIAS_TYPES)})")
        for table, qs, what in ((SCALE_POLICIES, self.scales, "scale"), (ZERO_POINT_POLICIES, self.zero_points,
                                                                          "zero point")):
            seen = set()
            for q in qs:
                if q.arg not in table:
                    raise ProblemError(f"a convolution has no {what} for '{q.arg}' (arguments: src, wei, dst)")
                if q.arg in seen:
                    raise ProblemError(f"{q.arg} {what} given twice")
                seen.add(q.arg)
                if q.policy not in table[q.arg]:
                    raise ProblemError(f"{q.arg} {what} policy '{q.policy}' is not supported for a convolution "
                                       f"(supported: {', '.join(table[q.arg])})")
        for q in self.scales:
            if q.dt != "f32":
                raise ProblemError(f"{q.arg} scales of type {q.dt} are not supported (f32 only)")
        for q in self.zero_points:
            if q.dt not in ZERO_POINT_TYPES:
                raise ProblemError(f"{q.arg} zero points of type {q.dt} are not supported "
                                   f"(supported: {', '.join(ZERO_POINT_TYPES)})")
            tensor_dt = {"src": dts[0], "wei": dts[1], "dst": dts[2]}[q.arg]
            if q.arg != "dst" and tensor_dt not in ("s8", "u8"):
                raise ProblemError(f"{q.arg} zero points need integer {q.arg} data (it is {tensor_dt})")
        for op in self.post_ops:
            if isinstance(op, Sum):
                if op.dt is not None and get_dtype(op.dt).itemsize != self.dst.dtype.itemsize:
                    raise ProblemError(f"sum post-op data type {op.dt} must have the size of the destination "
                                       f"type {self.dst.dtype.name}")
                if op.zero_point and not (get_dtype(op.dt or self.dst.dtype.name).is_int):
                    raise ProblemError("sum post-op zero point needs an integer destination (or sum data type)")
            if isinstance(op, Binary):
                get_dtype(op.dt)
        dws = [op for op in self.post_ops if isinstance(op, DwConv)]
        if any(q.arg.startswith("dw_") for q in self.scales) and not dws:
            raise ProblemError("depthwise post-op scales (attr_post_op_dw_wei / _dst) need a dw post-op")
        if dws:
            # oneDNN's depthwise post-op: one, no sum in the chain, no zero points (attributes_post_ops.md)
            if len(dws) > 1:
                raise ProblemError("a post-op chain holds at most one depthwise (dw) post-op")
            if any(isinstance(op, Sum) for op in self.post_ops):
                raise ProblemError("a sum post-op cannot be part of a chain with a depthwise (dw) post-op")
            if self.zero_points:
                raise ProblemError("zero points are not supported with a depthwise (dw) post-op")
            self.split_dw()                  # the depthwise convolution must be a valid problem too

    # ------------------------------------------------------------------ layouts
    @property
    def has_any(self) -> bool:
        """Some tensor is in format ``any`` (an `AnyDesc`): its layout is the kernel's to choose
        (`generator.select.resolve_layouts`); nothing physical can be built before."""
        return self.src.is_any or self.wei.is_any or self.dst.is_any

    def with_layouts(self, stag: str, wtag: str, dtag: str) -> ConvProblem:
        """This problem with its ``any`` tensors in the given formats (tags for their ranks); the
        tensors already concrete keep theirs."""
        def one(desc, tag):
            return MemoryDesc(desc.dims, desc.dtype, tag) if desc.is_any else desc
        return dataclasses.replace(self, src=one(self.src, stag), wei=one(self.wei, wtag), dst=one(self.dst, dtag))

    # ------------------------------------------------------------------ attributes
    @property
    def relu(self) -> bool:
        """The post-op chain is exactly one plain ReLU (the kernels' classic epilogue)."""
        return self.post_ops == (RELU,)

    @property
    def has_attributes(self) -> bool:
        """Anything beyond bias and a plain ReLU: scales, zero points, other post-ops, a non-f32 bias."""
        return bool(self.scales or self.zero_points or (self.post_ops and not self.relu)
                    or (self.bias and self.bias_dt != "f32"))

    @property
    def fused_dw(self) -> tuple[int, DwConv] | None:
        """(index, op) of the depthwise post-op, or None."""
        return next(((i, op) for i, op in enumerate(self.post_ops) if isinstance(op, DwConv)), None)

    @property
    def output(self) -> MemoryDesc:
        """What the kernel returns: the destination, or with a depthwise post-op its result."""
        return self.split_dw()[1].dst if self.fused_dw else self.dst

    def split_dw_args(self, quant: dict, inputs: dict) -> tuple[dict, dict, dict, dict]:
        """This problem's runtime values (`quant_args`, `post_op_inputs` by name) as the two
        convolutions of `split_dw` take them: (quant, inputs) of the first, then of the second (its
        src scale is the first's dst scale; binary_<i> after the dw at index k becomes binary_<i-k-1>;
        ``dw_wei`` / ``dw_bias`` stay in the second's inputs under those names)."""
        at, _ = self.fused_dw
        first, second = self.split_dw()
        q1 = {n: quant[n] for n, _ in first.quant_args() if n in quant}
        i1 = {n: inputs[n] for n, _, _ in first.post_op_inputs() if n in inputs}
        rename = {"dst_scale": "src_scale", "dw_wei_scale": "wei_scale", "dw_dst_scale": "dst_scale"}
        q2 = {rename[n]: v for n, v in quant.items() if n in rename}
        i2 = {}
        for n, v in inputs.items():
            kind, _, index = n.rpartition("_")
            if n in ("dw_wei", "dw_bias"):
                i2[n] = v
            elif kind in ("binary", "prelu") and index.isdigit() and int(index) > at:
                i2[f"{kind}_{int(index) - at - 1}"] = v
        return q1, i1, q2, i2

    def split_dw(self) -> tuple[ConvProblem, ConvProblem]:
        """The two convolutions of a problem with a depthwise post-op, as benchdnn's reference builds
        them (conv_dw_fusion.cpp): this convolution with the post-ops before the dw, its scales, its
        destination in `dst`; then the depthwise one (g = ic = oc, kernel K, stride S, left padding P,
        output ceil(out / S)) reading that destination, weights of this convolution's weight type in
        plain layout, its own bias when this one has one, src scale = this dst scale, weight and dst
        scales from dw_wei / dw_dst, the post-ops after the dw, and the data type DST_DT written in
        the destination's format. The depthwise one is `--alg=auto`: its kernel (brgemm's depthwise
        one where the CPU runs it) is chosen as any depthwise conv's is."""
        at, op = self.fused_dw
        d = self.desc
        sp = d.spatial()
        n_sp = d.ndims - 2
        axes = AXES[3 - n_sp:]
        vals: dict = dict(g=d.oc, mb=d.mb, ic=d.oc, oc=d.oc, ndims=d.ndims, has_groups=True)
        for a, s_ in zip(axes, sp):
            vals.update({f"i{a}": s_.o, f"o{a}": -(-s_.o // op.stride), f"k{a}": op.kernel, f"s{a}": op.stride,
                         f"p{a}": op.padding})
        try:
            dw_desc = ConvDesc(**vals)
        except ProblemError as e:
            raise ProblemError(f"depthwise post-op {op} on a {'x'.join(str(s_.o) for s_ in sp)} output: {e}") from None
        dts = (self.dst.dtype.name, self.wei.dtype.name, op.dt)
        if dts not in ACCUMULATORS:
            raise ProblemError(f"depthwise post-op {op}: data types {':'.join(dts)} are not implemented "
                               f"(its source is this destination, its weights this weight type)")
        tag = self.dst.tag if self.dst.tag else None
        scale = {q.arg: q for q in self.scales}
        first = dataclasses.replace(self, post_ops=self.post_ops[:at],
                                    scales=tuple(q for q in self.scales if not q.arg.startswith("dw_")))
        dw_scales = [dataclasses.replace(scale["dst"], arg="src")] if "dst" in scale else []
        dw_scales += [dataclasses.replace(scale[a], arg=a[3:]) for a in ("dw_wei", "dw_dst") if a in scale]
        second = ConvProblem(
            dw_desc, MemoryDesc(dw_desc.src_dims, dts[0], tag), MemoryDesc(dw_desc.wei_dims, dts[1], None),
            MemoryDesc(dw_desc.dst_dims, dts[2], tag), get_dtype(ACCUMULATORS[dts]), self.bias,
            self.post_ops[at + 1:], "auto", "f32", tuple(dw_scales), ())
        return first, second

    def input_desc(self, name: str) -> MemoryDesc:
        """The descriptor of a post-op input (`post_op_inputs`): ``dst_init`` the destination;
        ``binary_<i>`` / ``prelu_<i>`` the second input of post-op i; ``dw_wei`` / ``dw_bias`` the
        depthwise post-op's weights (plain) and bias."""
        if name == "dst_init":
            return self.dst
        dw = self.fused_dw
        if name in ("dw_wei", "dw_bias") and dw:
            second = self.split_dw()[1]
            return second.wei if name == "dw_wei" else MemoryDesc((self.desc.oc,), "f32", "a")
        kind, _, index = name.rpartition("_")
        if kind in ("binary", "prelu") and index.isdigit() and int(index) < len(self.post_ops):
            i = int(index)
            if dw and i > dw[0]:
                return self.split_dw()[1].binary_desc(self.post_ops[i])
            return self.binary_desc(self.post_ops[i])
        raise ProblemError(f"kernel {self.name} has no input named {name}")

    def scale(self, arg: str) -> QuantArg | None:
        return next((q for q in self.scales if q.arg == arg), None)

    def zero_point(self, arg: str) -> QuantArg | None:
        return next((q for q in self.zero_points if q.arg == arg), None)

    def quant_args(self) -> tuple[tuple[str, QuantArg], ...]:
        """The runtime quantization arguments present, (name, attribute), in `QUANT_ARGS` order."""
        out = []
        for name in QUANT_ARGS:
            arg, kind = name.rsplit("_", 1)
            q = self.scale(arg) if kind == "scale" else self.zero_point(arg)
            if q is not None:
                out.append((name, q))
        return tuple(out)

    def quant_shape(self, q: QuantArg) -> tuple[int, ...]:
        """Shape of the values array: () common; (OC,) per output channel; (IC,) per source channel."""
        if not q.per_channel:
            return ()
        return (self.desc.ic,) if q.arg == "src" else (self.desc.oc,)      # the dw convolution keeps OC

    def quant_dtype(self, name: str) -> DataType:
        """The runtime array's type: f32 scales, s32 zero points (given in s8 / u8 too, widened)."""
        return get_dtype("f32" if name.endswith("scale") else "s32")

    def post_op_inputs(self) -> tuple[tuple[str, int, PostOp], ...]:
        """The post-ops' runtime inputs, (argument name, chain index, post-op): the sum's prior
        destination (``dst_init``), each binary's second input (``binary_<i>``), each prelu's weights
        (``prelu_<i>``), the depthwise post-op's weights and bias (``dw_wei``, ``dw_bias``), in chain
        order. `input_desc` gives each one's descriptor."""
        out = []
        for i, op in enumerate(self.post_ops):
            if isinstance(op, DwConv):
                out.append(("dw_wei", i, op))
                if self.bias:
                    out.append(("dw_bias", i, op))
            elif isinstance(op, Sum) and not any(n == "dst_init" for n, _, _ in out):
                out.append(("dst_init", i, op))
            elif isinstance(op, Binary):
                out.append((f"binary_{i}", i, op))
            elif isinstance(op, Prelu):
                out.append((f"prelu_{i}", i, op))
        return tuple(out)

    def binary_mask(self, op: Binary | Prelu) -> tuple[int, ...]:
        """The destination dims a binary / prelu input varies along (common: none; per_oc: (1,))."""
        mask = policy_mask(op.policy, self.desc.ndims)
        if mask == (1,) or not mask:
            return mask
        return tuple(range(self.desc.ndims)) if len(mask) == self.desc.ndims else mask

    def binary_desc(self, op: Binary | Prelu) -> MemoryDesc:
        """The second input of a binary / prelu post-op: common (1 value), per_oc (OC values) or a
        destination-shaped tensor (size 1 along the dims outside its mask) in its tag (``any``: the
        destination's layout for a full tensor, plain otherwise)."""
        dt = op.dt if isinstance(op, Binary) else "f32"
        mask = self.binary_mask(op)
        if not mask:
            return MemoryDesc((1,), dt, "a")
        if mask == (1,):
            return MemoryDesc((self.desc.oc,), dt, "a")
        dims = tuple(n if i in mask else 1 for i, n in enumerate(self.dst.dims))
        tag = getattr(op, "tag", "any")
        if tag in ("any", ""):
            return self.dst.with_dtype(dt) if dims == self.dst.dims else MemoryDesc(dims, dt, None)
        return MemoryDesc(dims, dt, tag)

    @property
    def name(self) -> str:
        """Procedural name encoding every parameter (also the kernel's function-name prefix)."""
        parts = [f"conv_{self.alg}", str(self.desc),
                 f"{self.src.dtype.name}_{self.src.format_name()}", f"{self.wei.dtype.name}_{self.wei.format_name()}",
                 f"{self.dst.dtype.name}_{self.dst.format_name()}",
                 ("bias" if self.bias_dt == "f32" else f"bias_{self.bias_dt}") if self.bias else "nobias"]
        if self.relu:
            parts.append("relu")
        else:
            parts += ["scale_" + q.ident for q in self.scales]
            parts += ["zp_" + q.ident for q in self.zero_points]
            parts += [op.ident for op in self.post_ops]
        return re.sub(r"[^A-Za-z0-9_]", "_", "__".join(parts))

    @property
    def tolerance(self) -> float:
        """Allowed |error| relative to the largest |reference| value. Direct, im2col and indirect
        kernels add integer-valued products exactly, so 0; Winograd's transforms have fractional
        coefficients whose f32 rounding grows with the tile size (measured: 2e-7 for F(4,3) and 5e-7
        for F(6,3) relative to the largest output on IC=17; the bounds leave room for deeper layers);
        bf16x3 leaves out about 2^-16 of each product (`BF16X3_TOLERANCE`)."""
        return WINOGRAD_TOLERANCE.get(self.alg) or BF16X3_TOLERANCE.get(self.alg, 0.0)

    # ------------------------------------------------------------------ reference
    def reference(self, src: np.ndarray, wei: np.ndarray, bia: np.ndarray | None, *,
                  quant: dict | None = None, inputs: dict | None = None) -> np.ndarray:
        """Destination buffer from physical src/weights buffers and a logical bias, in float64, with
        oneDNN's formulas (`generator.problem.attr`): ``quant`` holds the `quant_args` values,
        ``inputs`` the `post_op_inputs` (physical buffers; the sum's prior destination in the
        destination's layout)."""
        if self.fused_dw:
            first, second = self.split_dw()
            q1, i1, q2, i2 = self.split_dw_args(quant or {}, inputs or {})
            if "dw_wei" not in i2 or (self.bias and "dw_bias" not in i2):
                raise ProblemError("the reference needs dw_wei= (and dw_bias= with a bias)")
            mid = first.reference(src, wei, bia, quant=q1, inputs=i1)
            return second.reference(mid, i2.pop("dw_wei"), i2.pop("dw_bias", None), quant=q2, inputs=i2)
        v = self.reference_f32_domain(src, wei, bia, quant=quant, inputs=inputs)
        if self.dst.dtype.is_int:
            v = np.where(np.isnan(v), 0.0, v)       # NaN (log, sqrt of negatives) converts to 0
        return self.dst.to_physical(convert_values(v, self.dst.dtype))

    def reference_f32_domain(self, src, wei, bia, *, quant=None, inputs=None) -> np.ndarray:
        """The logical destination before the final conversion (float64)."""
        d = self.desc
        quant = quant or {}
        inputs = inputs or {}
        nsp = d.ndims - 2

        def values(name: str) -> np.ndarray:
            return np.asarray(quant[name], np.float64)

        x = self.src.from_physical(src).astype(np.float64)
        w = self.wei.from_physical(wei).astype(np.float64).reshape(torch_wei_dims(d))
        if self.zero_point("src"):
            zs = values("src_zp")
            x = x - (zs.reshape((1, -1) + (1,) * nsp) if zs.ndim else zs)
        if self.zero_point("wei"):
            w = w - values("wei_zp")
        sp = d.spatial()
        y = conv_reference(x, w, None, groups=d.g, strides=[s.s for s in sp], pads_l=[s.p for s in sp],
                           pads_r=[s.p_r for s in sp], dilations=[s.d for s in sp])
        chan = (1, -1) + (1,) * nsp
        for name in ("src_scale", "wei_scale"):
            if self.scale(name[:3]):
                sc = values(name).astype(np.float32).astype(np.float64)
                y = y * (sc.reshape(chan) if sc.ndim else sc)
        if bia is not None:
            b = np.asarray(bia)
            b = convert_values(b.astype(np.float64), get_dtype(self.bias_dt)).astype(np.float64)
            y = y + b.reshape(chan)
        if self.post_ops:
            y = self._post_ops_reference(y, inputs)
        if self.scale("dst"):
            y = y / values("dst_scale").astype(np.float32).astype(np.float64)
        if self.zero_point("dst"):
            zd = values("dst_zp")
            y = y + (zd.reshape(chan) if zd.ndim else zd)
        return y

    def _post_ops_reference(self, y: np.ndarray, inputs: dict) -> np.ndarray:
        chan = (1, -1) + (1,) * (self.desc.ndims - 2)
        for name, i, _ in self.post_op_inputs():
            if name not in inputs:
                raise ProblemError(f"the reference needs {name}=")
        for i, op in enumerate(self.post_ops):
            if isinstance(op, Eltwise):
                y = eltwise_reference(y, op)
            elif isinstance(op, Sum):
                prior_dt = get_dtype(op.dt or self.dst.dtype.name)
                buf = np.ascontiguousarray(inputs["dst_init"]).view(prior_dt.np_dtype)
                prior = self.dst.with_dtype(prior_dt).from_physical(buf).astype(np.float64)
                y = y + f32(op.scale) * (prior - op.zero_point)
            else:
                name = f"{'binary' if isinstance(op, Binary) else 'prelu'}_{i}"
                desc = self.binary_desc(op)
                s1 = desc.from_physical(np.asarray(inputs[name])).astype(np.float64)
                mask = self.binary_mask(op)
                if not mask:
                    s1 = s1.reshape(())
                elif mask == (1,):
                    s1 = s1.reshape(chan)
                if isinstance(op, Binary):
                    y = binary_reference(y, op.kind, s1)
                else:
                    y = np.where(y > 0, y, y * s1)
        return y


def torch_wei_dims(d: ConvDesc) -> tuple[int, ...]:
    """PyTorch's weight layout (OC, IC/G, [KD,] [KH,] KW)."""
    return (d.oc, d.ic // d.g) + tuple(s.k for s in d.spatial())
