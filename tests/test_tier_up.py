"""Tier-up of hot graphs to another CPU backend (rules.toml [tier_up], bridge/tier_up.py): the
policy names the candidate, the bridge compiles it in the background once the graph is hot and
keeps whichever is faster in interleaved live dispatches, with every dispatch's results right."""

from __future__ import annotations

import copy
import threading
import time

import numpy as np
import pytest

from webnn_bridge.backends import base
from webnn_bridge.backends.base import Device
from webnn_bridge.bridge import api, tier_up
from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.policy import engine
from webnn_bridge.policy.engine import default_rules

ORT = Device(id="onnxruntime:CPUExecutionProvider", kind="cpu", backend="onnxruntime", name="ORT CPU")
OV = Device(id="openvino:CPU", kind="cpu", backend="openvino", name="OV CPU")
TORCH = Device(id="torch:cpu", kind="cpu", backend="torch", name="torch CPU")


def rules_with(**tier) -> dict:
    """The default rules with tier-up on (it is off by default) and ``tier`` over them, without the
    default route that sends small float32 convolution networks to LiteRT (these graphs tier up
    from ONNX Runtime, where the rules place them otherwise)."""
    rules = copy.deepcopy(default_rules())
    rules["tier_up"].update({"enabled": True, **tier})
    rules["routes"] = []
    return rules


def conv_graph(ctx, data_type="float32", with_conv=True):
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": data_type, "shape": [1, 4, 8, 8]})
    w = b.constant({"dataType": data_type, "shape": [4, 4, 3, 3]},
                   (np.random.default_rng(3).standard_normal((4, 4, 3, 3)) * 0.1).astype(data_type))
    y = b.conv2d(x, w, padding=[1, 1, 1, 1]) if with_conv else b.add(x, x)
    return b.build({"y": b.relu(y)})


def placement_for(graph_ir, inventory, rules):
    decision = engine.decide_context({}, inventory, rules)
    return engine.decide_build(decision, graph_ir, inventory, rules)


# ------------------------------------------------------------------------- the policy's candidate

def _ir(with_conv=True, data_type="float32"):
    return conv_graph(ML([ORT]).createContext(), data_type, with_conv).ir


def test_a_conv_graph_on_onnxruntime_names_the_other_backend():
    p = placement_for(_ir(), [ORT, OV, TORCH], rules_with())
    assert p.device.id == ORT.id and p.tier_up is not None and p.tier_up.id == OV.id
    assert any(r.startswith("tier-up: once it has run 10 times") for r in p.reasons)
    assert p.to_dict()["tierUp"] == OV.id


@pytest.mark.parametrize(("tier", "graph", "inventory"), [
    ({"enabled": False}, {}, [ORT, OV]),
    ({}, {"with_conv": False}, [ORT, OV]),  # no conv2d ([tier_up].ops_any)
    ({}, {"data_type": "float16"}, [ORT, OV]),  # not float32 only
    ({}, {}, [ORT, TORCH]),  # no backend of [tier_up].backends
    ({"max_constant_bytes": 16}, {}, [ORT, OV]),
    ({"from": ["torch"]}, {}, [ORT, OV]),  # placed on a backend not in [tier_up].from
])
def test_no_candidate_where_the_rules_do_not_ask(tier, graph, inventory):
    p = placement_for(_ir(**graph), inventory, rules_with(**tier))
    assert p.device.id == ORT.id and p.tier_up is None
    assert not any("tier-up" in r for r in p.reasons)


def test_the_default_rules_tier_nothing_up():
    rules = default_rules()
    assert rules["tier_up"]["enabled"] is False
    p = placement_for(_ir(), [ORT, OV], rules)
    assert p.tier_up is None and not any("tier-up" in r for r in p.reasons)
    g = conv_graph(ML().createContext())
    assert g.tier is None


def test_any_op_when_ops_any_is_empty():
    p = placement_for(_ir(with_conv=False), [ORT, OV], rules_with(ops_any=[]))
    assert p.tier_up is not None and p.tier_up.id == OV.id


def test_a_candidate_that_cannot_run_the_graph_is_named_in_the_reasons():
    def caps(d):
        c = engine.capabilities_of(d)
        if d.backend != "openvino":
            return c
        import dataclasses
        return dataclasses.replace(c, ops={k: v for k, v in c.ops.items() if k != "conv2d"})

    rules = rules_with()
    decision = engine.decide_context({}, [ORT, OV], rules)
    p = engine.decide_build(decision, _ir(), [ORT, OV], rules, caps=caps)
    assert p.tier_up is None
    assert any(r == f"no tier-up: {OV.id} cannot run the whole graph" for r in p.reasons)


