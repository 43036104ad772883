"""The ``--attr-post-ops`` grammar of benchdnn's conv driver (``parser.cpp`` ``str2attr_post_ops``,
``doc/knobs_attr.md``): `parse_post_ops` checks and normalizes the entries, kept as text on a
`ConvCase`; `post_op_from_text` turns one into the problem model's post-op (`problem.attr`), and
`post_op_unsupported` says whether the product implements it."""
import re

from ..errors import ProblemError, UnsupportedError
from ..problem.attr import BINARY_KINDS as _PRODUCT_BINARY_KINDS
from ..problem.attr import ELTWISE_KINDS as _PRODUCT_ELTWISE_KINDS
from ..problem.attr import Binary, DwConv, Eltwise, PostOp, Prelu, Sum
from .driver import _err, _parse_dt, _parse_tag, _q, _split_plus

__all__ = ["SUPPORTED_POST_OPS", "parse_post_ops", "post_op_from_text", "post_op_unsupported"]

#: Post-op kinds the product implements besides ``dw`` (parsed on its own: dw:kKsSpP[:DST_DT]); ``select`` is not.
SUPPORTED_POST_OPS = (*_PRODUCT_ELTWISE_KINDS, *_PRODUCT_BINARY_KINDS, "sum", "prelu")
#: benchdnn's post-op kinds (``dnn_types.cpp`` ``kind_table``), lower case.
_ELTWISE_KINDS = ("abs", "clip", "clip_v2", "clip_v2_dst", "elu", "elu_dst", "exp", "exp_dst",
                  "gelu_erf", "gelu_tanh", "hardsigmoid", "hardswish", "linear", "log", "logistic",
                  "logistic_dst", "mish", "pow", "relu", "relu_dst", "round", "sqrt", "sqrt_dst",
                  "square", "soft_relu", "srelu", "swish", "tanh", "tanh_dst")
_ELTWISE_LONG = {"eltwise_clip_v2_use_dst_for_bwd": "clip_v2_dst", "eltwise_elu_use_dst_for_bwd": "elu_dst",
                 "eltwise_exp_use_dst_for_bwd": "exp_dst", "eltwise_logistic_use_dst_for_bwd": "logistic_dst",
                 "eltwise_relu_use_dst_for_bwd": "relu_dst", "eltwise_sqrt_use_dst_for_bwd": "sqrt_dst",
                 "eltwise_tanh_use_dst_for_bwd": "tanh_dst"}
_BINARY_KINDS = ("add", "div", "eq", "ge", "gt", "le", "lt", "max", "min", "mul", "ne", "select", "sub")
_OTHER_PO_KINDS = ("sum", "dw", "prelu")

_POST_OP_VALUE_RE = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?(?:inf|nan)",
                       re.IGNORECASE)


def parse_post_ops(text: str, where: str | None) -> tuple[str, ...]:
    """``--attr-post-ops``: '+'-joined entries (``parser.cpp`` ``str2attr_post_ops``, knobs_attr.md)::

        sum[:SCALE[:ZERO_POINT[:DATA_TYPE]]]   ELTWISE[:ALPHA[:BETA[:SCALE]]]   dw:KkSsPp[:DST_DT]
        BINARY:DT[:MASK_INPUT[:TAG[:STRIDES]]]   prelu[:MASK_INPUT]

    Each entry is checked and kept as text (kind lower-cased, benchdnn's long names shortened);
    ``relu`` with alpha = beta = 0 (and scale 1) is normalized to ``relu``. `post_op_from_text` turns
    an entry into the problem model's post-op."""
    if text == "":
        return ()
    out = []
    for entry in _split_plus(text):
        what = f"--attr-post-ops={text}"
        if entry == "":
            raise _err(f"{what}: empty '+' entry", where)
        kind_text, _, rest = entry.partition(":")
        kind = kind_text.lower()
        kind = _ELTWISE_LONG.get(kind, kind)
        if kind.startswith("eltwise_") and kind[8:] in _ELTWISE_KINDS:
            kind = kind[8:]
        if kind.startswith("binary_") and kind[7:] in _BINARY_KINDS:
            kind = kind[7:]
        if re.fullmatch(r"dw_k[0-9]+s[0-9]+p[0-9]+", kind):     # the older spelling dw_k3s1p1[:DT]
            kind, rest = "dw", kind[3:] + (":" + rest if rest else "")
        if kind not in _ELTWISE_KINDS + _BINARY_KINDS + _OTHER_PO_KINDS:
            raise _err(f"{what}: unknown post-op kind {_q(kind_text)} (expected e.g. relu, sum, add:f32, "
                       f"dw:k3s1p1; see benchdnn knobs_attr.md)", where)
        if kind == "dw" and not rest:
            raise _err(f"{what}: the dw post-op needs its parameters, e.g. dw:k3s1p1", where)
        params = rest.split(":") if rest else []
        if any(p == "" for p in params):
            raise _err(f"{what}: empty ':' field in {_q(entry)}", where)
        if kind in _ELTWISE_KINDS:
            if len(params) > 3 or any(not _POST_OP_VALUE_RE.fullmatch(p) for p in params):
                raise _err(f"{what}: eltwise entry {_q(entry)} takes [:ALPHA[:BETA[:SCALE]]] numbers", where)
            if kind == "relu" and all(float(p) == (1.0 if i == 2 else 0.0) for i, p in enumerate(params)):
                out.append("relu")
                continue
        elif kind == "sum":
            if len(params) > 3:
                raise _err(f"{what}: {_q(entry)} has too many fields (sum[:SCALE[:ZERO_POINT[:DATA_TYPE]]])", where)
            if params and not _POST_OP_VALUE_RE.fullmatch(params[0]):
                raise _err(f"{what}: sum scale {_q(params[0])} is not a number", where)
            if len(params) > 1 and not re.fullmatch(r"[+-]?[0-9]+", params[1]):
                raise _err(f"{what}: sum zero point {_q(params[1])} is not an integer", where)
            if len(params) > 2:
                if params[2].lower() == "undef":
                    raise _err(f"{what}: sum data type 'undef' is invalid", where)
                params[2] = _parse_dt(params[2], what, where)
        elif kind in _BINARY_KINDS:
            if not params:
                raise _err(f"{what}: binary entry {_q(entry)} needs the data type of its second input, "
                           f"e.g. {kind}:f32 or {kind}:f32:per_oc", where)
            params[0] = _parse_dt(params[0].split(".")[0], what, where) + (
                "." + params[0].split(".", 1)[1] if "." in params[0] else "")
            if len(params) > 1:
                params[1] = _parse_binary_policy(params[1], what, where)
            if len(params) > 2:
                params[2] = _parse_tag(params[2], what, where)
            if len(params) > 4:
                raise _err(f"{what}: {_q(entry)} has too many fields (BINARY:DT[:MASK[:TAG[:STRIDES]]])", where)
        elif kind == "dw":
            if not re.fullmatch(r"k[1-9][0-9]*s[1-9][0-9]*p[0-9]+", params[0].lower()) or len(params) > 2:
                raise _err(f"{what}: depthwise entry {_q(entry)} is dw:kKsSpP[:DST_DT], e.g. dw:k3s1p1:u8", where)
            params[0] = params[0].lower()
            if len(params) > 1:
                params[1] = _parse_dt(params[1], what, where)
        elif kind == "prelu":
            if len(params) > 1:
                raise _err(f"{what}: {_q(entry)} has too many fields (prelu[:MASK_INPUT])", where)
            if params:
                params[0] = _parse_binary_policy(params[0], what, where)
        out.append(":".join([kind] + params))
    return tuple(out)


