"""The benchdnn convolution descriptor -> `ConvDesc` (`parse_conv_desc`), as oneDNN's benchdnn reads
it (commit 3f27bec of uxlfoundation/oneDNN, the one ``/work/shared/benchdnn`` was copied from).

The grammar (``tests/benchdnn/conv/conv_aux.cpp`` ``str2desc`` and ``operator<<``,
``conv/conv.hpp`` ``desc_t``, ``common.cpp`` ``sanitize_desc`` / ``print_dhw``,
``doc/knobs_desc.md``)::

    gXmbX_icXidXihXiwX_ocXodXohXowX_kdXkhXkwX_sdXshXswX_pdXphXpwX_ddXdhXdwXnNAME

`parse_conv_desc` resolves it the way ``str2desc`` does:

* Entries may come in any order; ``_`` may follow an entry's value (benchdnn skips one ``_`` after
  a recognised entry only, so a leading ``_`` or ``__`` is an error there and here). ``n`` starts
  the name: everything after it, surrounding double quotes dropped (benchdnn keeps them; we keep
  the bare label and print it back quoted, see below).
* Defaults: g=1 (and no group dimension in the weights unless ``g`` is written, even ``g1``),
  mb=2, s=1, d=0. oneDNN dilation ``d`` means taps ``d+1`` apart (d=0 is a dense kernel), so the
  kernel extent is ``(k-1)*(d+1)+1``. ``ic``, ``oc`` and, per used spatial dim, ``i`` and ``k`` are
  mandatory; every value is a non-negative integer (``strtoll``: an optional sign is read, a
  negative value is rejected); ``g``, ``ic``, ``oc``, strides, inputs and kernels must be > 0.
* A spatial dim is *used* when any of its i/k/o/d entries is non-zero, its stride is not 1 or
  its padding is >= 1 (benchdnn's ``no_d/no_h/no_w``). For a used dim with no output the output
  is computed with padding 0 if none was given: ``o = (i - ext + 2p) / s + 1``; with an output
  but no padding, the padding is derived: ``p = ((o-1)*s - i + ext) / 2``. Both divisions are
  C's (truncate toward zero) -- `output_size`, `derive_padding`.
* ndims comes from which outputs are set (``sanitize_desc``): depth -> 3D (ndims 5; unset h and
  w copy every d value, or both h and w must be given), else height -> 2D (ndims 4; an unset w
  copies every h value), else width -> 1D (ndims 3), else an error (no spatial dim). Unused dims
  hold o=i=k=s=1, p=d=0.
* The right padding is derived (``desc_t::init_pad_r``): ``p_r = (o-1)*s - i + ext - p``
  (`right_padding`). It is negative when the last input rows are never read (e.g. the
  ``..._pw-right(-1)`` shapes); that is legal.

On top of ``str2desc``, a descriptor must pass the checks oneDNN's ``conv_desc_init``
(``src/common/convolution.cpp``) makes when benchdnn creates the primitive -- benchdnn reports a
failure ("invalid arguments") for those, so they are rejected here as well: ``ic`` and ``oc``
divisible by ``g``, left padding >= 0 (only a *derived* padding can be negative: a given output
smaller than input, kernel and stride produce), ``p_r + s > 0`` (likewise, with the padding given).
One deliberate deviation: a repeated entry (``ic3ic4``) is an error; benchdnn silently keeps the
last one.

Printing (`ConvDesc.__str__`) is benchdnn's ``operator<<(std::ostream &, const desc_t &)`` with
``--canonical=false``: ``g`` only when written, ``mb`` only when != 2, ``ic``, inputs, ``oc``,
outputs, kernels, strides only when one is != 1, paddings always, dilations only when one is != 0,
then ``n"NAME"``. Spatial entries follow ``print_dhw``: 1D prints only w; 2D prints h, and w too
unless the shape is square (every h value equals its w value); 3D prints d, and h and w too
unless the shape is cubic. Paddings and outputs are printed even when they were derived, so
``str(d)`` pins the problem: ``ic3ih5oc4kh3`` prints as ``ic3ih5oc4oh3kh3ph0``.
``ConvDesc.format(canonical=True)`` is benchdnn's ``--canonical=true`` form (every entry).
The name is always printed in double quotes: that is what benchdnn prints for every name its
batch files carry; for a name given unquoted on a shell command line benchdnn prints none
(``nwip``), the one place our printing differs.
"""
import re

from ..errors import ProblemError
from ..problem.conv_desc import _AXIS_KEYS, _UNUSED, AXES, DEFAULT_MB, DESC_FIELDS, ConvDesc
from ..problem.geometry import derive_padding, kernel_extent, output_size
from .driver import _q

__all__ = ["parse_conv_desc"]

_FIELD_ALT = r"g|mb|i[cdhw]|o[cdhw]|k[dhw]|s[dhw]|p[dhw]|d[dhw]"
_FAST_RE = re.compile(rf"((?:(?:{_FIELD_ALT})[0-9]+_?)*)(?:n(.*))?", re.DOTALL)
_PAIR_RE = re.compile(rf"({_FIELD_ALT})([0-9]+)")
_INT64_MAX = 2**63 - 1
#: One entry: a name, the integer strtoll(s, &end, 10) would read (optional blanks and sign), and
#: the one '_' benchdnn skips after it.
_ENTRY_RE = re.compile(rf"({_FIELD_ALT})([ \t\n\v\f\r]*[+-]?[0-9]+)?_?")


def _bad(text: str, msg: str) -> ProblemError:
    return ProblemError(f"bad conv descriptor {_q(text)}: {msg}")


