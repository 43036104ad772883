"""The backend table: the one place that says how to compile for, and run on, each target.

Everything that differs between targets lives in one ``Backend`` row: the ``iree-compile`` flags,
the runtime driver, and the feature gaps the emitters must route around. Adding a target means
adding one row here, not editing ``if backend == ...`` chains elsewhere (see STYLE.md, "one
registry per concept").

The flag sets are the ones verified in IREE_NOTES.md sections 3 and 4 for IREE 3.13:

- ``llvm-cpu`` needs ``--iree-llvmcpu-target-cpu=host``; without it IREE warns at length and emits
  generic x86-64 code. ``--iree-hal-target-device=local`` alone fails ("does not provide any
  executable targets").
- ``vulkan`` uses an explicit executable target matching Mesa's lavapipe (SPIR-V 1.6, fp16/int8
  compute, ``dp4xi8toi32``, no subgroup operations), put in the module itself (``target_attr``; IREE
  has no flag for a custom Vulkan target). The named targets all fail on lavapipe somewhere: the
  default ``vp_android_baseline_2022`` gave silently wrong f16 results, targets without
  ``dp4xi8toi32`` wrong i8 results, and ``valhall4`` (subgroup 16) wrong sums in every contraction
  IREE lowers with a subgroup reduction (Winograd's batched GEMM over 16+ channels, spatial-pack tile
  convs over 32+ channels: errors of tens on small integers), because lavapipe's subgroups are 8
  wide. A target of 8-wide subgroups was right on lavapipe, but on NVIDIA's driver (32 wide) two s8
  zero-point cases came out wrong whose sums ran as 8-wide subgroup reductions. So the target names
  no subgroup operations (``subgroup = none``): IREE then reduces without them, and a kernel does not
  depend on the device's subgroup width (not yet run on a GPU). On lavapipe that ran every Vulkan
  test right and the ResNet-50 layers as fast (docs/performance.md). Workgroups are capped at 64
  threads, as lavapipe was validated: with subgroup reductions, IREE combined the subgroups' partial
  sums in one subgroup, and with more than 8 subgroups some partials were dropped (one output
  reducing 32 x 16^3 values, ``g1mb1ic32id16oc1od1kd16pd0``, was off by 1484 with up to 512 threads;
  K = 16, 24, 48 were right with the cap). Longer reductions were wrong for another reason: lavapipe's LLVM shader
  compiler (gallivm) ends a shader invocation after 65535 loop iterations in all, one counter for
  every loop of the invocation (``LP_MAX_TGSI_LOOP_ITERATIONS``, an infinite-loop guard), and keeps
  what it has. With all-ones data the 32 x 96^3 = 28M-value output came out 16776960 = 65535 x 256,
  the iterations x the 256 values each (64 threads x 4). ``max_reduction`` makes direct split such
  reductions into partial sums (``emit.conv.direct.reduction_split``); the other variants refuse them.
- ``cuda`` uses ``sm_80``: IREE 3.13 has no Hopper entry in its target table, and the PTX it embeds
  for sm_80 is JIT-compiled by the driver on newer GPUs.

IREE 3.13 also *demotes f64 to f32 by default* (``--iree-input-demote-f64-to-f32``), rewriting the
public signature and printing only a warning. A float64 kernel would then silently run in f32 and
reject float64 inputs. The backends that can do f64 therefore turn the demotion off; Vulkan cannot
(lavapipe and ``valhall4`` have no fp64: "failed to convert SPIR-V type ... f64") and reports
``supports_f64=False`` so callers refuse f64 before compiling.
"""

from __future__ import annotations

import ctypes
import dataclasses
import functools
import os
import platform
import re
import threading
from dataclasses import dataclass

from generator.compile.host import (host_bf16_dot_slow, host_cpu_flags, host_matrix_features, host_vector_bits,
                                    host_weight_panel_bytes)
from generator.emit.target import Mmt4dTile, TargetCaps
from generator.errors import UnsupportedError


