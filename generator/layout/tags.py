"""Format tags: parse oneDNN, TVM and MegEngine format strings into one blocking structure.

Every tag becomes a `Blocking`: the order of the outer (blocked or plain) dims from outermost to
innermost, plus the inner blocks as (dim, size) pairs, outermost first -- oneDNN's blocking
descriptor. Special cases are only names for it:

* oneDNN's letter grammar (``abcd``, ``acdb``, ``aBcd8b``, ``ABcd16b16a``, ``AB16b16a2b``): letter k is
  logical dim k; an upper-case outer letter marks a dim that also has inner blocks; each ``<n><letter>``
  after the outer letters is one inner block. The meta letter ``x`` stands for every dim the tag does not
  name, in order (``abx``, ``axb``, ``aBx16b``, ``xba``).
* oneDNN's named tags in dim-name letters (``nchw``, ``nChw16c``, ``OIhw4i16o4i``, ``gOIhw16i16o``,
  ``Goihw16g``, ``hwio``): the names map onto canonical positions (data: n, c, [d,] [h,] w; weights:
  [g,] o, i, [d,] [h,] w), then the letter grammar applies.
* TVM strings (``NCHW16c``, ``OIHW16i16o``): all outer names upper case, blocked or not.
* MegEngine's NCHW4, NCHW32, NCHW64 and CHWN4 (and the plain NCHW / NHWC), from `MEGENGINE_FORMATS`.
"""
from __future__ import annotations

import re
import string
from dataclasses import dataclass

from ..errors import FormatError

_LETTERS = string.ascii_lowercase[:12]          # oneDNN allows up to 12 dims: a..l
_TAG_RE = re.compile(r"^([A-Za-z]+)((?:\d+[A-Za-z])*)$")
_BLOCK_RE = re.compile(r"(\d+)([A-Za-z])")

# MegEngine's names that do not follow the letter grammar, each with its offset formula.
MEGENGINE_FORMATS: dict[str, tuple[str, str]] = {
    "NCHW4": ("aBcd4b", "offset(n,c,h,w) = n*(C/4)*H*W*4 + (c/4)*H*W*4 + h*W*4 + w*4 + c%4"),
    "NCHW32": ("aBcd32b", "offset(n,c,h,w) = n*(C/32)*H*W*32 + (c/32)*H*W*32 + h*W*32 + w*32 + c%32"),
    "NCHW64": ("aBcd64b", "offset(n,c,h,w) = n*(C/64)*H*W*64 + (c/64)*H*W*64 + h*W*64 + w*64 + c%64"),
    "CHWN4": ("Bcda4b", "offset(n,c,h,w) = (c/4)*H*W*N*4 + h*W*N*4 + w*N*4 + n*4 + c%4"),
}

# Tags that name no concrete layout: a reorder cannot be built from them.
_ABSTRACT = {"any": "format 'any' lets a primitive choose; a reorder needs a concrete format",
             "undef": "format 'undef' is not a layout"}

_SPATIAL = "dhw"


@dataclass(frozen=True)
class Blocking:
    """oneDNN's blocking structure without the strides: outer order plus inner blocks."""
    outer_order: tuple[int, ...]            # logical dims, outermost first
    blocks: tuple[tuple[int, int], ...]     # (dim, size), outermost first

    @property
    def ndims(self) -> int:
        return len(self.outer_order)

    def tag(self) -> str:
        """The canonical oneDNN letter tag, e.g. ``aBcd16b``."""
        blocked = {d for d, _ in self.blocks}
        outer = "".join(_LETTERS[d].upper() if d in blocked else _LETTERS[d] for d in self.outer_order)
        return outer + "".join(f"{s}{_LETTERS[d]}" for d, s in self.blocks)


def _canonical_names(names: set[str], tag: str) -> list[str]:
    """The canonical dim order for a tag written in dim names (nchw family or goihw family)."""
    if not names <= set("ncdhwgoi"):
        raise FormatError(f"unknown format tag '{tag}' (expected oneDNN letters like aBcd16b, a named tag like "
                          f"nChw16c, a TVM string like NCHW16c or one of {', '.join(MEGENGINE_FORMATS)})")
    spatial = [s for s in _SPATIAL if s in names]
    if spatial != list(_SPATIAL[len(_SPATIAL) - len(spatial):]):
        raise FormatError(f"format tag '{tag}': spatial dims {''.join(spatial)} must be w, hw or dhw")
    if names & {"g", "o", "i"}:
        prefix = (["g"] if "g" in names else []) + ["o", "i"]
    elif names & {"n", "c"}:
        prefix = ["n", "c"]
    else:
        prefix = []
    canon = prefix + spatial
    if set(canon) != names or len(canon) != len(names):
        raise FormatError(f"format tag '{tag}' mixes dim names that do not form data (n,c,[d,]h,w) "
                          f"or weight (g,o,i,[d,]h,w) dims")
    return canon


