"""Candidates: every way kgen can compute a problem (variant x layout x flag set) and whether it applies.

`kgen bench conv` times them side by side and `kgen tune` stores the fastest correct one in the table
`--alg=auto` reads (`select.table`). A candidate's problem keeps the user's data types, with the
source and destination in the candidate's layout (`USER_LAYOUT`: the problem's own --stag/--dtag).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..emit.conv import refusal
from ..errors import FormatError
from ..layout import MemoryDesc, parse_tag
from . import calibration
from .work import instruction

# layouts tried per source data type: the plain ones PyTorch also has, and the blocked ones
DEFAULT_LAYOUTS = {"f32": ("nchw", "nhwc", "nChw16c"), "f16": ("nchw", "nhwc", "nChw16c"),
                   "bf16": ("nchw", "nhwc", "nChw16c"), "s8": ("nchw", "nhwc", "NCHW4", "NCHW32"),
                   "u8": ("nchw", "nhwc", "NCHW4", "NCHW32")}
_SPATIAL_TAGS = {"nchw": ("ncw", "nchw", "ncdhw"), "nhwc": ("nwc", "nhwc", "ndhwc"),
                 "nChw16c": ("nCw16c", "nChw16c", "nCdhw16c"), "nChw8c": ("nCw8c", "nChw8c", "nCdhw8c"),
                 "NCHW4": ("aBc4b", "NCHW4", "aBcde4b"), "NCHW32": ("aBc32b", "NCHW32", "aBcde32b")}


def check_layouts(layouts) -> list[str] | None:
    """`layouts` (the --layouts a conv is tried in) as a list, each checked: a layout name above, a
    format tag of a 3- to 5-dim source and destination (acdb, aBcd8b, NCHW16c ...) or `USER_LAYOUT`;
    None or an empty list for the data type's defaults. An unknown one is a FormatError naming the
    layouts kgen knows."""
    if not layouts:
        return None
    out = list(layouts)
    for lay in out:
        if lay in _SPATIAL_TAGS or lay == USER_LAYOUT:
            continue
        for ndims in (3, 4, 5):
            try:
                parse_tag(lay, ndims)
                break
            except FormatError:
                continue
        else:
            raise FormatError(f"unknown layout '{lay}' (known: {', '.join(_SPATIAL_TAGS)}, or a format tag of "
                              f"the source and destination such as acdb or aBcd8b)")
    return out


def layout_tag(layout: str, ndims: int) -> str:
    """A layout name (the 2D tag) as the tag for an `ndims`-dim tensor (nchw -> ncw for 1D)."""
    tags = _SPATIAL_TAGS.get(layout)
    return tags[ndims - 3] if tags else layout


def layout_name(tag: str, ndims: int) -> str:
    """The inverse of `layout_tag`: a tag of an `ndims`-dim tensor as a layout name (aBcd16b, acdb ->
    nChw16c, nhwc; the meta tags axb, abx too); a tag with no name stays itself."""
    canon = parse_tag(tag, ndims).tag()
    for name, tags in _SPATIAL_TAGS.items():
        if 3 <= ndims <= 5 and parse_tag(tags[ndims - 3], ndims).tag() == canon:
            return name
    return tag


@dataclass
class Candidate:
    variant: str
    layout: str
    flags: str
    problem: object = None                      # ConvProblem
    status: str = "ok"                          # ok | n/a: why | compile failed: ... | wrong: ...
    seconds: float | None = None
    artifact: object = None
    driver: str | None = None                   # runtime driver; None: the backend's default
    predicted: float | None = None              # the cost model's seconds, on its fastest driver (kgen tune)

    @property
    def at_driver(self) -> str:
        return f"@{self.driver}" if self.driver else ""

    @property
    def label(self) -> str:
        return f"{self.variant}/{self.layout}/{self.flags}{self.at_driver}"


USER_LAYOUT = "as given"       # a layouts entry that keeps the problem's own --stag / --dtag


def candidate_problem(p, variant: str, layout: str):
    """The problem with source and destination in `layout` and the variant set. For a problem with
    format `any` tensors, only those take `layout` (`any` weights: plain; prepare packs them once),
    and `USER_LAYOUT` does not apply."""
    if layout == USER_LAYOUT:
        if p.has_any:
            raise FormatError("format 'any' has no layout of its own: name the layouts to try")
        return dataclasses.replace(p, alg=variant)
    tag = layout_tag(layout, p.desc.ndims)
    if p.has_any:
        return dataclasses.replace(p.with_layouts(tag, "abx", tag), alg=variant)
    return dataclasses.replace(p, src=MemoryDesc(p.desc.src_dims, p.src.dtype, tag),
                               dst=MemoryDesc(p.desc.dst_dims, p.dst.dtype, tag), alg=variant)


def tile_instruction(p) -> str | None:
    """The AMX tile instruction `p`'s variant runs on (brgemm_amx's own, `work.instruction`; bf16x3's
    bf16 one), or None for a variant without tiles."""
    if p.alg == "brgemm_amx_bf16x3":
        return "tdpbf16ps"
    return instruction(p) if p.alg == "brgemm_amx" else None


def tiles_left_out(p, backend) -> str | None:
    """Why `p`'s tile kernel is not run on this CPU: its calibration's probe of the tiles did not run
    here (`Calibration.left_out`: a fault, a failed compile), so neither a sweep nor --alg=auto takes
    it; None where it runs, or `p` has no tiles."""
    tile = tile_instruction(p)
    if tile is None or not getattr(backend, "cost_model", False):
        return None
    why = calibration.current().left_out.get(tile)
    return None if why is None else f"the tiles' probe did not run on this CPU ({why}); kgen calibrate measures again"


def plan_candidates(p, backend, variants, layouts, flag_sets) -> list[Candidate]:
    """Every variant x layout x flag set of `p` for `backend` (a `TargetCaps`); those that cannot run
    carry status "n/a: <why>" (the variant does not apply, the backend computes it wrongly, or its
    tile kernel did not run on this CPU: `tiles_left_out`)."""
    out = []
    for layout in layouts:
        for v in variants:
            for fs in flag_sets:
                c = Candidate(v, layout, fs)
                try:
                    c.problem = candidate_problem(p, v, layout)
                except FormatError as e:
                    c.status = f"n/a: {e}"
                    out.append(c)
                    continue
                why = refusal(c.problem, backend.for_flags(fs))
                if why:
                    c.status = f"n/a: {why[1]}"
                elif (left := tiles_left_out(c.problem, backend)) is not None:
                    c.status = f"n/a: {left}"
                out.append(c)
    return out
