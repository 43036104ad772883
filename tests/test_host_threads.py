"""The host-threads driver: a convolution cut into parts (`partition.conv_host_parts`: images, or bands of
output rows of one channels-last image), each part a convolution of its own run from its own host
thread. The cut is checked against the float64 reference of the whole problem (every part's reference
on its source range equals the whole reference on its destination range: halos, padding, strides,
dilation, zero points, the sum's prior destination), then run on llvm-cpu and checked like any kernel;
bad uses give typed errors."""
from __future__ import annotations

import shlex
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from generator.api import conv, reorder
from generator.benchdnn.conv import conv_problem, parse_conv_args
from generator.compile import get_backend
from generator.compile.backends import HOST_THREADS
from generator.errors import UnsupportedError
from generator.layout import MemoryDesc
from generator.problem.conv import ConvProblem
from generator.problem.partition import conv_host_parts
from generator.runtime import chain_driver, host_threads, upload
from generator.verify import SEED, check_conv, conv_call


def problem(line: str) -> ConvProblem:
    (case,) = list(parse_conv_args(shlex.split(line)))
    return conv_problem(case)


# (id, line, parts): row bands (stride, dilation, asymmetric and negative right padding, a band that
# starts inside the top padding, 7x7 stem), image cuts in plain and blocked layouts (tails), attributes
CUT_CASES = [
    ("rows 3x3", "--stag=nhwc --dtag=nhwc mb1ic5ih9oc7oh9kh3ph1", 2),
    ("rows 3 parts odd", "--stag=nhwc --dtag=nhwc mb1ic3ih10oc4oh10kh3ph1", 3),
    ("rows stride dilation", "--stag=nhwc --dtag=nhwc mb1ic4ih17iw9oc6oh9ow5kh3kw3sh2sw2ph2pw1dh1dw1", 2),
    ("rows negative right pad", "--stag=nhwc --dtag=nhwc mb1ic4ih12oc4oh6kh1sh2ph0", 2),
    ("rows stem 7x7 s2", "--stag=nhwc --dtag=nhwc mb1ic3ih30oc8oh15kh7sh2ph3", 2),
    ("rows more parts than halo", "--stag=nhwc --dtag=nhwc mb1ic2ih6oc3oh6kh5ph2", 4),
    ("rows caller leads", "--stag=nhwc --dtag=nhwc mb1ic3ih20oc4oh20kh3ph1", 2),
    ("images plain", "mb3ic5ih6oc7oh6kh3ph1", 2),
    ("images caller leads", "mb16ic2ih3oc3oh3kh3ph1", 2),
    ("images blocked tail", "--stag=nChw16c --dtag=nChw16c mb5ic17ih4oc20oh4kh3ph1", 2),
    ("images 3D", "--stag=ndhwc --dtag=ndhwc mb2ic3id4ih4iw4oc5od4oh4ow4kd3kh3kw3pd1ph1pw1", 2),
    ("rows zero points sum", "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc --attr-scales=src:common:0.5+wei:per_oc "
                             "--attr-zero-points=src:common:3+dst:common:2 --attr-post-ops=sum:0.5:1+relu "
                             "mb1ic6ih8oc5oh8kh3ph1", 2),
    ("images per_dim_1 zp", "--dt=u8:s8:s32 --attr-zero-points=src:per_dim_1+wei:common:2:s8 "
                            "g2mb4ic6ih5oc4kh3ph1", 3),
    # one image whose destination has channels outermost: slabs of output channels (16 a slab where
    # there are two or more), each part reading the whole source with its channels' weights, bias and values
    ("channels nchw 16 a unit", "mb1ic5ih6oc40oh6kh3ph1", 2),
    ("channels few", "mb1ic3ih5oc6oh5kh3ph1", 3),
    ("channels blocked tail", "--stag=nChw16c --dtag=nChw16c --wtag=OIhw16i16o mb1ic17ih4oc40oh4kh3ph1", 2),
    ("channels g1 blocked weights", "--stag=nChw8c --dtag=nChw8c --wtag=gOIhw8i8o g1mb1ic8ih5oc24oh5kh3ph1", 2),
    ("channels 1D", "mb1ic4iw9oc34ow9kw3pw1", 2),
    ("channels src nhwc", "--stag=nhwc --dtag=nchw mb1ic4ih5oc8oh5kh3sh2ph1", 2),
    ("channels per_oc scales zp sum", "--dt=u8:s8:u8 --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
                                      "--attr-zero-points=src:common:3+dst:per_dim_1 "
                                      "--attr-post-ops=sum:0.5:1+relu mb1ic6ih7oc20oh7kh3ph1", 2),
    # one channels-last image whose rows do not cut evenly (7 in 4 + 3): even slabs of its output
    # channels, 64 or more a part, each written as a strided slab of columns (`ConvPart.dst_cols`)
    ("channels-last 7 rows", "--stag=nhwc --dtag=nhwc mb1ic5ih7oc128oh7kh3ph1", 2),
    ("channels-last 3 parts", "--stag=nhwc --dtag=nhwc mb1ic3ih7iw5oc192oh7ow5kh3kw3ph1pw1", 3),
    ("channels-last per_oc scales zp sum", "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc "
                                           "--attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
                                           "--attr-zero-points=src:common:3+dst:per_dim_1 "
                                           "--attr-post-ops=sum:0.5:1+relu mb1ic6ih5oc128oh5kh3ph1", 2),
    ("channels-last src nchw", "--stag=nchw --dtag=nhwc mb1ic4ih5oc128oh5kh3sh2ph1", 2),
    ("channels-last 1D", "--stag=nwc --dtag=nwc mb1ic4iw9oc128ow9kw3pw1", 2),
    ("channels-last 3D", "--stag=ndhwc --dtag=ndhwc mb1ic3id3ih4iw4oc128od3oh4ow4kd3kh3kw3pd1ph1pw1", 2),
    # one channels-last 1D sequence (WaveNet's): bands of output columns, as rows in 2D
    ("columns 1D", "--stag=nwc --dtag=nwc mb1ic4iw20oc6ow20kw3pw1", 2),
    ("columns 1D stride dilation", "--stag=nwc --dtag=nwc mb1ic4iw41oc6kw3sw2pw1dw1", 2),
    ("columns 1D wavenet 3 parts", "--stag=nwc --dtag=nwc mb1ic8iw33oc8kw2pw0", 3),
    ("columns 1D zp sum", "--dt=u8:s8:u8 --stag=nwc --dtag=nwc --attr-scales=src:common:0.5+wei:per_oc "
                          "--attr-zero-points=src:common:3+dst:common:2 --attr-post-ops=sum:0.5:1+relu "
                          "mb1ic6iw16oc5ow16kw3pw1", 2),
    # one channels-last 3D image whose planes cut evenly: bands of output planes, as rows in 2D
    ("planes 3D", "--stag=ndhwc --dtag=ndhwc mb1ic3id6ih4iw4oc5od6oh4ow4kd3kh3kw3pd1ph1pw1", 2),
    ("planes 3D stride dilation", "--stag=ndhwc --dtag=ndhwc mb1ic3id13ih4iw4oc5od4oh4ow4kd3kh3kw3sd3dd1pd1ph1pw1", 2),
    ("planes 3D depthwise zp sum", "--dt=u8:s8:u8 --stag=ndhwc --dtag=ndhwc --attr-scales=src:common:0.5+wei:per_oc "
                                   "--attr-zero-points=dst:common:2 --attr-post-ops=sum:0.5:1+relu "
                                   "g24mb1ic24id8ih5iw5oc24od8oh5ow5kd5kh3kw3pd2ph1pw1", 2),
    ("channels-last one row", "--stag=nhwc --dtag=nhwc mb1ic4ih1iw16oc128oh1ow16kh1kw3pw1", 2),
    # one image whose destination has channels outermost, with more source than weights: bands of rows,
    # each written as a strided slab of every channel block and read as a view of the whole source
    # (or a range of a channels-last one)
    ("outer rows nchw", "mb1ic16ih12oc8oh12kh3ph1", 2),
    ("outer rows blocked tails", "--stag=nChw16c --dtag=nChw16c mb1ic17ih16oc20oh16kh3ph1", 2),
    ("outer rows 3 parts stride", "mb1ic8ih25iw9oc4oh12ow9kh3kw3sh2ph1pw1", 3),
    ("outer rows src nhwc", "--stag=nhwc --dtag=nchw mb1ic8ih20oc8oh10kh3sh2ph1", 2),
    ("outer rows zp sum", "--dt=u8:s8:u8 --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
                          "--attr-zero-points=src:common:3+dst:per_dim_1 --attr-post-ops=sum:0.5:1+relu "
                          "mb1ic8ih12oc8oh12kh3ph1", 2),
    # grouped: slabs of whole groups, each part reading its groups' input channels
    ("groups nchw", "g4mb1ic8ih5oc12oh5kh3ph1", 2),
    ("depthwise blocked tail", "--stag=nChw16c --dtag=nChw16c g40mb1ic40ih5oc40oh5kh3ph1", 2),
    ("depthwise src per_dim_1 zp", "--dt=u8:s8:s32 --attr-zero-points=src:per_dim_1+dst:per_dim_1 "
                                   "g32mb1ic32ih4oc32oh4kh3ph1", 2),
    ("groups blocked weights", "--stag=nChw8c --dtag=nChw8c --wtag=gOIhw8i8o g2mb1ic16ih4oc16oh4kh3ph1", 2),
]