def _names_to_letters(outer: str, blocks: list[tuple[int, str]], tag: str) -> tuple[str, list[tuple[int, str]]]:
    """Rewrite a dim-name tag (nChw16c, OIHW16i16o) in oneDNN's letter grammar."""
    names = {ch.lower() for ch in outer}
    canon = _canonical_names(names, tag)
    letter = {name: _LETTERS[k] for k, name in enumerate(canon)}
    blocked = {ch.lower() for _, ch in blocks}
    tvm_style = outer.isupper() and len(outer) > 1   # TVM writes every primal axis upper case
    new_outer = ""
    for ch in outer:
        lo = ch.lower()
        up = (lo in blocked) if tvm_style else ch.isupper()
        new_outer += letter[lo].upper() if up else letter[lo]
    try:
        new_blocks = [(size, letter[ch.lower()] if ch.islower() else "?") for size, ch in blocks]
    except KeyError as e:
        raise FormatError(f"format tag '{tag}': block letter {e.args[0]!r} names no outer dim") from None
    if any(ch == "?" for _, ch in new_blocks):
        raise FormatError(f"format tag '{tag}': inner block letters must be lower case")
    return new_outer, new_blocks


def parse_tag(tag: str, ndims: int) -> Blocking:
    """Parse any supported format tag for a tensor of `ndims` logical dims.

    >>> parse_tag("nChw8c", 4)
    Blocking(outer_order=(0, 1, 2, 3), blocks=((1, 8),))
    >>> parse_tag("OIhw4i16o4i", 4).blocks
    ((1, 4), (0, 16), (1, 4))
    """
    if not isinstance(tag, str) or not tag:
        raise FormatError(f"format tag must be a non-empty string, got {tag!r}")
    if tag in _ABSTRACT:
        raise FormatError(_ABSTRACT[tag])
    if tag.upper() in MEGENGINE_FORMATS and tag.upper() == tag:
        tag_letters = MEGENGINE_FORMATS[tag][0]
        if ndims != 4:
            raise FormatError(f"format tag '{tag}' describes 4 dims but {ndims} dims were given")
        return parse_tag(tag_letters, ndims)
    if tag == "x":                        # oneDNN's name for a 1D tensor
        tag = "a"
    m = _TAG_RE.match(tag)
    if not m:
        raise FormatError(f"unknown format tag '{tag}' (expected oneDNN letters like aBcd16b, a named "
                          f"tag like nChw16c, a TVM string like NCHW16c or one of {', '.join(MEGENGINE_FORMATS)})")
    outer, block_str = m.group(1), m.group(2)
    blocks = [(int(s), ch) for s, ch in _BLOCK_RE.findall(block_str)]
    lower = outer.lower()
    if "a" not in lower and lower != "x":          # 'a' is no dim name, so its absence means dim names
        outer, blocks = _names_to_letters(outer, blocks, tag)
        lower = outer.lower()
    # letter grammar from here on
    if lower.count("x") > 1:
        raise FormatError(f"format tag '{tag}': the meta letter x may appear once")
    named = [ch for ch in lower if ch != "x"]
    if len(set(named)) != len(named):
        raise FormatError(f"format tag '{tag}' names a dim twice")
    for ch in named:
        if ch not in _LETTERS:
            raise FormatError(f"unknown format tag '{tag}': letter '{ch}' is not a dim (a..l)")
    if "x" in lower:
        # benchdnn's normalize_tag trims a meta tag to ndims: the dims it names beyond ndims are dropped
        # with their blocks, so the default abx is "a" for a 1-D problem and aBx16b is "aB16b" for 2-D.
        keep = _LETTERS[:ndims] + "x"
        outer = "".join(ch for ch in outer if ch.lower() in keep)
        blocks = [(size, ch) for size, ch in blocks if ch.lower() in keep[:-1]]
        lower = outer.lower()
        named = [ch for ch in lower if ch != "x"]
        rest = [ch for ch in _LETTERS[:ndims] if ch not in named]
        i = lower.index("x")
        outer = outer[:i] + "".join(rest) + outer[i + 1:]
        lower = outer.lower()
    if len(lower) != ndims or set(lower) != set(_LETTERS[:ndims]):
        raise FormatError(f"format tag '{tag}' describes {len(lower)} dims but {ndims} dims were given"
                          if len(lower) != ndims else
                          f"format tag '{tag}' does not name each of dims {_LETTERS[:ndims]} once")
    block_dims = []
    for size, ch in blocks:
        if not ch.islower() or ch not in _LETTERS[:ndims]:
            raise FormatError(f"format tag '{tag}': block '{size}{ch}' names no dim of {_LETTERS[:ndims]}")
        if size <= 0:
            raise FormatError(f"format tag '{tag}': block size must be positive, got {size}")
        block_dims.append((_LETTERS.index(ch), size))
    blocked = {d for d, _ in block_dims}
    for ch in outer:
        d = _LETTERS.index(ch.lower())
        if ch.isupper() and d not in blocked:
            raise FormatError(f"format tag '{tag}': upper-case '{ch}' marks a blocked dim but no block names it")
        if ch.islower() and d in blocked:
            raise FormatError(f"format tag '{tag}': dim '{ch}' has inner blocks, so it must be upper case")
    return Blocking(tuple(_LETTERS.index(ch.lower()) for ch in outer), tuple(block_dims))