@dataclass(frozen=True, kw_only=True)
class Backend(TargetCaps):
    """One compilation target and the runtime driver that executes its modules.

    It is the emitters' `TargetCaps` too: the capability fields (``compiles_pack``,
    ``named_conv_broken``, ``gather_in_contraction``, ``batch_outer_only``, ``mmt4d_tile``, ...) say
    which lowerings work here, so no code outside this module compares backend names.

    ``driver`` is the IREE HAL driver name. For ``llvm-cpu`` it is the default ``local-task``
    (multi-threaded); ``memory_bound_driver`` is the one for kernels that only move memory
    (reorders). Callers may name another driver of the backend (``ConvKernel(..., driver=)``) and
    ``KGEN_CPU_DRIVER`` overrides both defaults on the CPU.
    """

    name: str
    driver: str
    flags: tuple[str, ...]
    supports_f64: bool
    doc: str
    # `#hal.executable.target<...>` the module is compiled for, when no flag can name the right one;
    # `compile_mlir` then wraps the module in `hal.device.targets` (IREE_NOTES section 3)
    target_attr: str | None = None
    target_device: str | None = None
    # named sets of extra iree-compile flags that `kgen bench` / `kgen tune` try per kernel (the first is
    # the backend's plain flags); measured, not assumed: each wins on some kernels and loses on others
    flag_sets: tuple[tuple[str, tuple[str, ...]], ...] = (("default", ()),)
    # what a flag set changes in the emitted MLIR: (flag set, ((TargetCaps field, value), ...)), for
    # flags under which IREE cannot compile what it compiles otherwise (`for_flags`)
    flag_set_caps: tuple[tuple[str, tuple[tuple[str, object], ...]], ...] = ()
    # drivers that can run this backend's modules (the first is `driver`), and the one for reorders
    drivers: tuple[str, ...] = ()
    memory_bound_driver: str | None = None
    # IREE device allocators the runtime creates the device with (empty: the driver's default)
    allocators: tuple[str, ...] = ()
    # how reorders are emitted: "pack" (linalg.pack / linalg.unpack) or "transpose" (the equivalent
    # pad + expand_shape + transpose, the only form where not compiles_pack); `ReorderKernel(form=)`
    # takes either where both compile
    reorder_form: str = "pack"
    # the form for a reorder between a plain layout and a single-level blocked one whose innermost
    # block is the plain layout's innermost dim (channels-last <-> nChwXc: whole runs of channels
    # move), where it differs from `reorder_form` (`select.reorder_form`); None: `reorder_form`
    reorder_form_inner_kept: str | None = None
    # where the selected kernel's driver can be overridden from the environment (the CPU: local-task or
    # local-sync); None: the backend has one driver
    driver_env: str | None = None
    # the PyTorch device `kgen bench` runs the same problems on, side by side (None: no comparison)
    torch_device: str | None = None
    # --alg=auto's untuned rule takes im2col before direct for every kernel size: where IREE lowers
    # direct convolutions to one scalar loop per output (Vulkan's BaseDistribute pipeline)
    auto_gemm_first: bool = False
    # ... and direct for 1x1 kernels too, where IREE's direct conv is as fast as the GEMM on them or
    # faster (measured: docs/performance.md, Tuned constants)
    auto_direct_1x1: bool = False
    # extra iree-compile flags for kernels that run on memory_bound_driver (one thread: no point in
    # cutting the dispatch into workgroups)
    memory_bound_flags: tuple[str, ...] = ()
    # a pseudo-driver of `drivers` that is not an IREE driver: the convolution is cut into one part per
    # CPU (`problem.partition.conv_host_parts`), each part a call on this IREE driver from its own host
    # thread (`runtime.host_threads`); None: the backend has none
    host_threads_driver: str | None = None
    # its kernels run on this machine's CPU, whose calibration (`select.calibration`) prices them in the
    # cost model (`select.cost`): `kgen tune` measures only the close calls, `--alg=auto` weighs AMX
    # and Winograd against its rule
    cost_model: bool = False
    # extra iree-compile flags, after the flag set's, for convolutions that multiply f16 or bf16
    # values (`conv_flags`): on CUDA, PTX without tensor-core MMA, since IREE 3.13's
    # NV_MMA_SYNC_F32_16x8x16_F16/BF16 path computes several operand layouts wrongly
    half_multiply_flags: tuple[str, ...] = ()
    # ... except for these forms (`half_mma_form`: variant, source layout, kernel), whose f16 / bf16
    # contraction the default target's tensor-core MMA was measured to compute right
    half_mma_right: frozenset[tuple[str, str, str]] = frozenset()
    # the backend runs on a device of its own (a GPU), so what `kgen tune` and the network planner
    # measure holds for that device: their tables key it by the device's name as well as the host CPU
    tuned_per_device: bool = False
    # --alg=auto's untuned rule runs bf16 convolutions on brgemm_fma (widened to f32, FMAs) rather than
    # brgemm's vdpbf16ps: where the CPU's vdpbf16ps is no faster than two FMAs (`host_bf16_dot_slow`)
    bf16_dot_slow: bool = False
    # a live runtime device keeps host threads busy while idle: on Mesa's lavapipe, IREE's Vulkan queue
    # threads wait through Mesa's polled wait-any and hold two cores at 100% for as long as the device
    # lives. The runtime keeps such a device only while a module or tensor is on it, and availability
    # probes list the driver's devices without creating one. Only a software device is so
    # (`idle_device_busy_here`): on an NVIDIA H200's Vulkan driver, creating the device again for
    # each module failed after about 30 with VK_ERROR_INCOMPATIBLE_DRIVER
    idle_device_busy: bool = False

    def __post_init__(self):
        for form in (self.reorder_form, self.reorder_form_inner_kept):
            if form is not None and form not in self.relayout_forms:
                raise ValueError(f"{self.name}: reorder form {form!r} is not one it compiles")

    @property
    def default_driver(self) -> str:
        """The IREE driver kernels run on unless the caller names one: ``driver_env`` if set (the
        host-threads pseudo-driver runs its parts on ``host_threads_driver``), else ``driver``."""
        drv = os.environ.get(self.driver_env, self.driver) if self.driver_env else self.driver
        return self.host_threads_driver if drv == self.host_threads_driver_name else drv

    def portable(self) -> "Backend":
        """This row with the host-dependent choices replaced by ones every CPU of its kind computes
        right: what the checked-in catalog (mlir/) is rendered for, so it is the same on every machine."""
        if self.mmt4d_tile is None:
            return self
        return dataclasses.replace(self, mmt4d_tile=PORTABLE_MMT4D_TILE, cpu_features=PORTABLE_CPU_FEATURES,
                                   bf16_dot_slow=False, weight_panel_bytes=None)

    def conv_flags(self, flag_set: str | None, problem, *, alone: bool = True) -> tuple[str, ...]:
        """The extra flags the convolution `problem` is compiled with under flag set `flag_set`
        (None: the backend's plain flags). `alone`: the module holds this convolution only; in one
        with other ops (a network segment: its reorders may fuse into the contraction's operands) no
        form counts as measured right (`half_mma_right` was measured on convolutions alone)."""
        extra = self.flag_set(flag_set) if flag_set else ()
        if (self.half_multiply_flags and {problem.src.dtype.name, problem.wei.dtype.name} & {"f16", "bf16"}
                and not (alone and half_mma_form(problem) in self.half_mma_right)):
            extra += self.half_multiply_flags
        return extra

    def reorder_flags(self, driver: str | None) -> tuple[str, ...]:
        """The extra flags a reorder run on `driver` is compiled with."""
        return self.memory_bound_flags if driver == self.memory_bound_driver else ()

    @property
    def runtime_drivers(self) -> tuple[str, ...]:
        return self.drivers or (self.driver,)

    @property
    def memory_bound_default(self) -> str:
        """The driver a memory-bound kernel (a reorder) runs on when none is named or chosen: one thread
        where the backend has one (`memory_bound_driver`), else `driver`."""
        return self.memory_bound_driver or self.driver

    @property
    def host_threads_driver_name(self) -> str | None:
        """The name of the host-threads pseudo-driver where the backend has one."""
        return HOST_THREADS if self.host_threads_driver else None

    @property
    def iree_drivers(self) -> tuple[str, ...]:
        """The runtime drivers that are IREE HAL drivers (not the host-threads pseudo-driver)."""
        return tuple(d for d in self.runtime_drivers if d != HOST_THREADS or not self.host_threads_driver)

    def for_flags(self, name: str | None) -> "Backend":
        """This row as the emitters must see it for kernels compiled with flag set `name`."""
        for n, caps in self.flag_set_caps:
            if n == name:
                return dataclasses.replace(self, **dict(caps))
        return self

    def flag_set(self, name: str) -> tuple[str, ...]:
        for n, flags in self.flag_sets:
            if n == name:
                return flags
        raise UnsupportedError(f"unknown flag set '{name}' for {self.name} (known: "
                               f"{', '.join(n for n, _ in self.flag_sets)})")


