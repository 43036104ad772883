"""The host-threads driver for reorders (`partition.reorder_host_parts`, `api.ReorderKernel`): a reorder
cut into slabs of the outermost dim it shares in every layout (images, or channel blocks of one
image), each slab a reorder of its own on local-sync, run from its own thread.

The geometry is checked against the float64 reference alone (each part's reference on its ranges of
the whole buffers equals the whole reference there, and the parts tile the destination), then
kernels are checked exactly against the reference, bound, rerun and chained."""
from __future__ import annotations

import numpy as np
import pytest

from generator.api import ReorderKernel, make_problem, reorder, reorder_chain
from generator.compile.backends import HOST_THREADS
from generator.errors import InputError, ProblemError, UnsupportedError
from generator.layout import MemoryDesc
from generator.problem.partition import reorder_host_parts
from generator.problem.reorder import ReorderProblem
from generator.runtime import host_threads
from generator.verify import SEED, check_reorder, fill_reorder_source, reorder_quant_values


def rp(dims, sdt, stag, ddt, dtag, **quant) -> ReorderProblem:
    return make_problem(MemoryDesc(dims, sdt, stag), MemoryDesc(dims, ddt, dtag), **quant)


# (id, chain, parts, cut dim): images; channel blocks of one image (tails in the last part only);
# per-channel quantization cut with them; 4-bit buffers on whole bytes; a folded chain; 3 parts
CUT_CASES = [
    ("images plain", [rp((5, 3, 4, 4), "f32", "nchw", "f32", "nhwc")], 2, 0),
    ("images blocked tail", [rp((3, 17, 3, 5), "f32", "nchw", "f32", "nChw16c")], 2, 0),
    ("images blocked to plain", [rp((4, 20, 2, 3), "f32", "nChw16c", "f32", "nchw")], 3, 0),
    ("channel blocks of one image", [rp((1, 40, 3, 3), "f32", "nchw", "f32", "nChw16c")], 2, 1),
    ("channel blocks 8 and 16", [rp((1, 50, 2, 2), "f32", "nChw8c", "f32", "nChw16c")], 2, 1),
    ("per-channel quantization", [rp((1, 40, 2, 3), "f32", "nchw", "s8", "nChw8c",
                                     src_scale="per_dim_1", dst_zp="per_dim_01")], 2, 1),
    ("per-image quantization", [rp((4, 6, 2, 2), "s8", "nchw", "u8", "nhwc", src_zp="per_dim_0",
                                   dst_scale="common")], 2, 0),
    ("4-bit on whole bytes", [rp((4, 3, 3, 3), "s4", "nchw", "s8", "nhwc")], 2, 0),
    ("4-bit odd images two a unit", [rp((5, 3, 3, 3), "f32", "nchw", "u4", "nhwc")], 2, 0),
    ("folded chain", [rp((6, 5, 2, 2), "f32", "nchw", "f32", "nhwc"), rp((6, 5, 2, 2), "f32", "nhwc", "bf16", "nChw4c")],
     2, 0),
    # the layouts' outermost dims differ: slabs of the destination's, each part reading a strided view
    # of the whole source buffer (`ReorderProblem.src_buffer_len`), with no pad of it
    ("rows of one image from a strided source", [rp((1, 6, 5, 3), "f32", "nchw", "f32", "nhwc")], 2, 2),
    ("rows, three parts", [rp((1, 3, 7, 4), "s8", "nchw", "s8", "nhwc")], 3, 2),
    ("channels from channels-last to plain", [rp((1, 9, 3, 4), "f32", "nhwc", "f32", "nchw")], 2, 1),
    ("plain 3D, depth slabs", [rp((1, 5, 3, 4, 2), "f32", "ncdhw", "f32", "ndhwc")], 2, 2),
    ("rows with per-channel quantization", [rp((1, 6, 4, 3), "f32", "nchw", "s8", "nhwc", src_scale="per_dim_1",
                                               dst_zp="per_dim_012")], 2, 2),
]


def _data(chain, rng):
    src = fill_reorder_source(chain[0].src, rng, chain[-1].dst)
    quants = [reorder_quant_values(p, rng, None) for p in chain]
    return src, quants


def _reference(chain, src, quants):
    buf = src
    for p, q in zip(chain, quants):
        buf = p.reference(buf, q)
    return buf


