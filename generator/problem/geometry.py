"""Convolution geometry, stated once: C's integer division (truncation toward zero), which benchdnn and
oneDNN use. It differs from floor division only when the padded input is shorter than the kernel's
extent (then oneDNN refuses the problem: `ConvDesc` checks it).
"""
from __future__ import annotations


def _cdiv(a: int, b: int) -> int:
    """C's integer division (truncates toward zero), which benchdnn and oneDNN use."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def kernel_extent(k: int, d: int = 0) -> int:
    """Input span of a kernel of ``k`` taps with oneDNN dilation ``d`` (taps ``d+1`` apart)."""
    return (k - 1) * (d + 1) + 1


def output_size(i: int, k: int, s: int = 1, p: int = 0, p_r: int | None = None, d: int = 0) -> int:
    """Output length of a convolution: ``(i - ext + p + p_r) / s + 1`` with ``ext = (k-1)*(d+1)+1``.

    ``p_r`` defaults to ``p`` (symmetric padding, benchdnn's ``compute_out``). The division is C's
    (toward zero), exactly as oneDNN's ``conv_desc_init`` checks ``dst``; it differs from floor
    division only when ``i + p + p_r < ext``. Worked: i=5, k=3, s=2, p=1 -> (5-3+2)/2+1 = 3;
    i=10, k=3, d=1 (ext 5), s=1, p=0 -> 6.
    """
    if p_r is None:
        p_r = p
    return _cdiv(i - kernel_extent(k, d) + p + p_r, s) + 1


def derive_padding(o: int, i: int, k: int, s: int = 1, d: int = 0) -> int:
    """benchdnn's left padding for a given output (``compute_pad``): ``((o-1)*s - i + ext) / 2``, C
    division. Worked: o=i=56, k=3 -> 1; o=28, i=56, k=3, s=2 -> (54-56+3)/2 = 0 (right pad 1)."""
    return _cdiv((o - 1) * s - i + kernel_extent(k, d), 2)


def right_padding(i: int, o: int, k: int, s: int = 1, p: int = 0, d: int = 0) -> int:
    """The right (end) padding that makes ``o`` outputs exact (``desc_t::opp_pad``):
    ``(o-1)*s - i + ext - p``. Negative when the last input elements are never read."""
    return (o - 1) * s - i + kernel_extent(k, d) - p