_NO_DEMOTE_F64 = "--iree-input-demote-f64-to-f32=false"

# The f32 mmt4d tile per x86 vector width. IREE 3.13 computes `linalg.(batch_)mmt4d` WRONGLY when the
# M0 x N0 accumulator tile fills the whole vector register file: on an AVX2 AMD EPYC (16 ymm = 128 f32)
# 8x16 and 16x8 tiles gave errors of tens on small integers with every flag set (ukernels, data tiling),
# 8x8 and 4x16 were right; with target-cpu=generic (16 xmm = 64 f32) 8x8 and 16x4 were wrong, 8x4 right.
# Half the register file is right everywhere tried, and on AVX-512 (32 zmm) 16x16 is right (the f32
# Winograd bench runs and their checks, README) and is IREE's own data-tiling tile there.
MMT4D_TILE_BY_VECTOR_BITS = {512: Mmt4dTile(16, 16), 256: Mmt4dTile(8, 8), 128: Mmt4dTile(4, 8)}
# right on every CPU kgen targets (AVX2 and up, AArch64 NEON with 32 q registers)
PORTABLE_MMT4D_TILE = MMT4D_TILE_BY_VECTOR_BITS[256]
# The matrix features the catalog's kernels are rendered for, whatever the host has (x86-64-v4 with
# VNNI and BF16, without AMX), so that the checked-in kernels (the Winograd ones' channels-last form
# needs avx512f) are the same on every CPU. The catalog's kernels that depend on them (f32 Winograd
# around brgemm's f32 microkernel) use generic vector ops only, so they compile and compute right on
# AVX2 hosts as well.
PORTABLE_CPU_FEATURES = frozenset({"avx2", "avx512f", "avx512_vnni", "avx512_bf16"})