@pytest.mark.parametrize("chain,n,dim", [c[1:] for c in CUT_CASES], ids=[c[0] for c in CUT_CASES])
def test_parts_reproduce_the_whole_reference(chain, n, dim):
    parts = reorder_host_parts(chain, n)
    assert not isinstance(parts, str), parts
    assert 1 < len(parts) <= n and {p.dim for p in parts} == {dim}
    rng = np.random.default_rng(SEED)
    src, quants = _data(chain, rng)
    whole = _reference(chain, src, quants)
    covered = np.zeros(whole.size, bool)
    for part in parts:
        pq = [{arg: part.quant(p, arg, q[arg]) for arg, _ in p.quant_args} for p, q in zip(chain, quants)]
        got = _reference(part.problems, src[part.src[0]:part.src[1]], pq)
        np.testing.assert_array_equal(got, whole[part.dst[0]:part.dst[1]], err_msg=f"seed {SEED}, {part[1:]}")
        assert not covered[part.dst[0]:part.dst[1]].any()
        covered[part.dst[0]:part.dst[1]] = True
    assert covered.all()
    # only the last part may hold a blocked tail: every other slab is whole blocks of every layout
    for part in parts[:-1]:
        for t in (part.problems[0].src,) + tuple(p.dst for p in part.problems):
            assert (part.hi - part.lo) % t.block_of(dim) == 0


@pytest.mark.parametrize("chain,why", [
    # C against H: a strided view of the source would do, but not in a chain nor inside bytes
    ([rp((1, 4, 3, 3), "f32", "nchw", "f32", "nhwc"), rp((1, 4, 3, 3), "f32", "nhwc", "f32", "nchw")],
     "outermost dims"),
    ([rp((1, 12, 3, 3), "s4", "nchw", "s4", "nChw16c")], "outermost dims"),       # one C block: H
    # views between plain and blocked layouts lost to one thread (linalg.pack of a strided view)
    ([rp((1, 40, 3, 3), "f32", "nhwc", "f32", "nChw16c")], "only between plain layouts"),
    ([rp((1, 20, 5, 3), "f32", "nChw8c", "f32", "nhwc")], "only between plain layouts"),
    ([rp((2, 3, 3, 3), "s4", "nchw", "s4", "nhwc")], "inside a byte"),   # 27 nibbles an image, 2 images
    ([make_problem(MemoryDesc((2, 3, 4, 4), "f32", "nchw"),
                   MemoryDesc((2, 3, 4, 4), "f32", strides=(64, 16, 4, 1)))], "strided"),
    ([rp((0, 3, 4, 4), "f32", "nchw", "f32", "nhwc")], "zero-volume"),
])
def test_what_cannot_be_cut_says_why(chain, why):
    r = reorder_host_parts(chain, 2)
    assert isinstance(r, str) and why in r
    assert reorder_host_parts([rp((4, 3), "f32", "ab", "f32", "ab")], 1) == "one thread: nothing to cut"
    with pytest.raises(ProblemError):
        reorder_host_parts(chain, 0)


@pytest.mark.parametrize("chain", [c[1] for c in CUT_CASES], ids=[c[0] for c in CUT_CASES])
def test_host_threads_reorder_matches_reference(chain, kgen_cache_dir, monkeypatch):
    monkeypatch.setenv("KGEN_CPU_THREADS", "2")
    k = ReorderKernel(chain, "llvm-cpu", kgen_cache_dir, driver=HOST_THREADS)
    assert k.driver == HOST_THREADS and len(k._parts) == 2
    # every part has its own module: an IREE VM context runs one call at a time
    assert k._parts[0][0]._fn.module is not k._parts[1][0]._fn.module
    assert k._parts[0][0]._fn.module.device is not k._parts[1][0]._fn.module.device    # a device each
    if len(chain) == 1:
        assert check_reorder(k, chain[0]) is None, f"seed {SEED}"
    rng = np.random.default_rng(SEED)
    src, quants = _data(chain, rng)
    kw = {(f"s{i}_{a}" if len(chain) > 1 else a): v for i, q in enumerate(quants) for a, v in q.items()}
    want = _reference(chain, src, quants)
    np.testing.assert_array_equal(k(src, **kw), want, err_msg=f"seed {SEED}")
    bound = k.bind(src, **kw)
    for _ in range(3):                      # reruns: the parts' buffers are reused
        bound()
    got = bound.numpy()[0]
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    one = ReorderKernel(chain, "llvm-cpu", kgen_cache_dir, driver="local-sync")
    np.testing.assert_array_equal(one(src, **kw), got)
    if not kw:          # invoke chains device tensors on the backend's memory-bound driver
        np.testing.assert_array_equal(k.invoke(src).to_numpy().view(got.dtype), got)
        # each part is a reorder of its own, callable on its range of the source (the whole buffer for
        # a strided view of it)
        for pk, part in k._parts:
            np.testing.assert_array_equal(pk(src[part.src[0]:part.src[1]]), want[part.dst[0]:part.dst[1]])
    else:
        with pytest.raises(InputError, match="call it instead"):
            k.invoke(src)
    # no one module holds the whole: each part's is listed, and the MLIR is the parts'
    assert k.artifact is None and len(k.part_artifacts) == 2
    assert all(p.name in k.mlir for p in k._parts[0][1].problems + k._parts[1][1].problems)
    with pytest.raises(UnsupportedError, match="numpy"):
        bound.results()


