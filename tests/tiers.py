"""The quick tier's covering choice: which parameter sets of a sweep the quick tier keeps.

A sweep's parameter sets are grouped by what the quick tier must cover (for a convolution: its variant,
data types, the layout class of its source and destination, and the backend); the first parameter set
of each group stays in the quick tier, the others get the `full` mark (`./build.sh test --full` runs
them, `tests/conftest.py`). So every variant x data type x layout class x backend a sweep exercises keeps
at least one exact numeric check in the quick tier, and the sweep's other shapes, tails and attributes
run in the full one.
"""
from __future__ import annotations

import shlex
from typing import Callable, Hashable, Iterable

import pytest

from generator.benchdnn.conv import conv_problem, parse_conv_args


def layout_class(desc) -> str:
    """"plain" (channels first, unblocked), "channels-last", "blocked" (one channel block, outer dims in
    order: nChw16c, NCHW4) or "other-blocked" (more block levels, or outer dims reordered: CHWN4)."""
    blocks, in_order = desc.blocks, tuple(desc.order) == tuple(range(desc.ndims))
    if not blocks:
        return "plain" if in_order else "channels-last"
    return "blocked" if len(blocks) == 1 and blocks[0][0] == 1 and in_order else "other-blocked"


def conv_key(line: str, backend: str = "llvm-cpu") -> tuple:
    """What a conv line must cover in the quick tier: (variant, data types, source and destination layout
    classes, backend)."""
    args = shlex.split(line)
    alg = next((a.split("=", 1)[1] for a in args if a.startswith("--alg=")), "direct")
    p = conv_problem(next(iter(parse_conv_args(args))))
    dts = (p.src.dtype.name, p.wei.dtype.name, p.dst.dtype.name)
    return alg, dts, layout_class(p.src), layout_class(p.dst), backend


def _values(param) -> tuple:
    """A parameter set's values: a pytest.param's, a tuple (several argnames), or one value."""
    if hasattr(param, "values"):
        return tuple(param.values)
    return param if isinstance(param, tuple) else (param,)


def _full(param):
    """`param` as a pytest.param that also carries the `full` mark."""
    marks = tuple(getattr(param, "marks", ())) + (pytest.mark.full,)
    return pytest.param(*_values(param), marks=marks, id=getattr(param, "id", None))


def covering(params: Iterable, key: Callable[..., Hashable]) -> list:
    """`params` (plain values or pytest.param) with the `full` mark on every one whose `key(*values)` an
    earlier one already had."""
    seen, out = set(), []
    for param in params:
        k = key(*_values(param))
        out.append(_full(param) if k in seen else param)
        seen.add(k)
    return out


def first(params: Iterable, n: int) -> list:
    """`params` with the `full` mark on all but the first `n`."""
    return [param if i < n else _full(param) for i, param in enumerate(params)]


def conv_covering(params: Iterable, backend: str = "llvm-cpu", line_index: int = 0) -> list:
    """`covering` for parameter sets whose `line_index`-th value is a benchdnn conv line."""
    return covering(params, lambda *values: conv_key(values[line_index], backend))


def reorder_key(problem, backend: str = "llvm-cpu") -> tuple:
    """What a reorder must cover in the quick tier: (data types, source and destination layout classes,
    quantized or not, backend)."""
    return (problem.src.dtype.name, problem.dst.dtype.name, layout_class(problem.src), layout_class(problem.dst),
            bool(problem.quant_args), backend)


def is_full(param) -> bool:
    return any(getattr(m, "name", None) == "full" for m in getattr(param, "marks", ()))


def quick_values(params: Iterable) -> list:
    """The first value of every parameter set the quick tier keeps."""
    return [_values(p)[0] for p in params if not is_full(p)]


#: The files whose tests compile kernels. In them a parametrized test runs its first parameter set in the
#: quick tier (`tests/conftest.py`), so every feature keeps a check there and `--full` runs the rest;
#: except a covering sweep (one whose parameter sets carry `full` marks: those say what it keeps) and the
#: tests of QUICK_FIRST, which keep the first N. Keyed "file::test function".
COMPILING_FILES = frozenset({
    "test_conv_kernels.py", "test_conv_brgemm.py", "test_conv_attrs.py", "test_bench.py", "test_net_torch.py",
    "test_cli.py", "test_host_threads.py", "test_net.py", "test_torch_crosscheck.py", "test_format_any.py",
    "test_host_threads_reorder.py", "test_compile_runtime.py", "test_reorder_kernels.py", "test_examples.py",
})
QUICK_FIRST = {
    "test_conv_kernels.py::test_winograd_llvm_cpu": 5,                      # F(2,3), F(4,3), F(6,3) and layouts
    "test_conv_attrs.py::test_attribute_kernels_match_the_reference": 6,
    "test_host_threads.py::test_host_threads_kernel_matches_reference": 2,
    "test_conv_kernels.py::test_variants_vulkan": 3,                        # im2col, indirect, spatial_pack
    "test_conv_kernels.py::test_variants_cuda_compile": 3,
    "test_reorder_kernels.py::test_shuffle_form_matches_reference": 5,
    "test_reorder_kernels.py::test_vulkan_reorder": 6,
    "test_reorder_kernels.py::test_decomposed_form_matches_pack_form": 8,
    "test_conv_brgemm.py::test_depthwise_brgemm_matches_the_reference": 3,  # f32, u8 with zero points, bf16
    "test_conv_brgemm.py::test_small_groups_across_the_lanes_match_the_reference": 2,
    "test_torch_crosscheck.py::test_u8s8u8_matches_the_formula_pytorch_reported": 4,
}
#: End-to-end measuring flows (benchmarks, measured plans) that run in the full tier only; the quick
#: tier keeps `kgen tune` and one `kgen bench reorder` run
FULL_ONLY = frozenset({
    "test_net_torch.py::test_model_runs_time_pytorch_alone_too",
    "test_net_torch.py::test_measured_plan_matches_eager_and_reports_baselines",
    "test_bench.py::test_bench_conv_runs_checks_and_reports",
    "test_bench.py::test_bench_conv_times_quantized_kernels_with_their_attributes",
    "test_bench.py::test_bench_reorder_takes_bf16_and_s8_with_a_torch_column",
    "test_net.py::test_measured_plan_runs_and_reports",
})

#: random reorders the quick tier builds and checks (one compiled module's worth)
QUICK_RANDOM_REORDERS = 24


def _function(item) -> str:
    return f"{item.path.name}::{item.originalname}"


def beyond_quick(items) -> list:
    """The items the quick tier leaves out, in collection order: `full` marks, FULL_ONLY, and in
    COMPILING_FILES the parameter sets past a test's first (QUICK_FIRST: first N) unless it is a covering
    sweep."""
    covering_sweeps = {_function(i) for i in items if i.get_closest_marker("full") is not None}
    seen: dict[str, int] = {}
    out = []
    for item in items:
        key = _function(item)
        if item.get_closest_marker("full") is not None or key in FULL_ONLY:
            out.append(item)
            continue
        if item.path.name not in COMPILING_FILES or not hasattr(item, "callspec"):
            continue
        if key in covering_sweeps and key not in QUICK_FIRST:
            continue
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > QUICK_FIRST.get(key, 1):
            out.append(item)
    return out
