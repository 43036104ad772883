"""Runtime layer: load compiled modules (.vmfb) and call their functions on NumPy arrays (`module`),
run a few calls at once from host threads (`host_threads`), and time calls side by side (`timing`,
shared by `generator.bench` and `generator.net`).

Imports from compile (the backend table) and errors only; select, api, bench and net build on it.
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
