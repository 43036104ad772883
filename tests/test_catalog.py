"""The checked-in mlir/ must be exactly what the catalog renders now (no compiler needed)."""

import pytest

from generator.catalog import load_catalog, render_catalog, repo_root
from generator.compile import BACKENDS

ROOT = repo_root()


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_mlir_dir_is_up_to_date(backend):
    texts = render_catalog(backend)
    on_disk = {f"{backend}/{p.name}" for p in (ROOT / "mlir" / backend).glob("*.mlir")}
    assert on_disk == set(texts), "mlir/ is stale: run ./build.sh (and --backend=vulkan / cuda)"
    for rel, text in texts.items():
        assert (ROOT / "mlir" / rel).read_text() == text, f"mlir/{rel} is stale: run ./build.sh"


@pytest.mark.parametrize("features", [("avx2",), ("avx2", "avx512f", "avx512_vnni", "avx512_bf16", "avx512_fp16",
                                                 "amx_bf16", "amx_int8")])
def test_mlir_dir_is_the_same_on_every_cpu(monkeypatch, features):
    """The catalog does not depend on the host's matrix features or vector width: on an AVX2-only CPU
    and on an AMX Xeon it renders what an AVX-512 EPYC renders (a Winograd kernel's form did)."""
    import dataclasses

    from generator.compile.backends import MMT4D_TILE_BY_VECTOR_BITS

    here = render_catalog("llvm-cpu")
    bits = 512 if "avx512f" in features else 256
    other = dataclasses.replace(BACKENDS["llvm-cpu"], cpu_features=frozenset(features),
                                mmt4d_tile=MMT4D_TILE_BY_VECTOR_BITS[bits])
    monkeypatch.setitem(BACKENDS, "llvm-cpu", other)
    assert render_catalog("llvm-cpu") == here


def test_catalog_covers_the_promised_formats():
    entries = load_catalog()
    tags = {e.case.dtag for e in entries} | {e.case.stag for e in entries}
    for t in ("nChw8c", "nChw16c", "NCHW4", "NCHW32", "NCHW64", "CHWN4", "OIhw16i16o"):
        assert t in tags
    assert {e.problem.src.dtype.name for e in entries} >= {"f32", "s8"}
    assert len({e.function for e in entries}) == len(entries)


def test_generated_files_carry_the_header():
    text = next(iter(render_catalog("llvm-cpu").values()))
    assert text.startswith("// Auto-generated file. Do not edit!\n//   Template: reorder.mlir.j2\n")
    assert "//   Generator: kgen " in text.splitlines()[2]


def test_catalog_has_every_conv_variant_plain_and_blocked():
    from generator.emit.conv import VARIANTS

    convs = [e for e in load_catalog() if e.kind == "conv"]
    algs = {e.problem.alg for e in convs}
    assert {"direct", "im2col", "winograd", "spatial_pack", "indirect"} <= algs <= set(VARIANTS)
    for alg in ("direct", "im2col", "spatial_pack", "indirect"):
        kinds = {e.problem.src.is_blocked for e in convs if e.problem.alg == alg}
        assert kinds == {True, False}, alg
    assert {e.problem.src.dtype.name for e in convs} == {"f32", "f16", "bf16", "s8", "u8"}
    assert any(e.problem.has_attributes for e in convs)
    text = render_catalog("llvm-cpu")[f"llvm-cpu/{convs[0].function}.mlir"]
    assert text.startswith("// Auto-generated file. Do not edit!\n//   Template: conv.mlir.j2\n")
