"""Runtime layer: load compiled modules (.vmfb) and call their functions on NumPy arrays.

Imports from compile (the backend table) and errors only; select/bench build on it.
"""

from generator.runtime.module import (
    BoundCall,
    DeviceTensor,
    Function,
    LoadedModule,
    chain_driver,
    driver_for,
    get_device,
    load_module,
    run_function,
    upload,
)

__all__ = [
    "BoundCall",
    "DeviceTensor",
    "Function",
    "LoadedModule",
    "chain_driver",
    "driver_for",
    "get_device",
    "load_module",
    "run_function",
    "upload",
]
