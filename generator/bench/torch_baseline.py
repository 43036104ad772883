"""PyTorch's side of the comparisons: its conv on a kgen problem (`torch_fns`) and a whole model's
eager call (`eager_fns`), as `kgen bench conv` and `kgen net` time them next to kgen's kernels, in
the benchmark's process and in PyTorch's own (`torch_alone`). ``torch`` is passed in: importing it is
the caller's (`runtime.timing.import_torch`).
"""
from __future__ import annotations

import copy
import warnings
from typing import Callable

import numpy as np

from ..problem.attr import Eltwise
from ..problem.geometry import output_size

#: what the PyTorch columns run, per source data type (the table's caption)
TORCH_PATHS = {"f32": "F.convNd f32", "bf16": "F.convNd bf16", "f16": "F.convNd f16",
               "u8": "torch.ao.nn.quantized.ConvNd, engine x86 (u8:s8:u8 only)"}


def torch_fns(torch, p, x: np.ndarray, w: np.ndarray, b: np.ndarray | None, quant: dict | None = None,
              device: str = "cpu") -> dict[str, Callable[[], object]]:
    """PyTorch's conv on the same problem, in NCHW and channels_last (2D/3D): f32, bf16 and f16 through
    F.convNd, u8:s8:u8 through torch.ao's quantized conv (`_torch_quantized_fns`, CPU only); {} for
    the others. On a GPU `device` (PyTorch's "cuda") the tensors live there and each call waits for the GPU, as
    IREE's synchronous call does."""
    d = p.desc
    nsp = d.ndims - 2
    if p.src.dtype.name == "u8":
        return _torch_quantized_fns(torch, p, x, w, b, quant or {}) if device == "cpu" else {}
    if p.src.dtype.name not in ("f32", "bf16", "f16") or p.src.dtype != p.wei.dtype:
        return {}
    F = torch.nn.functional
    conv = (F.conv1d, F.conv2d, F.conv3d)[nsp - 1]
    sp = d.spatial()
    tdt = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}[p.src.dtype.name]
    xt = torch.from_numpy(np.asarray(x, np.float32)).to(device=device, dtype=tdt)
    wt = torch.from_numpy(np.asarray(w, np.float32)).to(device=device, dtype=tdt)
    bt = None if b is None else torch.from_numpy(np.asarray(b, np.float32)).to(device=device, dtype=tdt)
    wait = torch.cuda.synchronize if device != "cpu" else (lambda: None)     # a GPU: PyTorch's calls are async
    padding = torch_padding(p)
    pads = [v for s in reversed(sp) for v in (s.p, s.p_r)]       # F.pad: last dim first; negative crops
    kw = dict(stride=[s.s for s in sp], dilation=[s.d + 1 for s in sp], groups=d.g, padding=padding or 0)

    def make(xx, ww):
        def run():
            with torch.inference_mode():
                y = conv(xx if padding is not None else F.pad(xx, pads), ww, bt, **kw)
            wait()
            return y
        return run

    fns = {"nchw": make(xt, wt)}
    if nsp in (2, 3):
        fmt = torch.channels_last if nsp == 2 else torch.channels_last_3d
        fns["channels_last"] = make(xt.to(memory_format=fmt), wt.to(memory_format=fmt))
    return fns


def torch_padding(p) -> list[int] | None:
    """PyTorch's symmetric `padding=` computing `p`'s outputs, or None (then the source is padded first).
    benchdnn's right padding is whatever the output size leaves (the ResNet-50 stem: ph3, right 2); a
    smaller right padding with the same output count reads no other pixel, so PyTorch's symmetric one
    computes the same values."""
    sp = p.desc.spatial()
    if all(s.p >= 0 and output_size(s.i, s.k, s.s, s.p, s.p, s.d) == s.o for s in sp):
        return [s.p for s in sp]
    return None