def test_reorder_driver_cuts_large_reorders(kgen_cache_dir, monkeypatch, tmp_path):
    from generator.select import HOST_THREADS_REORDER_BYTES, reorder_driver, table

    monkeypatch.delenv("KGEN_CPU_DRIVER", raising=False)
    monkeypatch.setenv("KGEN_CPU_THREADS", "2")
    monkeypatch.setenv("KGEN_TUNED_TABLE", str(tmp_path / "tuned.json"))
    big = [rp((32, 64, 56, 56), "f32", "nchw", "f32", "nhwc")]                 # 51 MB moved
    assert big[0].src.size_bytes * 2 >= max(HOST_THREADS_REORDER_BYTES.values())
    assert reorder_driver(big, "llvm-cpu") == HOST_THREADS
    mid = [rp((4, 64, 56, 56), "f32", "nchw", "f32", "nhwc")]                   # 6.4 MB
    small = [rp((2, 32, 56, 56), "f32", "nchw", "f32", "nhwc")]                 # 1.6 MB
    try:
        host_threads.configure("locks")
        assert reorder_driver(mid, "llvm-cpu") is None
        host_threads.configure("native")
        assert reorder_driver(mid, "llvm-cpu") == HOST_THREADS
        assert reorder_driver(small, "llvm-cpu") is None
    finally:
        host_threads.configure()
    one_image = [rp((1, 512, 56, 56), "f32", "nchw", "f32", "nhwc")]          # rows, a view of the source each
    assert reorder_driver(one_image, "llvm-cpu") == HOST_THREADS
    assert reorder_driver(one_image + [rp((1, 512, 56, 56), "f32", "nhwc", "f32", "nchw")], "llvm-cpu") is None
    assert reorder_driver(big, "vulkan") is None
    monkeypatch.setenv("KGEN_CPU_THREADS", "1")
    assert reorder_driver(big, "llvm-cpu") is None
    monkeypatch.setenv("KGEN_CPU_THREADS", "2")
    # a tuned entry decides
    from generator.emit.reorder import kernel_name
    table.store({table.reorder_key(kernel_name(big), "llvm-cpu"): {"form": "transpose", "driver": "local-sync",
                                                                    "seconds": 1e-3}})
    assert reorder_driver(big, "llvm-cpu") == "local-sync"
    # the user's driver decides
    monkeypatch.setenv("KGEN_CPU_DRIVER", "local-task")
    assert reorder_driver(big, "llvm-cpu") is None


