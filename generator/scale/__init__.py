"""The work layer: units of work run serially, in a local process pool or on a Ray farm, behind one
interface (`run_units`).

A unit is never a single candidate: it is one problem with all its candidates (`kgen tune`, timed
side by side in one process), or a chunk of kernels to compile (`kgen catalog build`). Each unit says
what it needs of a node (`Unit.kind`, `Unit.target`):

- ``"measure"``: it times kernels, so it holds every CPU of its node and runs only on a node of its
  target CPU kind (`host_cpu_id`, the ``kgen-cpu`` label `kgen worker` gives a node);
- ``"compile"``: one CPU, on a node of the target kind when the flags say ``=host`` (llvm-cpu),
  anywhere when `target` is None (Vulkan, CUDA).

Only the driver writes: results come back to it (artifacts as bytes, `compile.cache.export_entry`),
and it installs or stores each as its unit finishes. A worker lost mid-unit (killed, or its node
removed) is retried, at most `MAX_ATTEMPTS` times in all; a unit that raises is reported and the rest
go on. Ray is imported only when an address is given (`executor_for`).
"""
from .identity import WorkerIdentity, code_id, iree_id, node_labels, worker_identity
from .local import PoolExecutor, SerialExecutor
from .progress import Progress
from .work import MAX_ATTEMPTS, Unit, UnitResult, executor_for, run_units

__all__ = ["MAX_ATTEMPTS", "PoolExecutor", "Progress", "SerialExecutor", "Unit", "UnitResult", "WorkerIdentity",
           "code_id", "executor_for", "iree_id", "node_labels", "run_units", "worker_identity"]
