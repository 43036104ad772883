"""The benchmark command runs end to end (timings are reported, never asserted)."""
from generator.bench.reorder import bench_reorders, format_table


def test_bench_reorder_runs_and_reports_every_candidate():
    rows = bench_reorders([((1, 17, 4, 4), "nchw", "nChw16c"), ((1, 16, 4, 4), "nChw16c", "nchw")], rounds=1,
                          log=lambda m: None)
    cands = {r.candidate for r in rows}
    assert {"kgen", "numpy copy"} <= cands
    assert all(r.seconds > 0 and r.gbps > 0 for r in rows)
    table = format_table(rows)
    assert "1x17x4x4 nchw->nChw16c" in table and "kgen/copy" in table
