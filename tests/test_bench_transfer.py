"""benchmarks/bench_transfer.py end to end on a small tensor: a real host and a real echo, the
bytes checked, a host that answers wrongly caught."""

from __future__ import annotations

import pytest

from benchmarks import bench_transfer as bt


def test_it_times_ours_against_the_echo_and_prints_the_table():
    lines = []
    out = bt.run(mib=1, iters=2, rounds=2, contexts=["cpu", "high-performance"], log=lines.append)
    assert [r["context"] for r in out["rows"]] == ["cpu", "high-performance"]
    assert len([ln for ln in lines if ln.lstrip().startswith("round")]) == 4
    for r in out["rows"]:
        assert r["devices"] and set(r["devices"]) <= {"cpu", "gpu", "npu"}
        for key in ("echo", "write_read", "write_dispatch_read", "in_process"):
            assert r[f"{key}_ms"] > 0 and len(r["rounds"][key]) == 2
        assert r["echo_cpu_ms"] > 0 and r["write_dispatch_read_cpu_ms"] > 0
        assert r["write_read_vs_echo"] == pytest.approx(r["write_read_ms"] / r["echo_ms"], rel=1e-2)
        assert r["echo_mib_s"] == pytest.approx(2 / (r["echo_ms"] / 1e3), rel=1e-2)
    assert out["rows"][0]["devices"] == ["cpu"]  # deviceType "cpu"
    table = []
    bt.print_table(out, log=table.append)
    assert "1 MiB written and read back" in table[0] and any("x echo" in ln for ln in table)


def test_a_wrong_read_stops_it(monkeypatch):
    real = bt.WirePage.read
    monkeypatch.setattr(bt.WirePage, "read", lambda self, tensor: real(self, tensor)[:-1] + b"\x7f")
    with pytest.raises(SystemExit, match="write \\+ read"):
        bt.run(mib=1, iters=1, rounds=1, contexts=["cpu"], log=lambda _: None)