def parse_conv_desc(text: str) -> ConvDesc:
    """Parse a benchdnn convolution descriptor (``conv_aux.cpp`` ``str2desc``) into a `ConvDesc`.

    Raises `ProblemError` with one line naming the offending entry, e.g.
    ``bad conv descriptor 'ic3ih5kh3': 'oc' was not specified or set to 0``.
    """
    text = str(text)
    m = _FAST_RE.fullmatch(text)
    if m is not None:                    # the common spelling: plain digits, no duplicate
        pairs = _PAIR_RE.findall(m.group(1))
        vals = {f: int(x) for f, x in pairs}
        if len(vals) == len(pairs) and max(vals.values(), default=0) <= _INT64_MAX:
            name = (m.group(2) or "").strip('"')
            return _resolve(text, vals, name)
    vals, name = _scan(text)
    return _resolve(text, vals, name)


def _scan(text: str) -> tuple[dict[str, int], str]:
    """str2desc's scanning loop, with an error message for every way it can fail."""
    vals: dict[str, int] = {}
    name = ""
    pos = 0
    n = len(text)
    # benchdnn scans with a loop that tries every entry name in turn and skips one '_' after a
    # step that recognised something; the regex below accepts exactly the same strings.
    while pos < n:
        m = _ENTRY_RE.match(text, pos)
        if m is None:
            if text[pos] == "n":
                name = text[pos + 1:].strip('"')
                break
            raise _bad(text, f"unrecognized entry at {_q(text[pos:], 20)} (expected one of "
                             f"{', '.join(DESC_FIELDS)}, '_' after a value, or n for the name)")
        f, value = m.group(1), m.group(2)
        if value is None:
            raise _bad(text, f"no value for {f!r} (at {_q(text[pos:], 20)}); every entry is a name "
                             f"followed by an integer, e.g. ic16")
        v = int(value)
        if v < 0:
            raise _bad(text, f"{f}={v} must be non-negative")
        if v > _INT64_MAX:
            raise _bad(text, f"{f}={value.strip()} is too large")
        if f in vals:
            raise _bad(text, f"{f!r} given twice ({f}{vals[f]} and {f}{v})")
        vals[f] = v
        pos = m.end()
    return vals, name


def _resolve(text: str, vals: dict[str, int], name: str) -> ConvDesc:
    """str2desc after scanning: defaults, derived outputs and paddings, sanitize_desc."""
    has_groups = "g" in vals
    g = vals.get("g", 1)
    mb = vals.get("mb", DEFAULT_MB)
    ic = vals.get("ic", 0)
    oc = vals.get("oc", 0)
    # Per axis, benchdnn's vector order [o, i, k, s, p, d]; p = -1 means "not given".
    ax = {a: [vals.get(key, dv) for key, dv in zip(keys, (0, 0, 0, 1, -1, 0))]
          for a, keys in _AXIS_KEYS.items()}

    def unset(f: str) -> ProblemError:
        return _bad(text, f"{f!r} was not specified or set to 0")

    if has_groups and g <= 0:
        raise unset("g")
    if ic <= 0:
        raise unset("ic")
    if oc <= 0:
        raise unset("oc")
    for a in AXES:
        if ax[a][3] <= 0:
            raise unset(f"s{a}")

    for a in AXES:
        o, i, k, s, p, dil = ax[a]
        if (i | k | o | dil) == 0 and s == 1 and p < 1:
            continue                                   # benchdnn's no_d / no_h / no_w
        if i <= 0:
            raise unset(f"i{a}")
        if k <= 0:
            raise unset(f"k{a}")
        if not o:
            if p < 0:
                p = 0
            o = output_size(i, k, s, p, p, dil)
            if o <= 0:
                raise _bad(text, f"'o{a}' was not specified and i{a}={i}, k{a}={k}, s{a}={s}, "
                                 f"p{a}={p}, d{a}={dil} give o{a}={o} (the kernel extent "
                                 f"{kernel_extent(k, dil)} exceeds the padded input)")
        elif p < 0:
            p = derive_padding(o, i, k, s, dil)
            if p < 0:
                raise _bad(text, f"o{a}={o} is too small for i{a}={i}, k{a}={k}, s{a}={s}, d{a}={dil}: "
                                 f"the derived left padding p{a}={p} is negative")
        ax[a] = [o, i, k, s, p, dil]

    # sanitize_desc: ndims from the outputs, promotion of unset dims, defaults for unused ones.
    no_d, no_h, no_w = (ax[a][0] == 0 for a in AXES)
    ndims = 5 - no_d - (no_d and no_h) - (no_d and no_h and no_w)
    if ndims <= 2:
        raise _bad(text, "no spatial dimension (give at least iw and kw, ih and kh, or id and kd)")
    if ndims == 5:
        if no_h and no_w:
            ax["h"] = list(ax["d"])
            ax["w"] = list(ax["d"])
        elif no_h or no_w:
            given, missing = ("w", "h") if no_h else ("h", "w")
            raise _bad(text, f"3D problem with '{given}' entries but no '{missing}' ones: give both "
                             f"h and w, or neither (then they copy d)")
    elif ndims == 4 and no_w:
        ax["w"] = list(ax["h"])
    for a in AXES[:5 - ndims]:
        ax[a] = list(_UNUSED)
    d = {"g": g, "mb": mb, "ic": ic, "oc": oc, "ndims": ndims, "has_groups": has_groups, "name": name}
    for a, keys in _AXIS_KEYS.items():
        d.update(zip(keys, ax[a]))

    try:
        return ConvDesc._trusted(d)
    except ProblemError as e:
        msg = str(e)
        prefix = "bad conv descriptor: "
        raise _bad(text, msg[len(prefix):] if msg.startswith(prefix) else msg) from None

