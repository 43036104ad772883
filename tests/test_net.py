"""Networks: the text form, the planner's search, the compiled plan on random DAGs of small
convs with residual joins (tails, groups, depthwise) checked layer by layer against the float64
reference, and the command line. The PyTorch bridge has its own file (test_net_torch.py)."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from generator.errors import KgenError
from generator.cli.main import main
from generator.net import load_network, parse_network, random_parameters
from generator.net.execute import CompiledNetwork
from generator.net.graph import Boundary, ConvLayer, Network, OpNode
from generator.problem.netop import NetOp
from generator.net.plan import Costs, baselines, candidate_layouts, evaluate, plan_network
from generator.net.report import check_layers

SEED = 20261125
pytestmark = pytest.mark.usefixtures("kgen_cache_dir")

BLOCK = """
# a residual block with a projection and a strided tail
c1 x -> a --attr-post-ops=relu mb1ic8ih10oc16oh10kh3ph1
c2 a -> b --attr-post-ops=relu mb1ic16ih10oc16oh10kh3ph1
c3 b -> c +a --attr-post-ops=sum+relu mb1ic16ih10oc16oh10kh1ph0
c4 c -> d mb1ic16ih10oc24oh5kh3sh2ph1
"""


@pytest.fixture(autouse=True)
def _table(tmp_path, monkeypatch):
    monkeypatch.setenv("KGEN_TUNED_TABLE", str(tmp_path / "tuned.json"))


# ------------------------------------------------------------------------------------------ text form
def test_text_form_names_tensors_inputs_and_outputs():
    net = parse_network(BLOCK)
    assert [l.name for l in net.layers] == ["c1", "c2", "c3", "c4"]
    assert net.inputs == ["x"] and net.outputs == ["d"]
    c3 = net.layers[2]
    assert c3.residual == "a" and c3.problem.src.is_any and c3.problem.dst.is_any and c3.problem.alg == "auto"
    assert net.tensors["d"] == ((1, 24, 5, 5), "f32")


@pytest.mark.parametrize("text, match", [
    ("c1 x a mb1ic8ih10oc16oh10kh3ph1", "cannot read"),
    ("c1 x -> a mb1ic8ih10oc16oh10kh3ph1\nc2 a -> b mb1ic9ih10oc16oh10kh3ph1", "wants a as 1x9x10x10"),
    ("c1 x -> a mb1ic8ih10oc16oh10kh3ph1\nc2 a -> a mb1ic16ih10oc16oh10kh3ph1", "already written"),
    ("c1 x -> a --attr-post-ops=sum mb1ic8ih10oc16oh10kh3ph1", "no residual"),
    ("c1 x -> a +x mb1ic8ih10oc8oh10kh3ph1", "no sum post-op"),
    ("c1 x -> a --dt=f64 mb1ic8ih10oc16oh10kh3ph1", "network:1"),
    ("", "no layers"),
    ("c1 x -> a --dtag=nhwc mb1ic8ih10oc16oh10kh3ph1", "write --stag and --dtag alike"),
    ("c1 x -> a --stag=nchw --dtag=nhwc mb1ic8ih10oc16oh10kh3ph1", "write --stag and --dtag alike"),
    ("c1 x -> a --attr-post-ops=add:f32:per_oc mb1ic8ih10oc16oh10kh3ph1", "eltwise and sum post-ops"),
    ("c1 x -> a --attr-scales=src:common:2 mb1ic8ih10oc16oh10kh3ph1", "no scales"),
    ("c1 x -> a mb1ic8ih10oc16oh10kh3ph1\nc1 a -> b mb1ic16ih10oc16oh10kh3ph1", "two nodes are named c1"),
    ("c1 x -> a 'mb1ic8ih10oc16oh10kh3ph1", "quotation"),
])
def test_text_form_errors(text, match):
    with pytest.raises(KgenError, match=match):
        parse_network(text)


def test_cli_bad_graph_is_one_line(tmp_path, capsys):
    bad = tmp_path / "g.txt"
    bad.write_text("c1 x -> a mb1ic8ih10oc16oh10kh3ph1\nc2 a -> b mb1ic9ih10oc16oh10kh3ph1\n")
    assert main(["net", f"--graph={bad}", "--plan-only"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("kgen: error:") and "wants a as" in err[0]
    assert main(["net", f"--graph={tmp_path / 'missing.txt'}"]) == 2
    assert "cannot read graph file" in capsys.readouterr().err


# ------------------------------------------------------------------------------------------ the search
def _random_dag(rng, n_layers: int) -> Network:
    """A chain with residual joins and boundaries: every layer reads the last tensor, some also add an
    earlier one of the same shape; a boundary now and then."""
    lines, shapes, last = [], {"t0": 8}, "t0"
    for i in range(1, n_layers + 1):
        ic = shapes[last]
        same = [t for t, c in shapes.items() if c == ic and t != last]
        res = same[rng.integers(len(same))] if same and rng.random() < 0.4 else None
        oc = ic if res else int(rng.choice([8, 16]))
        post = "--attr-post-ops=sum+relu " if res else ""
        lines.append(f"c{i} {last} -> t{i}" + (f" +{res}" if res else "") + f" {post}mb1ic{ic}ih6oc{oc}oh6kh1ph0")
        shapes[f"t{i}"] = oc
        last = f"t{i}"
    net = parse_network("\n".join(lines))
    # a PyTorch boundary in the middle: it reads one tensor and writes one of the same shape
    k = n_layers // 2
    mid = net.nodes[k - 1].dst
    nodes = list(net.nodes)
    nodes.insert(k, Boundary("pool", (mid,), (mid + "_p",)))
    net.tensors[mid + "_p"] = net.tensors[mid]
    for n in nodes[k + 1:]:
        if isinstance(n, ConvLayer) and n.src == mid:
            n.src = mid + "_p"
    # a kgen op at the end: the last tensor times an earlier one of its shape (or itself), an output
    last = nodes[-1].dst
    dims, dt = net.tensors[last]
    other = next((t for t, v in net.tensors.items() if v == (dims, dt) and t not in (last, mid + "_p")), last)
    nodes.append(OpNode("gate", NetOp("binary", "mul", [dims, dims], dt), (last, other), "gated"))
    net.tensors["gated"] = (dims, dt)
    outputs = [t for t in net.outputs if t != last] + ["gated"]
    return Network(nodes, net.tensors, net.inputs, outputs).check()


@pytest.mark.parametrize("seed", range(6))
def test_plan_is_the_exact_optimum_and_never_worse_than_the_baselines(seed):
    rng = np.random.default_rng(SEED + seed)
    net = _random_dag(rng, 6)
    lays = ["nchw", "nhwc", "nChw16c"]
    costs = Costs()
    for layer in net.kernels:
        for lay in lays:
            if rng.random() < 0.9 or lay == "nchw":          # some layouts cannot run some layers
                costs.conv[(layer.name, lay)] = float(rng.uniform(1, 10))
    for (dims, dt) in {tuple(v) for v in net.tensors.values()}:
        for a, b in itertools.permutations(lays, 2):
            costs.reorder[(tuple(dims), dt, a, b)] = float(rng.uniform(0.1, 4))
    plan = plan_network(net, costs, lays)
    brute = min((evaluate(net, dict(zip([l.name for l in net.kernels], combo)), costs, "x").total_s
                 for combo in itertools.product(lays, repeat=len(net.kernels))), default=math.inf)
    assert plan.total_s == pytest.approx(brute), f"seed {SEED + seed}"
    for base in baselines(net, costs, lays):
        assert plan.total_s <= base.total_s + 1e-12
    # the reorders it reports are the ones its layouts force, edges included
    again = evaluate(net, plan.layouts, costs, "again")
    assert [(r.tensor, r.src, r.dst) for r in again.reorders] == [(r.tensor, r.src, r.dst) for r in plan.reorders]


def test_measured_times_are_keyed_by_the_code_that_generates_the_kernels(tmp_path):
    # a figure measured on kernels from other templates or emitters must not price these: the key
    # holds a fingerprint of those sources (__version__ does not change while they do)
    from generator.net.plan import _time_key
    from generator.version import code_fingerprint, sources_fingerprint

    assert f"+{code_fingerprint()}|" in _time_key("llvm-cpu", "local-task", "conv", "x")
    (tmp_path / "a.j2").write_text("linalg.matmul")
    before = sources_fingerprint([(tmp_path, "*.j2")])
    (tmp_path / "a.j2").write_text("linalg.batch_matmul")
    after = sources_fingerprint([(tmp_path, "*.j2")])
    (tmp_path / "b.j2").write_text("")
    assert len({before, after, sources_fingerprint([(tmp_path, "*.j2")])}) == 3


def test_a_residual_from_outside_is_an_input():
    net = parse_network("c1 x -> a +r --attr-post-ops=sum mb1ic8ih6oc8oh6kh1ph0")
    assert net.inputs == ["x", "r"] and net.tensors["r"] == ((1, 8, 6, 6), "f32")


def test_search_without_a_finite_plan_is_a_typed_error_and_a_wide_one_keeps_a_beam(monkeypatch):
    from generator.errors import UnsupportedError
    from generator.net import plan as planmod
    net = parse_network(BLOCK)
    costs = Costs(conv={(l.name, lay): 1.0 for l in net.layers for lay in ("nchw", "nhwc")})
    with pytest.raises(UnsupportedError, match="no plan has a finite"):
        plan_network(net, costs, ["nhwc"])              # no reorder measured from the plain input
    for dims, dt in set(net.tensors.values()):
        for a, b in itertools.permutations(("nchw", "nhwc"), 2):
            costs.reorder[(dims, dt, a, b)] = 0.5
    exact = plan_network(net, costs, ["nchw", "nhwc"])
    assert exact.exact
    monkeypatch.setattr(planmod, "MAX_STATES", 1)
    beam = plan_network(net, costs, ["nchw", "nhwc"])
    assert not beam.exact and beam.total_s >= exact.total_s


@pytest.mark.parametrize("segments", [True, False])
def test_an_int8_network_chains_u8_activations(segments):
    net = random_parameters(parse_network(
        "c1 x -> a --dt=u8:s8:u8 --attr-post-ops=relu mb1ic16ih6oc32oh6kh3ph1\n"
        "c2 a -> b --dt=u8:s8:u8 mb1ic32ih6oc32oh6kh1ph0\n"
        "c3 b -> c +a --dt=u8:s8:u8 --attr-post-ops=sum mb1ic32ih6oc32oh6kh1ph0"), SEED)
    plan = evaluate(net, {"c1": "nhwc", "c2": "nchw", "c3": "nhwc"}, Costs(), "forced")
    compiled = CompiledNetwork(net, plan, segments=segments)
    x = np.random.default_rng(SEED).integers(0, 5, (1, 16, 6, 6)).astype(np.uint8)
    out = compiled({"x": x}, keep=True)
    assert out["c"].dtype == np.uint8 and out["c"].any()
    assert check_layers(compiled, out) == 0.0, f"seed {SEED}"


@pytest.mark.parametrize("segments", [True, False])
def test_a_bound_network_leaves_its_outputs_on_the_device_in_the_callers_layout(segments):
    # `CompiledNetwork.bind`: inputs uploaded once, each call runs the plan on device tensors and gives
    # the outputs as DeviceTensors in NCHW (an nChw16c output reordered on the device): what the
    # planner prices, and what `kgen net --graph` times next to the NumPy path
    net = random_parameters(parse_network(
        "c1 x -> a --dt=bf16 --attr-post-ops=relu mb1ic16ih6oc20oh6kh3ph1\n"
        "c2 a -> b --dt=bf16 mb1ic20ih6oc24oh6kh1ph0"), SEED)
    plan = evaluate(net, {"c1": "nhwc", "c2": "nChw16c"}, Costs(), "forced")
    compiled = CompiledNetwork(net, plan, segments=segments)
    x = np.random.default_rng(SEED).integers(-2, 3, (1, 16, 6, 6)).astype(np.float32)
    want = compiled({"x": x})["b"]
    call = compiled.bind({"x": x})
    for _ in range(2):
        (got,) = call().values()
        got = got.to_numpy().view(want.dtype).reshape(want.shape)      # NCHW, as the caller's arrays
        assert np.array_equal(got, want), f"seed {SEED}"


def test_a_fixed_layout_in_the_graph_is_kept():
    net = parse_network("c1 x -> a --stag=nChw16c --dtag=nChw16c mb1ic8ih6oc16oh6kh1ph0\n"
                        "c2 a -> b mb1ic16ih6oc16oh6kh1ph0")
    assert candidate_layouts(net.layers[0]) == ["nChw16c"]
    assert candidate_layouts(net.layers[1], ["nchw", "nhwc"]) == ["nchw", "nhwc"]


# ------------------------------------------------------------------------------------------ running
RANDOM_GRAPHS = [
    # tails (IC 5, OC 17), groups, depthwise, a join of two branches, 1x1 and 3x3, stride 2
    """c1 x -> a --attr-post-ops=relu mb2ic5ih9oc17oh9kh3ph1
       c2 a -> b g17mb2ic17ih9oc17oh9kh3ph1
       c3 b -> c +a --attr-post-ops=sum mb2ic17ih9oc17oh9kh1ph0
       c4 c -> d g1mb2ic17ih9oc24oh5kh3sh2ph1""",
    """c1 x -> a mb1ic16ih7oc32oh7kh1ph0
       c2 a -> b --attr-post-ops=relu g2mb1ic32ih7oc32oh7kh3ph1
       c3 x -> s mb1ic16ih7oc32oh7kh1ph0
       c4 b -> c +s --attr-post-ops=sum+relu mb1ic32ih7oc32oh7kh1ph0""",
]


@pytest.mark.parametrize("segments", [True, False])
@pytest.mark.parametrize("graph", range(len(RANDOM_GRAPHS)))
@pytest.mark.parametrize("layouts", [("nchw", "nhwc", "nChw8c", "nChw16c"), ("nChw16c", "nchw", "nhwc", "nChw8c")])
def test_a_compiled_plan_equals_the_reference_layer_by_layer(graph, layouts, segments):
    net = random_parameters(parse_network(RANDOM_GRAPHS[graph].replace("       ", "")), SEED)
    # layouts cycle over the layers: every tensor crosses layouts, so reorders run between them
    assign = {l.name: layouts[i % len(layouts)] for i, l in enumerate(net.layers)}
    plan = evaluate(net, assign, Costs(), "forced")
    assert plan.reorders
    compiled = CompiledNetwork(net, plan, segments=segments)
    assert (compiled.segment is not None) == segments
    rng = np.random.default_rng(SEED)
    inputs = {t: rng.integers(-2, 3, net.tensors[t][0]).astype(np.float32) for t in net.inputs}
    out = compiled(inputs, keep=True)
    assert check_layers(compiled, out) == 0.0, f"seed {SEED}"
    for name, runner in compiled.runners.items():
        assert runner.problem.src.format_name().lower() != "any"
    # the outputs come back logical, whatever layout they were computed in
    assert set(compiled(inputs)) == set(net.outputs)


def test_measured_plan_runs_and_reports(tmp_path, capsys):
    g = tmp_path / "block.txt"
    g.write_text(BLOCK)
    assert main(["net", f"--graph={g}", "--layouts=nchw,nhwc", "--rounds=2", f"--json={tmp_path / 'r.json'}"]) == 0
    out = capsys.readouterr().out
    assert "all NCHW" in out and "per-layer best" in out and "check, layer by layer" in out
    assert "kgen plan" in out and "kgen all NCHW" in out
    import json
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["max_rel_err"] == 0.0 and doc["plans"][0]["name"] == "plan"
    # the measurements are in the table: planning again measures nothing; --png draws the plan
    assert main(["net", f"--graph={g}", "--layouts=nchw,nhwc", "--plan-only", f"--png={tmp_path / 'p.png'}"]) == 0
    assert "measuring" not in capsys.readouterr().err
    assert (tmp_path / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    net = load_network(g)
    assert len(net.layers) == 4
