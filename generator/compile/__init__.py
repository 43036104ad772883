"""Compile layer: the backend table (`backends`, with the host CPU it probes in `host`) and the
content-addressed ``iree-compile`` artifact cache.

Sits between emit (which produces MLIR text) and runtime (which loads the vmfb); it imports only
from the layers to its left (errors, version, and emit's `TargetCaps`, which a `Backend` is).
"""

from generator.compile.backends import (
    BACKENDS,
    Backend,
    cuda_device_available,
    device_available,
    get_backend,
    vulkan_device_available,
)
from generator.compile.cache import (
    Artifact,
    cache_key,
    compile_command,
    compile_mlir,
    compiler_invocations,
    compiler_version,
    default_cache_dir,
    find_compiler,
    write_artifact,
)

__all__ = [
    "BACKENDS",
    "Artifact",
    "Backend",
    "cache_key",
    "compile_command",
    "compile_mlir",
    "compiler_invocations",
    "compiler_version",
    "cuda_device_available",
    "default_cache_dir",
    "device_available",
    "find_compiler",
    "get_backend",
    "vulkan_device_available",
    "write_artifact",
]