def _torch_quantized_fns(torch, p, x, w, b, quant: dict) -> dict[str, Callable[[], object]]:
    """torch.ao.nn.quantized.ConvNd (ConvReLUNd for a relu post-op) on the x86 engine, the path a
    PyTorch user quantizes with: u8 source, s8 weights (per tensor or per output channel), u8
    destination, common scales and source / destination zero points, symmetric padding. Anything
    else (a padding torch's symmetric one cannot express, too) has no PyTorch counterpart here ({})."""
    relu = [op for op in p.post_ops if isinstance(op, Eltwise) and op.kind == "relu" and not op.alpha]
    if (p.wei.dtype.name, p.dst.dtype.name) != ("s8", "u8") or len(relu) != len(p.post_ops) or len(relu) > 1 \
            or "wei_zp" in quant or any(np.ndim(v) for k, v in quant.items() if k != "wei_scale") \
            or torch_padding(p) is None or "x86" not in torch.backends.quantized.supported_engines:
        return {}
    torch.backends.quantized.engine = "x86"
    with warnings.catch_warnings():     # torch 2.13 deprecates its quantized tensors (still the x86 path)
        warnings.simplefilter("ignore", UserWarning)
        return _make_torch_quantized_fns(torch, p, x, w, b, quant)


def _make_torch_quantized_fns(torch, p, x, w, b, quant: dict) -> dict[str, Callable[[], object]]:
    d = p.desc
    nsp = d.ndims - 2
    sp = d.spatial()
    relu = bool(p.post_ops)
    qnn = torch.ao.nn.intrinsic.quantized if relu else torch.ao.nn.quantized
    cls = getattr(qnn, f"ConvReLU{nsp}d" if relu else f"Conv{nsp}d")
    ws = np.asarray(quant.get("wei_scale", 1.0), np.float64)
    wt = torch.from_numpy(np.ascontiguousarray(w, np.int8))
    qw = (torch._make_per_channel_quantized_tensor(wt, torch.from_numpy(ws), torch.zeros(d.oc, dtype=torch.int64), 0)
          if ws.ndim else torch._make_per_tensor_quantized_tensor(wt, float(ws), 0))
    conv = cls(d.ic, d.oc, [s.k for s in sp], stride=[s.s for s in sp], padding=torch_padding(p),
               dilation=[s.d + 1 for s in sp], groups=d.g)
    conv.set_weight_bias(qw, None if b is None else torch.from_numpy(np.asarray(b, np.float32)))
    conv.scale, conv.zero_point = float(quant.get("dst_scale", 1.0)), int(quant.get("dst_zp", 0))
    qx = torch._make_per_tensor_quantized_tensor(torch.from_numpy(np.ascontiguousarray(x, np.uint8)),
                                                 float(quant.get("src_scale", 1.0)), int(quant.get("src_zp", 0)))

    def make(xx):
        def run():
            with torch.inference_mode():
                return conv(xx)
        return run

    fns = {"nchw": make(qx)}
    if nsp in (2, 3):
        fns["channels_last"] = make(qx.contiguous(memory_format=torch.channels_last if nsp == 2
                                                  else torch.channels_last_3d))
    return fns


def eager_fns(torch, model, x) -> dict[str, Callable[[], object]]:
    """PyTorch eager on a whole model, as `kgen net` times it: {"NCHW": ..., "channels_last": ...}, the
    second on a channels_last copy of the model and input where the input is 4-D (else the same call)."""
    xcl = x.contiguous(memory_format=torch.channels_last) if x.dim() == 4 else x
    mcl = copy.deepcopy(model).to(memory_format=torch.channels_last) if x.dim() == 4 else model
    return {"NCHW": eager_call(torch, model, x), "channels_last": eager_call(torch, mcl, xcl)}


def eager_call(torch, model, x) -> Callable[[], object]:
    """One inference call of `model` on `x`, as every end-to-end runner of `kgen net` is timed."""
    def f():
        with torch.inference_mode():
            return model(x)
    return f