def _part_values(p, part, call):
    """The whole call's weights, bias and quantization values as a part sees them: for a cut on output
    channels, those channels' (the logical weights cut on O and written in the part's format)."""
    if part.oc is None:
        return call.wei, call.bias, call.quant
    lo, hi = part.oc
    logical = p.wei.from_physical(call.wei)
    if p.desc.g > 1:                    # (G, OC/G, IC/G, ...): whole groups
        per_group = p.desc.oc // p.desc.g
        cut = logical[lo // per_group:hi // per_group]
    else:
        cut = logical[:, lo:hi] if p.desc.has_groups else logical[lo:hi]
    wei = part.problem.wei.to_physical(cut)
    quant = {}
    for name, v in call.quant.items():
        if not dict(p.quant_args())[name].per_channel:
            quant[name] = v
        elif name.startswith("src"):
            quant[name] = v if part.ic is None else v[part.ic[0]:part.ic[1]]
        else:
            quant[name] = v[lo:hi]
    return wei, None if call.bias is None else call.bias[lo:hi], quant


@pytest.mark.parametrize("line,n", [c[1:] for c in CUT_CASES], ids=[c[0] for c in CUT_CASES])
def test_parts_reproduce_the_whole_reference(line, n):
    p = problem(line)
    parts = conv_host_parts(p, n)
    assert not isinstance(parts, str), parts
    assert 1 < len(parts) <= n
    call = conv_call(p)
    whole = p.reference(call.src, call.wei, call.bias, quant=call.quant, inputs=call.inputs)
    covered = np.zeros(whole.size, bool)
    for part in parts:
        q = part.problem
        inputs = {k: np.ascontiguousarray(part.dst_view(v)).reshape(-1) if k == "dst_init" else v
                  for k, v in call.inputs.items()}
        wei, bias, quant = _part_values(p, part, call)
        got = q.reference(call.src[part.src[0]:part.src[1]], wei, bias, quant=quant, inputs=inputs)
        np.testing.assert_array_equal(got, part.dst_view(whole).reshape(-1), err_msg=str(q.desc))
        mine = part.dst_view(covered)           # a view: a range, or a channels-last slab of columns
        assert not mine.any()
        mine[...] = True
    assert covered.all()


def test_the_calling_threads_part_leads_by_one_cheap_unit():
    from generator.select import host_cut, host_lead

    rows = problem("--stag=nhwc --dtag=nhwc mb1ic3ih20oc4oh20kh3ph1")
    assert [r.problem.desc.oh for r in conv_host_parts(rows, 2, lead=True)] == [11, 9]
    assert [r.problem.desc.oh for r in conv_host_parts(rows, 2)] == [10, 10]
    images = conv_host_parts(problem("mb16ic2ih3oc3oh3kh3ph1"), 2, lead=True)
    assert [r.problem.desc.mb for r in images] == [9, 7]
    rows14 = conv_host_parts(problem("--stag=nhwc --dtag=nhwc mb1ic3ih14oc4oh14kh3ph1"), 2, lead=True)
    assert [r.problem.desc.oh for r in rows14] == [8, 6]
    few = conv_host_parts(problem("--stag=nhwc --dtag=nhwc mb1ic3ih6oc4oh6kh3ph1"), 2, lead=True)
    assert [r.problem.desc.oh for r in few] == [3, 3]                  # under 4 rows a part: even
    assert conv_host_parts(problem("mb16ic2ih3oc3oh3kh3ph1"), 1) == "one thread: nothing to cut"
    # on locks, a row of the int8 ic128 28x28 layer is ~20 us of one thread: lead; an image of a 1 ms
    # conv: not; on the native hand-off, never
    int8 = problem("--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc mb1ic128ih28oc128oh28kh3ph1")
    host_threads.configure("locks")
    try:
        assert host_lead(int8, 2)
        assert [r.problem.desc.oh for r in host_cut(int8, 2)] == [15, 13]
        assert not host_lead(problem("mb16ic64ih28oc64oh28kh3ph1"), 2)
        assert not host_lead(problem("--dt=u8:s8:u8 mb1ic128ih28oc128oh28kh3ph1"), 2)    # output channels: never
        host_threads.configure("native")
        assert not host_lead(int8, 2)
        assert [r.problem.desc.oh for r in host_cut(int8, 2)] == [14, 14]
    finally:
        host_threads.configure()


def test_a_channels_last_image_is_cut_on_channels_where_its_rows_are_uneven():
    nhwc = "--stag=nhwc --dtag=nhwc mb1"
    seven = conv_host_parts(problem(nhwc + "ic512ih7oc512oh7kh3ph1"), 2)      # rows 4 + 3: 1.14x an even share
    assert [(r.oc, r.dst_cols, r.problem.desc.oc, r.src) for r in seven] == [
        ((0, 256), (0, 256, 512), 256, (0, 512 * 49)), ((256, 512), (256, 512, 512), 256, (0, 512 * 49))]
    assert [r.problem.desc.oh for r in conv_host_parts(problem(nhwc + "ic512ih14oc512oh14kh3ph1"), 2)] == [7, 7]
    stem = conv_host_parts(problem(nhwc + "ic3ih224oc64oh112kh7sh2ph3"), 2)
    assert [r.problem.desc.oh for r in stem] == [56, 56]
    odd = conv_host_parts(problem(nhwc + "ic3ih15oc64oh15kh3ph1"), 2)          # 8 + 7: within the slack
    assert [r.problem.desc.oh for r in odd] == [8, 7] and odd[0].dst_cols is None
    # channels that do not cut into even slabs of whole 16-channel units, 64 or more each: rows
    for oc in (96, 120, 48):
        assert [r.problem.desc.oh for r in conv_host_parts(problem(nhwc + f"ic8ih7oc{oc}oh7kh3ph1"), 2)] == [4, 3]
    # a post-op input that varies along the channels: rows
    per_oc = conv_host_parts(problem("--attr-post-ops=add:f32:per_oc " + nhwc + "ic8ih7oc128oh7kh3ph1"), 2)
    assert [r.problem.desc.oh for r in per_oc] == [4, 3]
    # groups are never cut on channels-last channels: each part would read a strided slab of the source
    assert [r.problem.desc.oh for r in conv_host_parts(
            problem(nhwc.replace("mb1", "g2mb1") + "ic128ih7oc128oh7kh3ph1"), 2)] == [4, 3]


def test_a_channels_last_3d_image_is_cut_into_bands_of_output_planes():
    # as a 2D image into rows: each band reads the source planes it needs (halo included) and keeps the
    # padding where it reaches the border; planes that do not cut evenly go to the channel cut
    p = problem("--stag=ndhwc --dtag=ndhwc mb1ic3id13ih4iw4oc5od4oh4ow4kd3kh3kw3sd3dd1pd1ph1pw1")
    parts = conv_host_parts(p, 2)
    assert [(q.problem.desc.od, q.problem.desc.id, q.problem.desc.pd) for q in parts] == [(2, 7, 1), (2, 8, 0)]
    assert all(q.oc is None for q in parts)
    uneven = conv_host_parts(problem("--stag=ndhwc --dtag=ndhwc mb1ic3id3ih4iw4oc128od3oh4ow4kd3kh3kw3pd1ph1pw1"), 2)
    assert all(q.oc is not None for q in uneven)
    assert conv_host_parts(problem("--stag=ndhwc --dtag=ndhwc mb1ic3id1ih4iw4oc4od1oh4ow4kd1kh3kw3ph1pw1"), 2) \
        == "one output plane: nothing to cut"


def test_one_channels_first_image_is_cut_on_rows_where_its_source_outweighs_its_weights():
    for layout in ("nchw", "nChw16c"):
        lay = f"--stag={layout} --dtag={layout} mb1"
        stem = conv_host_parts(problem(lay + "ic3ih224oc64oh112kh7sh2ph3"), 2)          # 150 K source, 9.4 K weights
        assert [(r.problem.desc.oh, r.oc) for r in stem] == [(56, None), (56, None)]
        assert stem[1].dst_cols == (56 * 112 * stem[1].problem.dst.block_of(1), 112 * 112 * stem[1].problem.dst.block_of(1),
                                    112 * 112 * stem[1].problem.dst.block_of(1))
        assert stem[1].src == (0, stem[1].problem.src.buffer_nelems)              # a view of the whole source
        assert stem[1].problem.src.offset0 > 0
        # more weights than source (ic512 7x7), a 1x1 kernel, uneven rows: slabs of output channels
        for line in ("ic512ih7oc512oh7kh3ph1", "ic256ih56oc64oh56kh1ph0", "ic4ih5iw200oc32oh5ow200kh3kw3ph1pw1"):
            assert all(r.oc is not None for r in conv_host_parts(problem(lay + line), 2)), line


@pytest.mark.parametrize("line,why", [
    ("--stag=nhwc --dtag=nchw g2mb1ic4ih6oc4oh6kh3ph1", "with groups, source"),   # groups: a channels-last source
    ("--stag=nchw --dtag=nhwc mb1ic4ih6oc4oh6kh3ph1", "output channels of one whose"),  # H outermost
    ("--stag=nChw16c --dtag=nChw16c g4mb1ic8ih6oc8oh6kh3ph1", "one slab of 8 groups"),       # one block of groups
    ("--stag=nChw16c --dtag=nChw16c mb1ic4ih4oc4oh4kh3ph1", "one slab of 16 output channels"),  # weights > source
    ("--attr-post-ops=add:f32:per_oc mb1ic4ih6oc32oh6kh3ph1", "whose channels are cut"),
    ("--stag=any --dtag=any mb2ic4ih6oc4oh6kh3ph1", "format any"),
    ("--stag=nhwc --dtag=nhwc --attr-post-ops=add:f32:per_tensor mb1ic4ih6oc4oh6kh3ph1", "varies along the rows"),
    ("--attr-post-ops=add:f32:1 mb2ic4ih6oc4oh6kh3ph1", "varies along the images"),          # mask: N
    ("--stag=nhwc --dtag=nhwc --attr-post-ops=prelu:4 mb1ic4ih6oc4oh6kh3ph1", "varies along the rows"),  # H
    ("--stag=nhwc --dtag=nhwc mb1ic4ih1iw16oc4oh1ow16kh1kw3pw1", "one output row"),
    ("--stag=nhwc --dtag=nhwc --attr-post-ops=dw:k3s1p1 mb1ic4ih6oc4oh6kh3ph1", "depthwise"),
])
def test_what_cannot_be_cut_says_why(line, why):
    r = conv_host_parts(problem(line), 2)
    assert isinstance(r, str) and why in r


@pytest.mark.parametrize("line", [
    "--alg=brgemm --dt=u8:s8:u8 --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 --stag=nhwc --dtag=nhwc "
    "mb1ic32ih14oc32oh14kh3ph1",
    "--alg=direct --dt=f32 --attr-post-ops=sum:0.5+linear:2:1 --stag=nhwc --dtag=nhwc mb1ic8ih9oc8oh9kh3ph1",
    "--alg=im2col --dt=u8:s8:s8 --attr-zero-points=src:common:3+dst:common:2 --stag=nChw16c --dtag=nChw16c "
    "mb3ic17ih5oc20oh5kh3ph1",
    "--alg=brgemm --dt=f32 --stag=nhwc --dtag=nhwc mb1ic3ih30oc8oh15kh7sh2ph3",
    "--alg=direct --dt=f32 mb2ic4ih5oc6oh5kh3ph1",               # two parts of one shape: one module each
    # output channels of one image: nchw with a 16-channel slab and a tail; blocked int8 with per-channel
    # weight scales, a per-channel destination zero point and the sum
    "--alg=brgemm --dt=f32 mb1ic8ih6oc40oh6kh3ph1",
    "--alg=direct --dt=u8:s8:u8 --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
    "--attr-zero-points=dst:per_dim_1 --attr-post-ops=sum:0.5:1+relu --stag=nChw16c --dtag=nChw16c "
    "mb1ic17ih5oc40oh5kh3ph1",
    # the weights cut in prepare out of blocked formats (an O tail; g written), a per-input-channel zero point
    "--alg=brgemm --dt=f32 --stag=nChw16c --dtag=nChw16c --wtag=OIhw16i16o mb1ic17ih5oc40oh5kh3ph1",
    "--alg=direct --dt=u8:s8:s32 --attr-zero-points=src:per_dim_1+wei:common:2:s8 --stag=nChw8c --dtag=nChw8c "
    "--wtag=gOIhw8i8o g1mb1ic8ih5oc24oh5kh3ph1",
    # whole groups: depthwise with a blocked tail; a per-input-channel zero point cut with its groups;
    # grouped brgemm
    "--alg=direct --dt=f32 --stag=nChw16c --dtag=nChw16c g40mb1ic40ih6oc40oh6kh3ph1",
    "--alg=direct --dt=u8:s8:s32 --attr-zero-points=src:per_dim_1+dst:per_dim_1 g32mb1ic32ih4oc32oh4kh3ph1",
    "--alg=brgemm --dt=f32 g4mb1ic32ih5oc64oh5kh3ph1",
    # a channels-last image cut on its output channels: each part's result joined as a strided slab;
    # int8 with per-channel values and the sum's prior destination cut the same way; 1D on direct
    "--alg=brgemm --dt=u8:s8:u8 --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
    "--attr-zero-points=src:common:3+dst:per_dim_1 --attr-post-ops=sum:0.5:1+relu --stag=nhwc --dtag=nhwc "
    "mb1ic16ih7oc128oh7kh3ph1",
    "--alg=brgemm --dt=f32 --attr-post-ops=linear:2:1 --stag=nhwc --dtag=nhwc mb1ic8ih5iw6oc128oh5ow6kh3kw3ph1pw1",
    "--alg=direct --dt=f32 --stag=nwc --dtag=nwc mb1ic4iw9oc128ow9kw3pw1",
    # bands of rows of one image whose destination has channels outermost: each part reads a view of
    # the whole source and writes a strided slab of every channel block
    "--alg=brgemm --dt=f32 --attr-post-ops=linear:2:1 mb1ic16ih12oc8oh12kh3ph1",
    "--alg=brgemm --dt=u8:s8:u8 --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
    "--attr-post-ops=sum:0.5:1+relu --stag=nChw16c --dtag=nChw16c mb1ic17ih16oc20oh16kh3ph1",
    "--alg=direct --dt=f32 --stag=nhwc --dtag=nchw mb1ic8ih20oc8oh10kh3sh2ph1",
    # brgemm reading and writing the blocks in place: slabs of output channels (an OC tail and a
    # destination zero point on its padded lanes), bands of rows (each part's source a view)
    "--alg=brgemm --dt=u8:s8:s8 --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
    "--attr-zero-points=dst:common:3 --stag=nChw16c --dtag=nChw16c mb1ic40ih6oc72oh6kh1ph0",
    "--alg=brgemm --dt=f32 --stag=nChw16c --dtag=nChw16c mb1ic20ih24oc40oh24kh3ph1",
    # ... and unpadded, each band read where it lies in the whole source (a strided view, no copy)
    "--alg=brgemm --dt=u8:s8:s8 --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
    "--attr-zero-points=dst:common:3 --stag=nChw16c --dtag=nChw16c mb1ic20ih26iw20oc24oh24ow18kh3kw3ph0",
    "--alg=brgemm --dt=f32 --stag=nChw8c --dtag=nChw16c mb1ic20ih26iw20oc24oh12ow9kh3kw3sh2sw2ph0pw0",
    # the stem's folded row (brgemm_fold_taps) in row bands, each with its own padding
    "--alg=brgemm --dt=u8:s8:u8 --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 --stag=nhwc --dtag=nhwc "
    "mb1ic3ih30oc64oh15kh7sh2ph3",
    # one channels-last 1D sequence in bands of output columns: WaveNet's 2-tap conv; u8 strided with
    # zero points; the depthwise kernel (each band's columns checked at its own borders)
    "--alg=brgemm --dt=f32 --stag=nwc --dtag=nwc mb1ic32iw200oc32ow199kw2pw0",
    "--alg=brgemm --dt=u8:s8:u8 --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
    "--attr-zero-points=src:common:3+dst:common:1 --stag=nwc --dtag=nwc mb1ic16iw40oc24kw3sw2pw1",
    "--alg=brgemm --dt=f32 --stag=nwc --dtag=nwc g24mb1ic24iw30oc24ow30kw3pw1",
    # one channels-last 3D image in bands of output planes: brgemm, and its depthwise kernel with a
    # source zero point and a channel tail (each band's planes skipped at its own borders)
    "--alg=brgemm --dt=f32 --stag=ndhwc --dtag=ndhwc mb1ic8id6ih5iw5oc24od6oh5ow5kd3kh3kw3pd1ph1pw1",
    "--alg=brgemm --dt=u8:s8:u8 --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 "
    "--attr-zero-points=src:common:3+dst:common:1 --stag=ndhwc --dtag=ndhwc "
    "g40mb1ic40id8ih6iw6oc40od8oh6ow6kd3kh3kw3pd1ph1pw1",
])
def test_host_threads_kernel_matches_reference(line, kgen_cache_dir, monkeypatch):
    monkeypatch.setenv("KGEN_CPU_THREADS", "2")
    k = conv(line, cache_dir=kgen_cache_dir, driver=HOST_THREADS)
    assert k.driver == HOST_THREADS and len(k._parts) == 2
    # every part has its own module (an IREE VM context runs one call at a time), and its own device,
    # whose allocator the other part does not share; the whole kernel's is the driver's first
    assert k._parts[0][0]._run.module is not k._parts[1][0]._run.module
    assert k._parts[0][0]._run.module.device is not k._parts[1][0]._run.module.device
    call = conv_call(k.problem)
    assert check_conv(k, k.problem, call=call) is None, f"seed {SEED}"
    bound = k.bind(call.src, call.bias, **call.attrs)
    for _ in range(3):                      # reruns: the parts' buffers are reused
        bound()
    got = bound.numpy()[0]
    assert got.dtype == k.problem.dst.buffer_dtype
    # integer-valued data: the parts and the whole kernel agree exactly
    one = conv(line, cache_dir=kgen_cache_dir, driver="local-sync")
    one.prepare(call.wei)
    assert np.array_equal(one(call.src, call.bias, **call.attrs), got)
    # invoke chains device tensors on the backend's own driver: the same numbers
    dev = k.invoke(call.src, call.bias, **call.attrs)
    assert np.array_equal(dev.to_numpy().view(got.dtype), got)
    # what prepare() left, as a whole convolution function takes it (a part's may be a channel slab)
    assert k.prepared is k._whole._wei and [w.shape for w in k.prepared] == [w.shape for w in one.prepared]
    with pytest.raises(UnsupportedError, match="numpy"):
        bound.results()


def test_host_threads_refusals(kgen_cache_dir, monkeypatch):
    monkeypatch.setenv("KGEN_CPU_THREADS", "2")
    with pytest.raises(UnsupportedError, match="cannot cut .*rows of a channels-last") as e:
        conv("--alg=direct --stag=nchw --dtag=nhwc mb1ic4ih6oc4oh6kh3ph1", cache_dir=kgen_cache_dir,
             driver=HOST_THREADS)
    assert "\n" not in str(e.value)
    src = MemoryDesc((1, 4, 3, 3), "s4", "nchw")    # C against H, and a strided 4-bit view is not read whole
    with pytest.raises(UnsupportedError, match="cannot cut .*outermost dims") as e:
        reorder(src, MemoryDesc(src.dims, "s4", "nhwc"), driver=HOST_THREADS)
    assert "\n" not in str(e.value)
    with pytest.raises(UnsupportedError, match="one IREE driver"):
        chain_driver("llvm-cpu", HOST_THREADS)
    with pytest.raises(UnsupportedError, match="convolutions and reorders only"):
        upload(np.zeros(4, np.float32), "llvm-cpu", HOST_THREADS)
    monkeypatch.setenv("KGEN_CPU_DRIVER", HOST_THREADS)    # the environment's choice: nets keep theirs
    b = get_backend("llvm-cpu")
    assert chain_driver("llvm-cpu") == b.driver
    k = reorder(src, MemoryDesc(src.dims, "s4", "nhwc"))   # and reorders it cannot cut their memory-bound driver
    assert k.driver == "local-sync"
    images = MemoryDesc((2, 4, 3, 3), "f32", "nchw")
    assert reorder(images, MemoryDesc(images.dims, "f32", "nhwc"), cache_dir=kgen_cache_dir).driver == HOST_THREADS
    assert upload(np.zeros(4, np.float32), "llvm-cpu").driver == b.driver and b.default_driver == "local-sync"
    # a conv it cannot cut keeps the backend's driver; one it can cut runs in parts
    assert conv("--alg=direct --stag=nchw --dtag=nhwc mb1ic4ih6oc4oh6kh3ph1", cache_dir=kgen_cache_dir).driver \
        == b.driver
    cut = conv("--alg=direct --stag=nhwc --dtag=nhwc mb1ic4ih6oc4oh6kh3ph1", cache_dir=kgen_cache_dir)
    assert cut.driver == HOST_THREADS and len(cut._parts) == 2
    # a depthwise post-op's two modules still say so, in one line
    dw = conv("--attr-post-ops=dw:k3s1p1 mb1ic4ih6oc4oh6kh3ph1", cache_dir=kgen_cache_dir, driver="local-sync")
    with pytest.raises(UnsupportedError, match="two modules"):
        dw.upload(np.zeros(4, np.float32))


def test_heuristic_driver_cuts_large_problems(monkeypatch):
    from generator.select import heuristic_driver

    monkeypatch.delenv("KGEN_CPU_DRIVER", raising=False)
    monkeypatch.setenv("KGEN_CPU_THREADS", "2")
    big = "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc mb1ic128ih28oc128oh28kh3ph1"
    assert heuristic_driver(problem(big), "llvm-cpu") == HOST_THREADS
    # one output row: its channels are cut; where they cannot be, it is one part and stays on every
    # core through local-task
    row = "--stag=nhwc --dtag=nhwc mb1ic256ih1iw512oc256oh1ow512kh1kw3pw1"
    assert heuristic_driver(problem(row), "llvm-cpu") == HOST_THREADS
    assert heuristic_driver(problem(row.replace("oc256", "oc40").replace("ic256", "ic2048")), "llvm-cpu") is None
    # nchw, one image: output channels are cut (whole groups with groups); read in nchw and written in
    # nhwc too, as strided slabs of the destination
    assert heuristic_driver(problem("--dt=u8:s8:u8 mb1ic128ih28oc128oh28kh3ph1"), "llvm-cpu") == HOST_THREADS
    assert heuristic_driver(problem("--dt=u8:s8:u8 g2mb1ic256ih28oc256oh28kh3ph1"), "llvm-cpu") == HOST_THREADS
    assert heuristic_driver(problem("--dt=u8:s8:u8 --stag=nchw --dtag=nhwc mb1ic128ih28oc128oh28kh3ph1"),
                            "llvm-cpu") == HOST_THREADS
    assert heuristic_driver(problem("--stag=nhwc --dtag=nhwc mb1ic8ih8oc8oh8kh3ph1"), "llvm-cpu") == "local-sync"
    # host-threads' hand-off is cheaper than local-task's: it takes over from ~100 us of one-thread work
    # on Python locks, from ~20 us on the native hand-off
    one_by_one = "--stag=nhwc --dtag=nhwc mb1ic64ih56oc64oh56kh1ph0"
    small = "--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc mb1ic64ih28oc64oh28kh1ph0"          # ~16 us one thread
    try:
        host_threads.configure("locks")
        assert heuristic_driver(problem("--dt=bf16 " + one_by_one), "llvm-cpu") == HOST_THREADS
        assert heuristic_driver(problem("--dt=u8:s8:u8 " + one_by_one), "llvm-cpu") == "local-sync"
        host_threads.configure("native")
        assert heuristic_driver(problem("--dt=u8:s8:u8 " + one_by_one), "llvm-cpu") == HOST_THREADS
        assert heuristic_driver(problem(small), "llvm-cpu") == "local-sync"
    finally:
        host_threads.configure()
    assert heuristic_driver(problem(big), "vulkan") is None
    monkeypatch.setenv("KGEN_CPU_THREADS", "1")
    assert heuristic_driver(problem(big), "llvm-cpu") == "local-sync"


def test_a_fixed_variant_without_a_driver_is_cut_where_the_problem_is_big_enough(monkeypatch, kgen_cache_dir):
    """A named variant keeps the caller's driver; with none named, a problem big enough to cut runs on
    host threads (Winograd's three dispatches a band paid local-task's hand-off three times), and the
    rest on the backend's driver (local-task); a prebuilt module is one module, on the backend's."""
    from generator.api import ConvKernel, compile_conv
    from generator.select import fixed_variant_driver

    monkeypatch.delenv("KGEN_CPU_DRIVER", raising=False)
    monkeypatch.setenv("KGEN_CPU_THREADS", "2")
    big = problem("--alg=winograd_f4 --stag=nhwc --dtag=nhwc mb1ic64ih28oc64oh28kh3ph1")
    assert fixed_variant_driver(big, "llvm-cpu") == HOST_THREADS
    assert fixed_variant_driver(big, "vulkan") is None
    # small at the brgemm rate: local-sync for --alg=auto, but a named variant may be far slower, so
    # it keeps every core
    small = problem("--alg=direct --stag=nhwc --dtag=nhwc mb1ic8ih8oc8oh8kh3ph1")
    assert fixed_variant_driver(small, "llvm-cpu") is None
    k = ConvKernel(big, "llvm-cpu", kgen_cache_dir)
    assert k.driver == HOST_THREADS and len(k.part_artifacts) == 2
    assert ConvKernel(big, "llvm-cpu", kgen_cache_dir, driver="local-task").driver == "local-task"
    assert ConvKernel(small, "llvm-cpu", kgen_cache_dir).driver == "local-task"
    whole = compile_conv(big, "llvm-cpu", cache_dir=kgen_cache_dir, driver="local-task")
    assert ConvKernel(big, "llvm-cpu", artifact=whole).driver == "local-task"
    monkeypatch.setenv("KGEN_CPU_THREADS", "1")
    assert fixed_variant_driver(big, "llvm-cpu") is None


@pytest.fixture(params=[("native", 1000), ("native", 0), ("locks", 0)], ids=["native", "native-nospin", "locks"])
def hand_off(request):
    """Each hand-off `host_threads.run` can use: native spin-then-sleep words, the same with no spin
    (every wait sleeps in the kernel), and Python locks; the environment's setting after."""
    method, spin = request.param
    if method == "native" and host_threads._native()[0] is None:
        pytest.skip(f"the native hand-off is unavailable here: {host_threads._native()[1]}")
    host_threads.configure(method, spin)
    yield method
    host_threads.configure()


def test_host_threads_native_hand_off_is_built_where_a_compiler_is():
    # a machine with a C compiler must not fall back silently: the fallback is for machines without one
    import shutil
    import os

    host_threads.configure()
    if shutil.which(os.environ.get("CC", "cc")):
        assert host_threads.sync_method() == "native spin-wait (1000 us)"
    else:
        assert host_threads.sync_method().startswith("locks (no C compiler")


def test_host_threads_falls_back_to_locks_without_a_compiler(monkeypatch, tmp_path):
    monkeypatch.setenv("KGEN_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("CC", "kgen-no-such-cc")
    host_threads._native.cache_clear()
    try:
        host_threads.configure()
        assert host_threads.sync_method() == "locks (no C compiler (kgen-no-such-cc) to build host_sync.c)"
        out = []
        host_threads.run([lambda: out.append(0), lambda: out.append(1)])
        assert sorted(out) == [0, 1]
    finally:
        monkeypatch.undo()
        host_threads._native.cache_clear()
        host_threads.configure()


def test_host_threads_fall_back_when_the_cache_is_not_writable(monkeypatch, tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    monkeypatch.setenv("KGEN_CACHE_DIR", str(blocked))
    monkeypatch.setenv("CC", sys.executable)          # a program that exists: the cache is what fails
    host_threads._native.cache_clear()
    try:
        host_threads.configure()
        assert host_threads.sync_method().startswith("locks (cannot build host_sync.c into ")
    finally:
        monkeypatch.undo()
        host_threads._native.cache_clear()
        host_threads.configure()


@pytest.mark.parametrize("method", ["native", "locks"])
def test_host_threads_ctrl_c_while_the_caller_waits_for_a_helper(method, tmp_path):
    # SIGINT while the calling thread waits for a helper still running its part: run() raises
    # KeyboardInterrupt once the helper is done, and the next call works. (On the native hand-off
    # Python handles the signal only as the native wait returns, with `done` already taken: waiting
    # on it again would never end.) In a child process, so that a hang fails here instead of hanging
    script = tmp_path / "ctrl_c.py"
    script.write_text(f"""
import _thread, signal, threading, time
from generator.runtime import host_threads
signal.signal(signal.SIGINT, signal.default_int_handler)    # a pytest-xdist worker's children ignore it
host_threads.configure({method!r})
state = {{"done": False}}
began = threading.Event()
def slow():
    began.set()
    time.sleep(0.5)
    state["done"] = True
threading.Timer(0.1, _thread.interrupt_main).start()
try:
    host_threads.run([began.wait, slow])            # the caller's part: until the helper has begun
    print("no interrupt")
except KeyboardInterrupt:
    print("interrupted, helper done" if state["done"] else "interrupted EARLY")
out = []
host_threads.run([lambda: out.append(0), lambda: out.append(1)])
print("next call", sorted(out))
""")
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60,
                       cwd=Path(__file__).resolve().parents[1])
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[:2] == ["interrupted, helper done", "next call [0, 1]"], r.stdout + r.stderr


def test_host_threads_configure_does_not_leak_threads():
    def helpers():
        return sum(t.name.startswith("kgen-host-") and t.is_alive() for t in threading.enumerate())

    host_threads.configure()
    host_threads.run([lambda: None, lambda: None])
    before = helpers()
    for i in range(10):
        host_threads.configure(spin_us=100 + i)             # same method: the helpers stay
        host_threads.run([lambda: None, lambda: None])
    assert helpers() == before
    for method in ("locks", "native") * 3:                  # another method: the old helpers end
        host_threads.configure(method)
        host_threads.run([lambda: None, lambda: None])
    import time
    time.sleep(0.2)
    assert helpers() <= before + 1
    host_threads.configure()


def test_choices_follow_the_hand_off_asked_for_not_the_one_built(monkeypatch, tmp_path):
    # a process without a C compiler runs on locks, but cuts and chooses as the process that compiled
    # the kernels with the native hand-off did (the parts' shapes are in the kernels' names)
    from generator.select import host_lead

    int8 = problem("--dt=u8:s8:u8 --stag=nhwc --dtag=nhwc mb1ic128ih28oc128oh28kh3ph1")
    monkeypatch.setenv("KGEN_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("CC", "kgen-no-such-cc")
    host_threads._native.cache_clear()
    try:
        host_threads.configure()
        assert host_threads.sync_method().startswith("locks (no C compiler")
        assert host_threads.requested_method() == "native" and not host_lead(int8, 2)
        host_threads.configure("locks")
        assert host_threads.requested_method() == "locks" and host_lead(int8, 2)
    finally:
        monkeypatch.undo()
        host_threads._native.cache_clear()
        host_threads.configure()


def test_host_threads_settings_are_checked(monkeypatch):
    from generator.errors import InputError

    with pytest.raises(InputError, match="expected 'native' or 'locks'"):
        host_threads.configure("spin")
    with pytest.raises(InputError, match="spin_us=-1 must be >= 0"):
        host_threads.configure("native", -1)
    # a fresh process where only --alg=auto's choice reads it (`requested_method`): one line, exit 2
    monkeypatch.setenv("KGEN_HOST_SYNC", "spin")
    r = subprocess.run([sys.executable, "-m", "generator.cli.main", "conv", "--alg=auto", "--stag=nhwc", "--dtag=nhwc",
                        "mb1ic4ih6oc4oh6kh3ph1"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "KGEN_HOST_SYNC" in r.stderr and "Traceback" not in r.stderr, r.stderr
    monkeypatch.delenv("KGEN_HOST_SYNC")
    monkeypatch.setenv("KGEN_HOST_SPIN_US", "lots")
    with pytest.raises(InputError, match="KGEN_HOST_SPIN_US='lots' is not a whole number"):
        host_threads.configure()
    monkeypatch.setenv("KGEN_HOST_SPIN_US", "250")
    monkeypatch.setenv("KGEN_HOST_SYNC", "locks")
    host_threads.configure()
    assert host_threads.sync_method() == "locks (asked for)"
    monkeypatch.undo()
    host_threads.configure()


def test_host_threads_run_runs_concurrently_and_raises(hand_off):
    seen, barrier = [], threading.Barrier(3, timeout=10)

    def part(i):
        def run():
            barrier.wait()                  # all three must be running at once to pass
            seen.append(i)
        return run

    host_threads.run([part(0), part(1), part(2)])
    assert sorted(seen) == [0, 1, 2]

    def boom():
        raise ValueError("part failed")

    with pytest.raises(ValueError, match="part failed"):
        host_threads.run([lambda: None, boom])
    host_threads.run([lambda: seen.append(3), lambda: seen.append(4)])   # still usable after an error
    assert sorted(seen)[-2:] == [3, 4]


def test_host_threads_run_survives_an_interruption(hand_off):
    # Ctrl-C in the calling thread while a helper still runs: run() waits for the helper, then raises;
    # the next call starts from a clean state (no early `done` from the interrupted one)
    import time

    state = {"helper_done": False}
    began = threading.Event()

    def slow_helper():
        began.set()
        time.sleep(0.2)
        state["helper_done"] = True

    def interrupted():
        began.wait(10)              # the helper has begun its part: run() must wait for it
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        host_threads.run([interrupted, slow_helper])
    assert state["helper_done"]
    for _ in range(3):
        state["helper_done"] = False
        host_threads.run([lambda: None, slow_helper])
        assert state["helper_done"]


class _LateHelper:
    """A helper as `host_threads.run` drives it (start, began, wait, try_wait, settle, retire), that
    takes each start `delay` seconds late: a helper whose vCPU slept."""
    method = "late"

    def __init__(self, delay):
        self.delay, self.pending, self.fn, self.error = delay, False, None, None
        self._began, self._done, self.timers = False, threading.Semaphore(0), []

    def start(self, fn):
        self.fn, self.error, self._began = fn, None, False

        def late():
            self._began = True
            try:
                fn()
            except BaseException as e:  # noqa: BLE001
                self.error = e
            self._done.release()
        self.timers.append(threading.Timer(self.delay, late))
        self.timers[-1].start()

    def began(self):
        return self._began

    def wait(self):
        self._done.acquire()

    def try_wait(self):
        return self._done.acquire(blocking=False)

    def settle(self):
        for t in self.timers:
            t.join()

    def retire(self):
        pass


def test_host_threads_caller_runs_the_part_a_helper_has_not_begun(monkeypatch):
    # a helper that wakes late (a VM's halted vCPU): the caller, done with its own part, runs the
    # helper's and returns without waiting for it; until the helper has handed back (found its part
    # taken), the next calls run its part on the caller too, and then it is started again
    import time

    host_threads.configure()
    helper = _LateHelper(1.0)
    helper.method = host_threads.method_in_use()          # kept by `configure`, as a helper of its method
    monkeypatch.setattr(host_threads, "_helpers", [helper])
    me, ran = threading.get_ident(), []

    def part(name):
        return lambda: ran.append((name, threading.get_ident()))

    t0 = time.perf_counter()
    host_threads.run([part("a0"), part("a1")])
    assert time.perf_counter() - t0 < 0.6 and ran == [("a0", me), ("a1", me)] and helper.pending
    host_threads.run([part("b0"), part("b1")])           # still owed: not started again
    assert ran[2:] == [("b0", me), ("b1", me)] and len(helper.timers) == 1 and helper.pending
    helper.settle()
    assert [r[0] for r in ran] == ["a0", "a1", "b0", "b1"]   # it woke, found its part taken, handed back
    # the hand-back taken; a helper awake in time (its start taken) runs its part, and the caller waits
    helper.delay = 0
    began = threading.Event()
    host_threads.run([lambda: began.wait(10), lambda: (began.set(), part("c1")())])
    assert not helper.pending and ran[-1][0] == "c1" and ran[-1][1] != me
    # a part that raises on the caller's thread is raised; the helper is still usable
    helper.delay = 0.3
    with pytest.raises(ValueError, match="taken part failed"):
        host_threads.run([lambda: None, lambda: (_ for _ in ()).throw(ValueError("taken part failed"))])
    helper.settle()
    out = []
    host_threads.run([lambda: out.append(0), lambda: out.append(1)])
    assert sorted(out) == [0, 1]
    helper.settle()


def test_host_threads_work_in_a_forked_child(hand_off):
    import os
    import signal

    host_threads.run([lambda: None, lambda: None])       # helpers exist in the parent
    pid = os.fork()
    if pid == 0:                                         # the child: fresh helpers, no hang
        signal.alarm(20)
        try:
            out = []
            host_threads.run([lambda: out.append(0), lambda: out.append(1)])
            os._exit(0 if sorted(out) == [0, 1] else 1)
        except BaseException:
            os._exit(2)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