def host_mmt4d_tile() -> Mmt4dTile:
    """The f32 mmt4d tile for this CPU (target-cpu=host); AArch64 NEON takes the 8x8 tile IREE uses."""
    flags = host_cpu_flags()
    if "asimd" in flags:
        return PORTABLE_MMT4D_TILE
    return MMT4D_TILE_BY_VECTOR_BITS[host_vector_bits()]


# the pseudo-driver that runs a convolution's parts from host threads (Backend.host_threads_driver)
HOST_THREADS = "host-threads"


def half_mma_form(problem) -> tuple[str, str, str] | None:
    """(variant, layout, kernel) of a 2D convolution, the terms in which `Backend.half_mma_right`
    names the forms whose f16 / bf16 contraction runs right on tensor-core MMA: the layout of source
    and destination both "nchw", "nhwc" or "nChw16c" (the ones measured, weights in oihw), the kernel
    "1x1" or "kxk". None for what no measurement covered: other layouts or two different ones, 1D and
    3D, groups, dilation, post-ops and quantization attributes (an epilogue after the accumulators
    beyond the f32 bias)."""
    d = problem.desc
    lay = _MMA_LAYOUT_TAGS.get(problem.src.tag)
    if (lay is None or problem.dst.tag != problem.src.tag or problem.wei.tag != "abcd" or d.ndims != 4
            or d.g != 1 or any(d.dilations) or problem.post_ops or problem.has_attributes):
        return None
    alg = "winograd_f4" if problem.alg == "winograd" else problem.alg
    return alg, lay, "1x1" if all(s.k == 1 for s in d.spatial()) else "kxk"


_MMA_LAYOUT_TAGS = {"abcd": "nchw", "acdb": "nhwc", "aBcd16b": "nChw16c"}
# f16 / bf16 convolutions whose contraction IREE 3.13's sm_80 tensor-core MMA (mma.sync m16n8k16,
# f32 accumulation) computed right on an H200 in every case measured: the 8 ResNet-50 b1 layers and
# 6 odd shapes (channel and spatial tails, stride 2, 5x5, batch 2), in f16 and bf16 (README, "CUDA").
# The others (im2col outside NHWC, 1x1 kernels in direct NCHW, in indirect outside NHWC and in
# spatial_pack) came out wrong, about half the outputs off by tens to hundreds, with ptxas' SASS for
# sm_90 as with the driver's JIT: IREE's code. Those compile without MMA (`half_multiply_flags`).
HALF_MMA_RIGHT_SM80 = frozenset(
    [("direct", lay, k) for lay in ("nchw", "nhwc", "nChw16c") for k in ("1x1", "kxk") if (lay, k) != ("nchw", "1x1")]
    + [("im2col", "nhwc", k) for k in ("1x1", "kxk")]
    + [("indirect", lay, "kxk") for lay in ("nchw", "nhwc", "nChw16c")] + [("indirect", "nhwc", "1x1")]
    + [("spatial_pack", lay, "kxk") for lay in ("nchw", "nhwc", "nChw16c")]
    + [(w, lay, "kxk") for w in ("winograd_f2", "winograd_f4", "winograd_f6") for lay in ("nchw", "nhwc", "nChw16c")])


