"""Generator version: recorded in every generated file's header and in artifact cache keys."""

__version__ = "0.1.0"