def test_the_rules_file_checks_tier_up():
    assert engine.check_rules_file({"tier_up": {"backends": ["nope"]}}, default_rules())
    assert engine.check_rules_file({"tier_up": {"margin": "x"}}, default_rules())
    assert not engine.check_rules_file({"tier_up": {"backends": ["torch"], "enabled": False}}, default_rules())
    for bad in ({"margin": 1.5}, {"margin": 0.0}, {"trial_runs": 0}, {"threads": 0}, {"min_run_ms": -1.0},
                {"cpu_margin": 0.0}, {"cpu_latency_slack": 0.9}):
        assert engine.validate_rules(rules_with(**bad)), bad
    assert not engine.validate_rules(rules_with(margin=1.0, min_run_ms=0.0))


# ------------------------------------------------------------------------- the trial, with stand-ins

class Slow:
    """A compiled graph: the real one's results, after ``ms`` of sleep (or an error); with a
    ``clock``, the run instead advances that clock by ``ms`` of time and ``cpu_ms`` of CPU time."""

    def __init__(self, real, ms=0.0, error=None, cpu_ms=0.0, clock=None):
        self.real, self.ms, self.error, self.cpu_ms, self.clock = real, ms, error, cpu_ms, clock
        self.runs, self.closed = 0, False

    def run(self, inputs):
        self.runs += 1
        if self.error is not None:
            raise self.error
        if self.clock is not None:
            self.clock.wall += self.ms / 1000
            self.clock.cpu += self.cpu_ms / 1000
        else:
            time.sleep(self.ms / 1000)
        return self.real.run(inputs)

    def close(self):
        self.closed = True


class Clock:
    """The dispatch path's clocks (``time`` in bridge/api.py), moved only by the stand-ins' runs:
    the trial's decision is tested on known times, not on a shared machine's scheduling."""

    def __init__(self):
        self.wall = self.cpu = 0.0

    def perf_counter(self):
        return self.wall

    def process_time(self):
        return self.cpu

    def __getattr__(self, name):
        return getattr(time, name)


@pytest.fixture(autouse=True)
def _compile_at_normal_priority(monkeypatch):
    """The compile thread takes idle CPU time only: on a machine kept busy (tests in parallel) a
    test would wait for it as long as the machine stays busy."""
    monkeypatch.setattr(tier_up, "IDLE", False)


def trial_context(**tier):
    rules = rules_with(min_dispatches=3, min_run_ms=0.0, trial_runs=5, **tier)
    ml = ML(rules=rules)
    ctx = ml.createContext()
    g = conv_graph(ctx)
    if g.tier is None:  # no other CPU backend here: the policy names none, and nothing moves
        assert g.placement.tier_up is None
        pytest.skip("no second CPU backend of [tier_up].backends on this machine")
    return ml, ctx, g


def run_until_done(ctx, g, x, want, limit=200):
    for _ in range(limit):
        got = ctx.compute(g, {"x": x})["y"]
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
        if g.tier.state == "compiling":
            assert tier_up.idle(30)
        if g.tier.state == "done":
            return
    raise AssertionError(f"the trial did not end: {g.tier.state}")


def _x():
    return np.random.default_rng(5).standard_normal((1, 4, 8, 8)).astype(np.float32)


@pytest.mark.parametrize(("base", "cand", "moves"), [
    # (ms, CPU ms) of a run on the graph's backend and on the candidate
    ((4.0, 4.0), (1.0, 1.0), "faster"),
    ((1.0, 1.0), (4.0, 4.0), None),
    ((6.0, 9.0), (6.2, 6.0), "as fast, for less CPU time"),  # a pool of threads against one
    ((6.2, 6.0), (6.0, 9.0), None),  # about the same time, more CPU time
    ((6.0, 9.0), (6.4, 1.0), None),  # far less CPU time, but more than 1.05x the time
])
def test_the_faster_or_thriftier_of_two_keeps_the_graph(base, cand, moves, monkeypatch):
    ml, ctx, g = trial_context()
    x = _x()
    want = ctx.compute(g, {"x": x})["y"]
    clock = Clock()
    monkeypatch.setattr(api, "time", clock)
    base_placement = g.placement
    base = Slow(g.compiled, base[0], cpu_ms=base[1], clock=clock)
    g.compiled = base
    real_compile = g.tier._compile_fn
    made = []

    def compile_fn(device):
        made.append(Slow(real_compile(device), cand[0], cpu_ms=cand[1], clock=clock))
        return made[-1]

    g.tier._compile_fn = compile_fn
    used_before = ctx.budget.used
    run_until_done(ctx, g, x, want)
    cand = made[0]
    assert base.runs >= 5 and cand.runs >= 6  # five each, and the candidate's warm-up run
    assert g.placement is not base_placement and base_placement.tier_up is not None  # the memo's is not changed
    assert g.placement.tier_up is None
    if moves:
        assert g.compiled is cand and base.closed and not cand.closed
        assert g.placement.device.id == g.tier.device.id and g.placement.threads == 1
        why = g.placement.reasons[-1]
        assert why.startswith(f"tier-up: moved to {g.tier.device.id} ({moves}) after 3 dispatches"), why
    else:
        assert g.compiled is base and cand.closed and not base.closed
        assert g.placement.device.id == base_placement.device.id
        assert "measured and dropped" in g.placement.reasons[-1] and "at most 0.9x the time" in g.placement.reasons[-1]
    assert ctx.budget.used == used_before  # one compiled form charged, as before the trial
    # later dispatches go where the graph is, untimed
    runs = (cand if moves else base).runs
    np.testing.assert_allclose(ctx.compute(g, {"x": x})["y"], want, rtol=1e-4, atol=1e-5)
    assert (cand if moves else base).runs == runs + 1


