"""The host CPU: what ``/proc/cpuinfo`` and Linux sysfs say about this machine (ISA flags, matrix
features, model, vendor, L2 size, vector width), and the per-CPU choices the llvm-cpu backend row
takes from them (`host_bf16_dot_slow`, `host_weight_panel_bytes`). `compile.cache.host_cpu_id`
fingerprints the CPU from the same fields.
"""
from __future__ import annotations

import functools
import os
import platform


def parse_cpuinfo(lines) -> dict[str, str]:
    """``/proc/cpuinfo``'s fields, the first value of each (the first CPU's: the cores of one machine
    alike)."""
    fields: dict[str, str] = {}
    for ln in lines:
        k, _, v = ln.partition(":")
        fields.setdefault(k.strip(), v.strip())
    return fields


@functools.cache
def host_cpuinfo() -> dict[str, str]:
    """This machine's ``/proc/cpuinfo`` fields (`parse_cpuinfo`); empty where it cannot be read. The one
    reader of that file: the flags, the model and the CPU fingerprint (`compile.cache.host_cpu_id`)."""
    try:
        with open("/proc/cpuinfo") as f:
            return parse_cpuinfo(f)
    except OSError:
        return {}


@functools.cache
def host_cpu_flags() -> frozenset[str]:
    """This CPU's ISA flags (``/proc/cpuinfo``'s ``flags`` or ``Features`` line; empty if unreadable)."""
    info = host_cpuinfo()
    return frozenset((info.get("flags") or info.get("Features") or "").split())


#: the ISA features that decide which int8 / bf16 / f16 paths a CPU has, in /proc/cpuinfo's spelling
#: (IREE's ukernels: avx512_vnni, avx512_bf16; AMX tiles: amx_bf16, amx_int8)
MATRIX_FEATURES = ("avx2", "avx512f", "avx512_vnni", "avx512_bf16", "avx512_fp16", "amx_bf16", "amx_int8",
                   "asimd", "i8mm", "bf16")


def host_matrix_features() -> tuple[str, ...]:
    """Which of `MATRIX_FEATURES` this CPU has, in that order."""
    flags = host_cpu_flags()
    return tuple(f for f in MATRIX_FEATURES if f in flags)


def cpu_model_name(info: dict[str, str]) -> str:
    """A CPU's model name with its family and model numbers where cpuinfo gives them (or
    ``platform.processor()``; "unknown CPU" if neither says). The numbers tell CPUs apart that a VM names
    alike: "AMD EPYC" is a Zen 4 (family 25, model 17) or a Zen 5 (family 26, model 2), whose AVX-512
    rates differ."""
    name = info.get("model name") or platform.processor() or "unknown CPU"
    if info.get("cpu family") and info.get("model"):
        name += f" (family {info['cpu family']}, model {info['model']})"
    return name


def host_cpu_model() -> str:
    """This CPU's `cpu_model_name`."""
    return cpu_model_name(host_cpuinfo())


def host_cpu_description() -> str:
    """The CPU a speed figure was measured on, as the benchmarks print it: model, cores and features."""
    feats = " ".join(host_matrix_features()) or "none of " + ", ".join(MATRIX_FEATURES[:3])
    return f"{host_cpu_model()}, {os.cpu_count() or 1} cores, {feats}"


def host_is_intel() -> bool:
    """The host CPU is Intel's (vendor GenuineIntel): the vendor rules below were measured on its cores."""
    return host_cpuinfo().get("vendor_id") == "GenuineIntel"


def host_bf16_dot_slow() -> bool:
    """True where this CPU's vdpbf16ps (32 bf16 multiply-adds an instruction) runs no faster than the f32
    FMAs (16 each, two ports), so bf16 is faster widened to f32 (`emit.conv.brgemm.isa.FMA_ISAS`): Intel's cores;
    on AMD's, vdpbf16ps is the faster bf16 kernel (measured: docs/performance.md, Tuned constants).
    `kgen tune` measures both."""
    return host_is_intel()


def _sysfs(path: str) -> str:
    """One sysfs value, stripped (OSError where it cannot be read)."""
    with open(path) as f:
        return f.read().strip()


def host_l2_bytes(root: str = "/sys/devices/system/cpu/cpu0/cache") -> int | None:
    """The size of one core's L2 cache (Linux sysfs, cpu0: index*/level, type, size such as "2048K"),
    or None where it cannot be read."""
    try:
        entries = sorted(os.listdir(root))
    except OSError:
        return None
    for e in entries:
        try:
            level, kind, size = (_sysfs(f"{root}/{e}/{name}") for name in ("level", "type", "size"))
        except OSError:
            continue
        if level == "2" and kind in ("Unified", "Data"):
            scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(size[-1:], 1)
            digits = size[:-1] if size[-1:] in "KMG" else size
            return int(digits) * scale if digits.isdigit() else None
    return None


def host_weight_panel_bytes() -> int | None:
    """brgemm's weight panel bound (`TargetCaps.weight_panel_bytes`): 3/8 of the L2 on Intel cores, none
    elsewhere. On Intel cores a register block whose weight panel outgrows that share of the L2 runs
    slower than a narrower one; on AMD's a larger panel was no slower, so they are left unbounded until
    measured on such layers (measured: docs/performance.md, Tuned constants)."""
    if not host_is_intel():
        return None
    l2 = host_l2_bytes()
    return l2 * 3 // 8 if l2 else None


def host_vector_bits() -> int:
    """The widest f32 vector the host CPU computes with: 512 (AVX-512), 256 (AVX/AVX2), else 128."""
    flags = host_cpu_flags()
    return 512 if "avx512f" in flags else 256 if "avx" in flags or "avx2" in flags else 128


def host_cores(cpus, root: str = "/sys/devices/system/cpu") -> int | None:
    """How many distinct physical cores the logical CPUs `cpus` sit on (Linux sysfs: each CPU's
    topology/physical_package_id and core_id; two hyperthreads of a core count once), or None where
    it cannot be read. A VM's is the topology its hypervisor shows."""
    cores = set()
    for c in cpus:
        try:
            cores.add((_sysfs(f"{root}/cpu{c}/topology/physical_package_id"), _sysfs(f"{root}/cpu{c}/topology/core_id")))
        except OSError:
            return None
    return len(cores) or None