BACKENDS: dict[str, Backend] = {
    b.name: b
    for b in (
        Backend(
            name="llvm-cpu",
            driver="local-task",
            drivers=("local-task", "local-sync", HOST_THREADS),
            # a convolution's parts run on local-sync from host threads: faster and steadier than
            # local-task's hand-off (measured: docs/performance.md, Tuned constants)
            host_threads_driver="local-sync",
            cost_model=True,
            # a reorder in cache runs faster on one thread than through the task system's hand-off to
            # several, and as fast out of cache (measured: docs/performance.md, Tuned constants)
            memory_bound_driver="local-sync",
            # IREE 3.13 lowers linalg.unpack and linalg.pack slower than the transpose form in cache; out
            # of cache pack is a little faster for plain -> blocked, unpack still slower (`kgen bench
            # reorder` shows both forms; measured: docs/performance.md, Tuned constants)
            reorder_form="transpose",
            # the transpose form's permutation keeps the innermost dim, which IREE 3.13 vectorizes
            # poorly (`kgen tune reorder`; measured: docs/performance.md, Tuned constants)
            reorder_form_inner_kept="pack",
            # the "shuffle" form (a transposition microkernel) for nchw <-> nhwc and the like
            # (`select.reorder_form`); measured in emit.reorder._shuffle
            shuffle_transpose=True,
            # one workgroup on one thread: no hand-off between workgroups (measured: docs/performance.md,
            # Tuned constants)
            memory_bound_flags=("--iree-llvmcpu-disable-distribution",),
            # a kernel called again gets its result buffer back from the cache instead of fresh pages,
            # so no allocation per call (measured: docs/performance.md, Tuned constants)
            allocators=("caching",),
            flags=(
                "--iree-hal-target-device=local",
                "--iree-hal-local-target-device-backends=llvm-cpu",
                "--iree-llvmcpu-target-cpu=host",
                _NO_DEMOTE_F64,
            ),
            supports_f64=True,
            driver_env="KGEN_CPU_DRIVER",
            torch_device="cpu",
            mmt4d_tile=host_mmt4d_tile(),
            # TargetCaps.depthwise_named_ops (measured: docs/performance.md, Tuned constants)
            depthwise_named_ops=True,
            # TargetCaps.blocked_conv_named_ops (README)
            blocked_conv_named_ops=True,
            # the host's own features: the module is compiled for it (target-cpu=host), the brgemm
            # variant's microkernels too
            cpu_features=frozenset(host_matrix_features()),
            bf16_dot_slow=host_bf16_dot_slow(),
            weight_panel_bytes=host_weight_panel_bytes(),
            # IREE_NOTES section 7: data tiling (mmt4d for matmuls, off by default in 3.13), its ukernels,
            # and IREE's own im2col rewrite of named convs
            flag_sets=(
                ("default", ()),
                ("dt", ("--iree-opt-data-tiling",)),
                ("dt+uk", ("--iree-opt-data-tiling", "--iree-llvmcpu-enable-ukernels=all")),
                ("im2col", ("--iree-global-opt-use-im2col-for-convs",)),
                # IREE_NOTES 7b: a u8 x s8 contraction (arith.extui x arith.extsi) lowers to the
                # vpdpbusd intrinsic (MMA_X86_AVX512VNNI_1x16x4_I32_UI8_I8) only with inner tiling;
                # s8 x s8 and float GEMMs get data tiling + ukernels as under dt+uk
                ("dt+uk+inner", ("--iree-opt-data-tiling", "--iree-llvmcpu-enable-ukernels=all",
                                 "--iree-llvmcpu-enable-inner-tiled")),
                # IREE_NOTES 7b: dispatch-creation data tiling of convolutions too, onto the NCHWc conv
                # ukernel (iree_uk_conv_nchwc, f32, 2D; other convs keep the usual path)
                ("dtconv+uk", ("--iree-dispatch-creation-data-tiling",
                               "--iree-dispatch-creation-experimental-set-data-tiling-ops=matmul",
                               "--iree-dispatch-creation-experimental-set-data-tiling-ops=convolution",
                               "--iree-llvmcpu-enable-ukernels=all")),
            ),
            # im2col: IREE's im2col rewrite of the named NHWC depthwise op fails to compile with two
            # images or more ("'linalg.batch_matvec' op inferred input/output operand #1 ... 32, but
            # found 16", g16mb2ic16ih9oc16kh3ph1, nhwc as well), and of a chain of conv_2d_nhwc_hwcf
            # whose inputs widen (bf16 or s8 into an f32 / i32 accumulator: "'arith.addf' op requires
            # the same type for all operands and results", nChw16c mb2ic32ih6oc20kh3ph1): under it
            # blocked and depthwise convs keep the generic
            flag_set_caps=(("dt+uk+inner", (("acc_apart", True), ("grouped_gemm_fails", True))),
                           ("im2col", (("depthwise_named_ops", False), ("blocked_conv_named_ops", False)))),
            doc="Host CPU through LLVM, tuned for this machine (target-cpu=host); the vmfb is not "
            "portable to CPUs with fewer ISA extensions.",
        ),
        Backend(
            name="vulkan",
            driver="vulkan",
            flags=(),
            tuned_per_device=True,              # lavapipe here; a real GPU elsewhere
            compiles_pack=False,
            supports_f64=False,
            reorder_form="transpose",
            # depthwise_conv_{1d_ncw_cw,2d_nchw_chw} on lavapipe: errors of tens on small integers
            # (e.g. g4ic4ih10oc4kh3sh2dh1ph1, g34ic34iw24oc34kw3pw1); NHWC depthwise and the generic are right
            named_conv_broken=frozenset({("nchw", "depthwise")}),
            # the SPIR-V path cannot compile the indirect conv's table gather inside the contraction for
            # many shapes (index tables promoted to workgroup memory: "failed to legalize memref.alloc")
            gather_in_contraction=False,
            # a conv output with the batch axis inner (CHWN4) is written wrongly for some batch sizes
            # (mb3 kh3: about half the outputs off; mb 2/4/8 right)
            batch_outer_only=True,
            # mb4ic1ih5oc16oh3kh3ph0, g3mb1ic3ih5oc48oh3kh3ph0: garbage up to 1e10; F(4,3), F(6,3) and
            # F(2,3) with 2+ channels per group are right. Not isolated yet.
            winograd_f2_one_channel_per_group_wrong=True,
            # --dt=bf16 --alg=winograd_f4 mb1ic5ih6oc7oh6kh3ph1: 247 of 252 outputs off (f32:bf16:f32 too, F(2,3)
            # too; f32 and f16 right); ic 5 and 6 wrong, 2, 4, 8, 12, 16 right; the same before bf16 operands
            # were read as bits. Refused where IC/G is not a multiple of 4
            winograd_bf16_wrong=True,
            # i8 x i8 -> i32 contractions that IREE treats as a matmul (1x1 convs, NCHW or batched) come out
            # wrong on lavapipe: mb1ic8ih2oc16oh2kh1ph0 s8:s8:s32 has 60 of 64 outputs off, the same with
            # u8 or i16 operands, the generic or the named op, either operand order. With i32 operands (or
            # an f32 accumulator) every output is right, so integer convs compute on widened operands.
            int8_contraction_wrong=True,
            # u8:s8:bf16 axb with dst per_dim_1 zero points, mb105ic100ih23oc32oh23kh1ph0: "failed to legalize
            # operation 'vector.bitcast' (vector<4xbf16>) -> vector<2xf32>" in the epilogue's dispatch; the same
            # module with i16 results and one tensor.bitcast of the buffer compiles
            bf16_results_as_bits=True,
            # bf16 x bf16 -> f32 and f32 x bf16 convs (test_conv_bfloat16_nxc, e.g. ic64ih56oc64oh56kh1ph0
            # axb, 15 of the first 73 problems): "failed to legalize operation 'vector.bitcast' (vector<2xf32>)
            # -> vector<4xbf16>" in the conv's dispatch, loading its bf16 operands
            bf16_operands_as_bits=True,
            # --alg=direct --dt=s8:s8:s32 --attr-zero-points=src:common:2 --stag=nChw16c --dtag=nChw16c
            # mb2ic4ih5oc4oh5kh3ph1: 47 of 800 outputs off (up to 1e9) in image 0, image 1 right; the same with
            # a weight zero point, nChw8c, mb4 3x3 images, any destination type; right with mb1, oc16, 7x7
            # images, 1x1 kernels, plain layouts, im2col and indirect; later u8:s8:f32 nChw8c src per_dim_1 +
            # wei zero points mb1ic3ih9oc5oh9kh3ph1 (one image) 128 of 648 off. spatial_pack: --attr-zero-points=wei:
            # common:1:s8 mb2ic8ih5oc8oh5kh3ph1 (nchw) 80 of 400 off, g2mb1 38 of 200; a source zero point
            # with the blocked tail above. Not isolated (barriers around the compensation change nothing).
            # direct then takes its generic form (emit.conv.common._zp_tail_wrong), right on all of the above
            zp_compensation_wrong=True,
            # im2col runs 3x3 and larger kernels many times faster than direct here; 1x1 layers take
            # im2col already; depthwise stays direct (measured: docs/performance.md, Tuned constants)
            auto_gemm_first=True,
            # lavapipe's loop limit (TargetCaps.max_reduction): ic16383 kh3 (147447 values an output)
            # came out wrong, ic7283 kh3 (65547) right; half of that runs whole, longer ones are split
            max_reduction=32768,
            doc="Vulkan/SPIR-V for a target matching Mesa lavapipe (dp4, no subgroup operations). linalg.pack/unpack "
            "fail to compile here ('failed to tile to invocations'): emit pad+expand+transpose.",
            target_attr=(
                '#hal.executable.target<"vulkan-spirv", "vulkan-spirv-fb", {iree_codegen.target_info = '
                '#iree_gpu.target<arch = "", features = "spirv:v1.6,cap:Shader", wgp = <compute = '
                'fp32|fp16|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = none, '
                'dot = dp4xi8toi32, mma = [], subgroup_size_choices = [8], max_workgroup_sizes = '
                '[64, 64, 64], max_thread_count_per_workgroup = 64, max_workgroup_memory_bytes '
                '= 32768, max_workgroup_counts = [65535, 65535, 65535]>>}>'),
            target_device="vulkan",
            idle_device_busy=True,
        ),
        Backend(
            name="cuda",
            driver="cuda",
            flags=(
                "--iree-hal-target-device=cuda",
                "--iree-cuda-target=sm_80",
                _NO_DEMOTE_F64,
            ),
            supports_f64=True,
            torch_device="cuda",
            # with sm_80's tensor-core MMA, several f16 / bf16 forms gave wrong results under every IREE
            # flag tried; compiled for sm_60 (no MMA) every one was right. The forms measured right keep
            # MMA (HALF_MMA_RIGHT_SM80), which is faster (measured: docs/performance.md, Tuned constants)
            half_multiply_flags=("--iree-cuda-target=sm_60",),
            half_mma_right=HALF_MMA_RIGHT_SM80,
            # direct is the fastest variant, or close to it, on 1x1 layers as on the others in f32, f16
            # and bf16 (measured: docs/performance.md, Tuned constants)
            auto_direct_1x1=True,
            # a 1x1 kernel's indirect conv, the table gather inside the contraction: "failed to
            # distribute" (every ResNet-50 1x1 layer); the gather as its own op compiles and runs
            gather_in_contraction_one_tap=False,
            tuned_per_device=True,
            doc="NVIDIA GPUs through PTX for sm_80 (sm_60, without tensor cores, for the f16/bf16 convolution "
            "forms sm_80's MMA computes wrongly), "
            "JIT-compiled by the driver on newer GPUs (IREE 3.13 knows no sm_90 target). Compiling needs "
            "no GPU; running does.",
        ),
    )
}