def test_host_threads_reorder_from_the_environment(kgen_cache_dir, monkeypatch):
    monkeypatch.setenv("KGEN_CPU_THREADS", "2")
    monkeypatch.setenv("KGEN_CPU_DRIVER", HOST_THREADS)
    s = MemoryDesc((2, 3, 4, 4), "f32", "nchw")
    assert reorder(s, MemoryDesc(s.dims, "f32", "nhwc"), cache_dir=kgen_cache_dir).driver == HOST_THREADS
    one = MemoryDesc((1, 3, 4, 4), "u4", "nchw")                     # cannot be cut: local-sync
    assert reorder(one, MemoryDesc(one.dims, "u4", "nhwc"), cache_dir=kgen_cache_dir).driver == "local-sync"
    rows = MemoryDesc((1, 3, 4, 4), "f32", "nchw")                   # rows read through a view of the source
    assert reorder(rows, MemoryDesc(rows.dims, "f32", "nhwc"), cache_dir=kgen_cache_dir).driver == HOST_THREADS
    chain = reorder_chain([s, MemoryDesc(s.dims, "f32", "nhwc"), MemoryDesc(s.dims, "f32", "nChw8c")],
                          cache_dir=kgen_cache_dir)
    assert chain.driver == HOST_THREADS
    x = np.arange(s.buffer_len, dtype=np.float32)
    np.testing.assert_array_equal(chain(x), chain.reference(x))
    empty = MemoryDesc((0, 3, 4, 4), "f32", "nchw")
    z = reorder(empty, MemoryDesc(empty.dims, "f32", "nhwc"), driver=HOST_THREADS)   # nothing to run, legal
    assert z(np.zeros(0, np.float32)).size == 0


def test_parts_of_a_big_reorder_stream_as_the_whole_would(kgen_cache_dir):
    # the parts of a destination bigger than the caches store it at the same time: each part streams
    # its whole-line stores as the whole would (emit.reorder.shuffle_streams), although the part alone
    # is under SHUFFLE_STREAM_BYTES; the part's name says what it is a part of, and it still computes
    # its slab of the whole (checked against the reference)
    import generator.emit.reorder as er
    from generator.emit.reorder import render_reorder

    whole = rp((16, 64, 56, 56), "f32", "nchw", "f32", "nhwc")
    assert whole.dst.size_bytes > er.SHUFFLE_STREAM_BYTES
    parts = reorder_host_parts([whole], 2)
    for part in parts:
        (p,) = part.problems
        assert p.whole_dst_bytes == whole.dst.size_bytes and p.dst.size_bytes <= er.SHUFFLE_STREAM_BYTES
        assert p.name.endswith(f"__ofdst{whole.dst.size_bytes}")
        assert "nontemporal = true" in render_reorder([p], form="shuffle")
        alone = ReorderProblem(p.src, p.dst)
        assert "nontemporal = true" not in render_reorder([alone], form="shuffle")
    k = ReorderKernel([whole], "llvm-cpu", kgen_cache_dir, driver=HOST_THREADS, form="shuffle")
    assert check_reorder(k, whole) is None


def test_a_strided_slab_reads_the_whole_source_without_padding_it(kgen_cache_dir):
    """Rows 28..56 of a 1x256x56x56 nchw source, to nhwc: the part's kernel takes the whole source
    buffer and slices its rows out of it. Padding the view up to its pitched volume instead copied the
    whole buffer in a dispatch of its own (a half took 183 us against 139 us for the whole reorder)."""
    from generator.emit.reorder import render_reorder

    whole = rp((1, 256, 56, 56), "f32", "nchw", "f32", "nhwc")
    parts = reorder_host_parts([whole], 2)
    assert [(p.lo, p.hi, p.src, p.dst) for p in parts] == [(0, 28, (0, 802816), (0, 401408)),
                                                          (28, 56, (0, 802816), (401408, 802816))]
    for part in parts:
        (p,) = part.problems
        assert p.src_buffer_len == 802816 and p.input_shapes()[0][1] == (802816,)
        assert p.name.endswith("__srcbuf802816__ofdst3211264")
        mlir = render_reorder([p])
        assert "tensor.pad" not in mlir and "tensor<802816xf32>" in mlir
    assert "extract_slice %v1[0, 0, 28, 0] [1, 256, 28, 56]" in render_reorder(list(parts[1].problems))
    view = ReorderKernel(list(parts[1].problems), "llvm-cpu", kgen_cache_dir, driver="local-sync")
    x = np.arange(802816, dtype=np.float32)
    np.testing.assert_array_equal(view(x), whole.reference(x)[401408:])
    with pytest.raises(InputError, match="out of a source buffer of 802816"):
        view(x[:-56])
    with pytest.raises(ProblemError, match="cannot hold"):
        ReorderProblem(parts[1].problems[0].src, whole.dst.__class__((1, 256, 28, 56), "f32", "nhwc"),
                       src_buffer_len=1000)
