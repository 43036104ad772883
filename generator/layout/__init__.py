"""Layout algebra: data types, format tags and memory descriptors (the leftmost layer)."""
from .desc import AnyDesc, MemoryDesc
from .dtypes import DTYPES, DataType, get_dtype, is_numeric, pack_int4, unpack_int4
from .pitch import Pitch
from .tags import MEGENGINE_FORMATS, Blocking, parse_tag

__all__ = ["AnyDesc", "MemoryDesc", "Pitch", "DTYPES", "DataType", "get_dtype", "is_numeric", "pack_int4", "unpack_int4", "MEGENGINE_FORMATS",
           "Blocking", "parse_tag"]