def get_backend(name: str | Backend) -> Backend:
    """Return the backend row for ``name`` (a ``Backend`` is passed through unchanged).

    Raises ``UnsupportedError`` naming the known backends, so a typo on the command line gives one
    actionable line rather than a ``KeyError``.
    """
    if isinstance(name, Backend):
        return name
    try:
        return BACKENDS[name]
    except (KeyError, TypeError):
        known = ", ".join(BACKENDS)
        raise UnsupportedError(f"unknown backend {name!r} (known: {known})") from None


CPU_THREADS_ENV = "KGEN_CPU_THREADS"
_runtime_flags_set = False


def cpu_threads() -> int:
    """The worker threads of the ``local-task`` CPU executor: ``$KGEN_CPU_THREADS``, else every CPU this
    process may run on."""
    v = os.environ.get(CPU_THREADS_ENV)
    if v is None:
        return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if not v.strip().isdigit() or int(v) < 1:
        raise UnsupportedError(f"{CPU_THREADS_ENV}={v!r} is not a positive number of threads")
    return int(v)


def prepare_runtime_env() -> None:
    """Set ``XDG_RUNTIME_DIR=/tmp`` if unset: the Vulkan loader otherwise prints warnings on stderr."""
    os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")


def configure_runtime() -> None:
    """Before the first driver is created (once per process): the CPU executor's threads (`cpu_threads`).
    Raises UnsupportedError for a bad ``$KGEN_CPU_THREADS``.

    Why the explicit thread count: IREE's default topology pins one worker to each physical core it
    detects, and in a VM a pinned worker that shares its core with the calling thread or another
    process waits for it; the default then ran a conv at anywhere between its full and half speed
    from call to call, where ``--task_topology_group_count=N`` (unpinned workers) held steady
    (measured: docs/performance.md, Tuned constants)."""
    global _runtime_flags_set
    prepare_runtime_env()
    if _runtime_flags_set:
        return
    threads = cpu_threads()
    import iree.runtime as rt
    rt.flags.parse_flags(f"--task_topology_group_count={threads}")
    request_amx_permission()
    _runtime_flags_set = True


