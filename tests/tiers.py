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


def covering(params: Iterable, key: Callable[..., Hashable]) -> list:
    """`params` (plain values or pytest.param) with the `full` mark on every one whose `key(*values)` an
    earlier one already had."""
    seen, out = set(), []
    for param in params:
        values = _values(param)
        k = key(*values)
        if k in seen:
            marks = tuple(getattr(param, "marks", ())) + (pytest.mark.full,)
            out.append(pytest.param(*values, marks=marks, id=getattr(param, "id", None)))
        else:
            seen.add(k)
            out.append(param)
    return out


def first(params: Iterable, n: int) -> list:
    """`params` with the `full` mark on all but the first `n`."""
    return covering(params, lambda *values, _count=iter(range(1 << 30)): min(next(_count), n))


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


#: Sweeps of one feature, beyond the variant x data type x layout class x backend matrices: the quick
#: tier runs the first N parameter sets of each (`tests/conftest.py`), so every feature keeps a check
#: there, and `--full` runs them all. Keyed "file::test function".
QUICK_FIRST = {
    "test_examples.py::test_examples_run": 1,                               # README.md; docs/ in --full
    "test_host_threads.py::test_host_threads_kernel_matches_reference": 6,
    "test_host_threads_reorder.py::test_host_threads_reorder_matches_reference": 5,
    "test_conv_brgemm.py::test_float_brgemm_is_generated_and_compiles": 1,
    "test_conv_brgemm.py::test_small_groups_across_the_lanes_match_the_reference": 5,
    "test_conv_brgemm.py::test_brgemm_skips_the_taps_that_reach_only_padding": 4,
    "test_conv_brgemm.py::test_brgemm_matches_the_reference": 8,
    "test_conv_brgemm.py::test_brgemm_five_vector_blocks_match_the_reference": 1,
    "test_conv_brgemm.py::test_brgemm_row_blocks_match_the_reference": 2,
    "test_conv_brgemm.py::test_brgemm_narrowed_blocks_match_the_reference": 1,
    "test_conv_brgemm.py::test_depthwise_brgemm_matches_the_reference": 6,
    "test_conv_brgemm.py::test_blocked_sides_are_read_and_written_in_place": 5,
    "test_conv_brgemm.py::test_a_band_of_a_blocked_source_is_read_where_it_lies": 2,
    "test_conv_brgemm.py::test_lane_dot_kernels_compile_for_a_cpu_that_has_them": 1,
    "test_conv_brgemm.py::test_brgemm_fma_runs_small_bf16_groups_on_fmas_across_the_lanes": 2,
    "test_conv_attrs.py::test_bad_attribute_arguments": 2,
    "test_conv_attrs.py::test_attribute_kernels_match_the_reference": 10,
    "test_conv_attrs.py::test_cli_bad_attribute_values": 4,
    "test_conv_attrs.py::test_inner_tiled_int8_kernels_match_the_reference": 3,
    "test_conv_kernels.py::test_winograd_channels_last_llvm_cpu": 2,
    "test_conv_kernels.py::test_winograd_llvm_cpu": 5,
    "test_conv_kernels.py::test_long_reductions_split_on_vulkan": 1,
    "test_conv_kernels.py::test_cli_bad_input": 6,
    "test_conv_kernels.py::test_blocked_convs_in_named_ops_match_the_reference": 4,
    "test_conv_kernels.py::test_depthwise_in_named_ops_matches_the_reference": 4,
    "test_conv_kernels.py::test_winograd_channels_last_in_bands": 1,
    "test_conv_kernels.py::test_winograd_channels_last_host_threads": 1,
    "test_conv_kernels.py::test_winograd_blocked_sides_in_place": 1,
    "test_conv_kernels.py::test_winograd_dilated_channels_last": 1,
    "test_conv_kernels.py::test_variants_vulkan": 6,
    "test_conv_kernels.py::test_variants_cuda_compile": 6,
    "test_conv_kernels.py::test_strided_1x1_in_plain_layouts_matches_the_reference": 2,
    "test_reorder_kernels.py::test_shuffle_form_matches_reference": 20,
    "test_net.py::test_a_compiled_plan_equals_the_reference_layer_by_layer": 2,
    "test_net_torch.py::test_optimized_module_matches_eager": 2,
    "test_net_torch.py::test_bf16_blocks_stay_within_bf16_rounding_of_eager": 1,
    "test_bench.py::test_heuristic_driver_skips_the_hand_off_on_small_problems": 4,
}

#: random reorders the quick tier builds and checks (one compiled module's worth)
QUICK_RANDOM_REORDERS = 24


#: tests of several minutes each that run first, so that no worker is left running one alone at the end
RUN_FIRST = ("test_conv_kernels.py::test_vulkan_sweep_of_small_problems", "test_examples.py::test_examples_run")


def long_first(items) -> list:
    """`items` with those of RUN_FIRST's functions in front (each keeps its own order)."""
    def long(item):
        return f"{item.path.name}::{item.originalname}" in RUN_FIRST
    return [i for i in items if long(i)] + [i for i in items if not long(i)]


def beyond_quick_first(items) -> list:
    """The items past their function's QUICK_FIRST count, in collection order."""
    seen: dict[str, int] = {}
    out = []
    for item in items:
        key = f"{item.path.name}::{item.originalname}"
        if key in QUICK_FIRST:
            seen[key] = seen.get(key, 0) + 1
            if seen[key] > QUICK_FIRST[key]:
                out.append(item)
    return out