def test_a_candidate_whose_run_fails_is_dropped_and_the_dispatch_still_runs():
    ml, ctx, g = trial_context()
    x = _x()
    want = ctx.compute(g, {"x": x})["y"]
    g.tier._compile_fn = lambda device: Slow(None, error=RuntimeError("boom"))
    run_until_done(ctx, g, x, want)
    assert "dropped: its run failed (RuntimeError: boom)" in g.placement.reasons[-1]
    assert g.placement.device.backend == "onnxruntime"


def test_a_candidate_that_fails_to_compile_leaves_the_graph_where_it_is():
    ml, ctx, g = trial_context()
    x = _x()
    want = ctx.compute(g, {"x": x})["y"]

    def fail(device):
        raise RuntimeError("no")

    g.tier._compile_fn = fail
    run_until_done(ctx, g, x, want)
    assert "not tried: its compile failed (RuntimeError: no)" in g.placement.reasons[-1]


def test_a_graph_destroyed_while_its_candidate_compiles_frees_it():
    ml, ctx, g = trial_context()
    x = _x()
    entered, gate, made = threading.Event(), threading.Event(), []
    real_compile = g.tier._compile_fn

    def compile_fn(device):
        entered.set()
        gate.wait(10)
        made.append(Slow(real_compile(device)))
        return made[-1]

    g.tier._compile_fn = compile_fn
    used = ctx.budget.used
    for _ in range(4):
        ctx.compute(g, {"x": x})
    assert g.tier.state == "compiling" and entered.wait(10)
    assert ctx.budget.used > used  # the candidate's bytes, charged while it compiles
    g.destroy()
    gate.set()
    assert tier_up.idle(30)
    assert made and made[0].closed
    assert ctx.budget.used < used  # the graph's bytes and the candidate's are back


def test_the_real_backends_give_the_same_results_throughout():
    """ONNX Runtime against the real candidate (OpenVINO where installed), whichever wins."""
    ml, ctx, g = trial_context()
    x = _x()
    want = ctx.compute(g, {"x": x})["y"]
    run_until_done(ctx, g, x, want)
    assert "tier-up" in g.placement.reasons[-1] and g.tier.outcome == g.placement.reasons[-1]


@pytest.mark.parametrize("can_idle", [True, False])
def test_the_compile_thread_takes_idle_cpu_time_only_inside_the_runtimes_calls(monkeypatch, can_idle):
    """Of idle priority while it holds the GIL, the thread would keep every dispatch waiting for as
    long as the machine stays busy; where it cannot come back from idle priority (an unprivileged
    process), it stays of normal priority."""
    import os

    if can_idle and not tier_up.can_idle():
        pytest.skip("this process cannot bring a thread back from SCHED_IDLE (RLIMIT_NICE)")
    monkeypatch.setattr(tier_up, "can_idle", lambda: can_idle)
    seen = []

    def job():
        seen.append(os.sched_getscheduler(0))
        with base.native_work():
            seen.append(os.sched_getscheduler(0))
        seen.append(os.sched_getscheduler(0))

    monkeypatch.setattr(tier_up, "IDLE", True)
    assert tier_up._submit(job)
    monkeypatch.setattr(tier_up, "IDLE", False)  # the next job (idle's own) without idle sections
    assert tier_up.idle(30)
    other = os.SCHED_OTHER
    assert seen == ([other, os.SCHED_IDLE, other] if can_idle else [other, other, other])


@pytest.mark.parametrize("backend", ["openvino"])
def test_a_compile_calls_its_runtime_inside_native_work(backend):
    """The runtime's own compile call (it releases the GIL) is marked, and only in pairs."""
    from webnn_bridge.backends import all_backends

    found = [(cls.instance(), d) for cls in all_backends() if cls.name == backend for d in cls.probe()
             if d.kind == "cpu"]
    if not found:
        pytest.skip(f"no {backend} CPU device here")
    b, device = found[0]
    ctx = ML().createContext()
    g = conv_graph(ctx)
    switched = []
    base.native_work_priority(switched.append)
    try:
        compiled = b.compile(g.ir, device)
    finally:
        base.native_work_priority(None)
    assert switched and switched == [True, False] * (len(switched) // 2)
    np.testing.assert_allclose(compiled.run({"x": _x()})["y"], ctx.compute(g, {"x": _x()})["y"], rtol=1e-4, atol=1e-5)
    compiled.close()