def request_amx_permission() -> bool:
    """On a Linux CPU with AMX tiles: ask the kernel for the tile state, once per process and before any
    AMX instruction (the `brgemm_amx` kernels); without it the first tile instruction raises SIGILL
    (IREE_NOTES 7b). arch_prctl(ARCH_REQ_XCOMP_PERM = 0x1023, XFEATURE_XTILEDATA = 18), syscall 158 on
    x86-64. Returns whether the permission is held; False (and nothing asked) on other CPUs."""
    if "amx_tile" not in host_cpu_flags() or platform.system() != "Linux" or platform.machine() != "x86_64":
        return False
    try:
        return ctypes.CDLL(None, use_errno=True).syscall(158, 0x1023, 18) == 0
    except (OSError, AttributeError):
        return False


def iree_message(exc: BaseException | str) -> str:
    """Shorten an IREE runtime exception to one readable line.

    IREE messages look like ``Error creating driver: c/runtime/src/...c:66: UNAVAILABLE; <what>;
    while invoking ...`` followed by a stack of frames. We keep the status code's explanation (the
    part after the ``CODE;``) up to the first ``; while`` context, which is the part a user can act on.
    """
    text = str(exc).strip()
    line = text.splitlines()[0] if text else type(exc).__name__
    for code in (
        "INVALID_ARGUMENT; ",
        "UNAVAILABLE; ",
        "NOT_FOUND; ",
        "INCOMPATIBLE; ",
        "FAILED_PRECONDITION; ",
        "RESOURCE_EXHAUSTED; ",
        "OUT_OF_RANGE; ",
        "INTERNAL; ",
        "UNIMPLEMENTED; ",
        "ABORTED; ",
        "DEADLINE_EXCEEDED; ",
        "PERMISSION_DENIED; ",
        "UNKNOWN; ",
    ):
        i = line.find(code)
        if i >= 0:
            line = line[i + len(code):]
            break
    j = line.find("; while ")
    if j >= 0:
        line = line[:j]
    line = line.strip().rstrip(";")
    if len(line) > 300:
        line = line[:297] + "..."
    return line