_BINARY_POLICY_NAMES = ("common", "per_oc", "per_tensor", "per_dim_0", "per_dim_1", "per_dim_01", "per_dim_2",
                        "per_dim_3", "per_ocic")


def _parse_binary_policy(text: str, what: str, where: str | None) -> str:
    if re.fullmatch(r"0|[1-9][0-9]*", text):
        return text
    if text.lower() not in _BINARY_POLICY_NAMES:
        raise _err(f"{what}: unknown mask {_q(text)} (expected common, per_oc, per_tensor or an integer mask)",
                   where)
    return text.lower()


def _binary_policy(policy: str, ndims: int) -> str | None:
    """A binary / prelu mask as the product's policy (common, per_oc, per_tensor), None if it is another."""
    if policy.isdigit():
        mask = int(policy)
        return {0: "common", 2: "per_oc", (1 << ndims) - 1: "per_tensor"}.get(mask, policy if mask < 1 << ndims
                                                                               else None)
    return {"common": "common", "per_oc": "per_oc", "per_dim_1": "per_oc", "per_tensor": "per_tensor"}.get(policy)


def post_op_from_text(entry: str, ndims: int) -> PostOp:
    """One normalized ``--attr-post-ops`` entry -> the problem model's post-op (`UnsupportedError` for
    select and masks other than common / per_oc / per_tensor)."""
    kind, *params = entry.split(":")
    if kind in _PRODUCT_ELTWISE_KINDS:
        vals = [float(p) for p in params] + [0.0, 0.0, 1.0][len(params):]
        return Eltwise(kind, *vals)
    if kind == "sum":
        scale = float(params[0]) if params else 1.0
        zp = int(params[1]) if len(params) > 1 else 0
        return Sum(scale, zp, params[2] if len(params) > 2 else None)
    if kind in _PRODUCT_BINARY_KINDS or kind == "prelu":
        policy_text = params[1 if kind != "prelu" else 0] if len(params) > (1 if kind != "prelu" else 0) else (
            "per_tensor" if kind != "prelu" else "common")
        policy = _binary_policy(policy_text, ndims)
        if policy is None:
            raise UnsupportedError(f"--attr-post-ops={entry}: mask {policy_text} is not supported "
                                   f"(common, per_oc, per_tensor)")
        if kind == "prelu":
            return Prelu(policy)
        if "." in params[0] or len(params) > 3:
            raise UnsupportedError(f"--attr-post-ops={entry}: binary strides are not supported")
        tag = params[2] if len(params) > 2 else "any"
        return Binary(kind, params[0], policy, tag)
    if kind == "dw":
        k, st, pad = (int(x) for x in re.fullmatch(r"k([0-9]+)s([0-9]+)p([0-9]+)", params[0]).groups())
        return DwConv(k, st, pad, params[1] if len(params) > 1 else "f32")
    raise UnsupportedError(f"--attr-post-ops={entry}: post-op {kind} is not supported")


def post_op_unsupported(entry: str, ndims: int) -> bool:
    try:
        post_op_from_text(entry, ndims)
    except (UnsupportedError, ProblemError):
        return True
    return False