_probe_lock = threading.Lock()


@functools.cache
def _probe_driver(driver: str) -> tuple[bool, str]:
    # functools.cache alone is not enough under threads: two threads could probe at once. The lock
    # makes the first probe the only one.
    with _probe_lock:
        try:
            import iree.runtime as rt
            configure_runtime()
        except UnsupportedError as e:
            return False, str(e)
        except Exception as e:  # noqa: BLE001 - a broken runtime install is "no device", with why
            return False, f"iree.runtime cannot be imported ({e}); install iree-base-runtime==3.13.0"
        # the driver's device list, not a device: a device would live for the process (and on lavapipe
        # keep two threads busy, `Backend.idle_device_busy`); runtime.get_device creates it on first use
        try:
            devices = rt.get_driver(driver).query_available_devices()
        except Exception as e:  # noqa: BLE001 - never raise from a probe
            return False, iree_message(e)
        if not devices:
            return False, f"{driver}: no device found"
        name = devices[0].get("name", "") if isinstance(devices[0], dict) else ""
        return True, f"{driver}: {name}" if name else driver


def device_available(backend: str | Backend) -> tuple[bool, str]:
    """Whether ``backend``'s driver lists a device here, and why not (or which one).

    The probe lists the driver's devices once per process (cached), creates none and never raises:
    tests use it to skip with the real reason, e.g. ``libcuda.so not available``, instead of failing.
    """
    return _probe_driver(get_backend(backend).default_driver)


# Mesa's software devices (lavapipe) name themselves after the llvmpipe rasteriser
_SOFTWARE_DEVICE = re.compile(r"llvmpipe|lavapipe|swiftshader", re.I)


def idle_device_busy_here(backend: str | Backend, driver: str) -> bool:
    """Whether ``backend``'s device on ``driver`` keeps host threads busy while idle
    (``Backend.idle_device_busy``): a software device does, a GPU does not. Where the driver lists no
    device, the backend's flag stands."""
    b = get_backend(backend)
    if not b.idle_device_busy:
        return False
    ok, name = _probe_driver(driver)
    return not ok or bool(_SOFTWARE_DEVICE.search(name))


def cuda_device_available() -> tuple[bool, str]:
    """``(True, device)`` if a CUDA device can be opened, else ``(False, reason)``; never raises."""
    return device_available("cuda")


def vulkan_device_available() -> tuple[bool, str]:
    """``(True, device)`` if a Vulkan device can be opened, else ``(False, reason)``; never raises."""
    return device_available("vulkan")
