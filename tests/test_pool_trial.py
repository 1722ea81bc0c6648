"""A pooled graph's thread count from its live runs (rules.toml [pool_trial], bridge/pool_trial.py):
a graph whose pool's threads mostly wait is tried on one thread of the same runtime, in blocks of
live dispatches, and the faster keeps it; the choice is tried again as the load changes, a graph
built again starts from it, and every dispatch's results are right throughout."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from webnn_bridge.backends import base
from webnn_bridge.bridge import api, pool_trial, tier_up
from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.bridge.pool_trial import PoolTrial
from webnn_bridge.policy import engine
from webnn_bridge.policy.engine import default_rules

from .test_tier_up import Clock, Slow


class Form(Slow):
    """A stand-in for one compiled form (the real one's results, known times) that closes the real one."""

    def close(self):
        super().close()
        self.real.close()


def rules_with(**trial) -> dict:
    rules = copy.deepcopy(default_rules())
    rules["pool_trial"].update({"min_dispatches": 3, "min_run_ms": 0.0, "block_runs": 3, "blocks": 2, "settle_s": 0.0,
                                **trial})
    return rules


@pytest.fixture(autouse=True)
def _fresh(monkeypatch):
    monkeypatch.setattr(tier_up, "IDLE", False)  # the compile thread at normal priority (tests in parallel)
    monkeypatch.setattr(base, "cpu_cores", lambda: 2)  # a pool of two, on any machine
    pool_trial.CHOICES.clear()
    yield
    pool_trial.CHOICES.clear()


def mlp(ctx):
    """Three 1024-wide layers on 64 rows: 400 MFLOP, enough for a pool (gains_from_threads)."""
    b = MLGraphBuilder(ctx)
    y = b.input("x", {"dataType": "float32", "shape": [64, 1024]})
    rng = np.random.default_rng(7)
    for _ in range(3):
        w = b.constant({"dataType": "float32", "shape": [1024, 1024]},
                       (rng.standard_normal((1024, 1024)) * 0.03).astype(np.float32))
        y = b.relu(b.matmul(y, w))
    return b.build({"y": y})


class Rig:
    """A context, its pooled graph with stand-ins of known times for its two forms, and the clocks
    the dispatch path and the trial read."""

    def __init__(self, monkeypatch, ml, pool=(6.0, 6.6), one=(5.0, 5.0), clock=None):
        self.ml, self.ctx = ml, ml.createContext()
        self.before = self.ctx.budget.used
        self.clock = clock or Clock()
        monkeypatch.setattr(api, "time", self.clock)
        self.g = mlp(self.ctx)
        assert isinstance(self.g.tier, PoolTrial), self.g.placement.reasons
        self.g.tier.clock = lambda: self.clock.wall
        self.pool = Form(self.g.compiled, *pool[:1], cpu_ms=pool[1], clock=self.clock)
        self.g.compiled = self.pool
        real = self.g.tier._compile_one
        self.made: list[Form] = []
        self.one_times = one

        def compile_one():
            self.made.append(Form(real(), self.one_times[0], cpu_ms=self.one_times[1], clock=self.clock))
            return self.made[-1]

        self.g.tier._compile_one = compile_one
        self.x = np.random.default_rng(1).standard_normal((64, 1024)).astype(np.float32)
        self.want = None

    @property
    def one(self) -> Form:
        return self.made[-1]

    def dispatch(self, n: int) -> None:
        for _ in range(n):
            got = self.ctx.compute(self.g, {"x": self.x})["y"]
            if self.want is None:
                self.want = got
            np.testing.assert_allclose(got, self.want, rtol=1e-4, atol=1e-4)
            if self.g.tier.state == "compiling":
                assert tier_up.idle(60)

    def reason(self) -> str:
        (why,) = [r for r in self.g.placement.reasons if r.startswith(pool_trial.REASON)]
        return why


def test_a_pool_whose_threads_wait_is_tried_and_one_thread_keeps_the_graph(monkeypatch):
    rig = Rig(monkeypatch, ML(rules=rules_with()), pool=(6.0, 6.6), one=(5.0, 5.0))
    used = rig.ctx.budget.used
    rig.dispatch(3 + 12)  # hot after 3; then 2 blocks of 3 runs of each form
    t = rig.g.tier
    assert t.choice is not None and not t.choice.pool and t.state == "watching"
    assert len(rig.made) == 1 and rig.one.runs == 6 and rig.pool.runs == 3 + 6
    assert rig.ctx.budget.used > used  # the one-thread form is charged to the page
    why = rig.reason()
    assert why.startswith("threads: one thread runs it (medians of 4 live runs each, in blocks: 6.00 ms "
                          "(6.60 ms of CPU) on a pool of 2, 5.00 ms (5.00 ms of CPU) on one thread"), why
    rig.dispatch(5)  # from now on one thread runs it
    assert rig.one.runs == 11 and rig.pool.runs == 9
    rig.g.destroy()
    assert rig.one.closed and rig.pool.closed and rig.ctx.budget.used == rig.before


def test_a_pool_whose_threads_work_together_is_not_tried(monkeypatch):
    rig = Rig(monkeypatch, ML(rules=rules_with()), pool=(3.0, 6.0), one=(5.0, 5.0))
    rig.dispatch(30)
    assert rig.made == [] and rig.g.tier.state == "watching" and rig.g.tier.choice is None
    assert not any(r.startswith(pool_trial.REASON) for r in rig.g.placement.reasons)


def test_a_pool_is_tried_only_once_its_threads_have_waited_for_settle_s(monkeypatch):
    rig = Rig(monkeypatch, ML(rules=rules_with(settle_s=0.1)), pool=(6.0, 6.6), one=(5.0, 5.0))
    t = rig.g.tier
    rig.dispatch(3 + 8)  # hot, its threads waiting from the 3rd run on: 8 runs, 48 ms
    assert rig.made == [] and t.state == "watching" and t.waiting_since is not None
    rig.pool.cpu_ms = 12.0  # they work together (once the median of the last 8 runs says so): the wait ends
    rig.dispatch(8)
    assert t.waiting_since is None and rig.made == []
    rig.pool.cpu_ms = 6.6
    rig.dispatch(5)  # the median says they wait again from the 5th such run
    assert t.waiting_since is not None
    rig.dispatch(16)  # 96 ms since
    assert rig.made == []
    rig.dispatch(1)  # 102 ms
    assert len(rig.made) == 1


def test_a_faster_pool_keeps_the_graph(monkeypatch):
    # its threads wait more than they work, and it still takes at most 0.95x one thread's time (0.9x)
    rig = Rig(monkeypatch, ML(rules=rules_with()), pool=(4.5, 5.2), one=(5.0, 5.0))
    rig.dispatch(3 + 12 + 5)
    t = rig.g.tier
    assert t.choice.pool and rig.one.runs == 6 and rig.pool.runs == 3 + 6 + 5
    assert rig.reason().startswith("threads: the pool of 2 runs it")


def test_the_choice_is_tried_again_as_the_load_changes(monkeypatch):
    rig = Rig(monkeypatch, ML(rules=rules_with(recheck_s=2.0, max_recheck_s=5.0)), pool=(6.0, 6.6), one=(5.0, 5.0))
    rig.dispatch(15)
    t = rig.g.tier
    assert not t.choice.pool and t.choice.wait_s == 2.0 and t.trials == 1
    rig.dispatch(3)  # not due yet: nothing tried
    assert t.trials == 1 and t.state == "watching"
    rig.clock.wall += 2.0
    rig.dispatch(3 + 12)  # due: tried again, the same outcome, and it stands twice as long
    assert t.trials == 2 and not t.choice.pool and t.choice.wait_s == 4.0
    rig.clock.wall += 4.0
    rig.dispatch(15)
    assert t.trials == 3 and t.choice.wait_s == 5.0  # at most max_recheck_s
    # the busy neighbour left: the pool's threads work together again and it wins its next trial
    rig.pool.ms, rig.pool.cpu_ms = 3.0, 6.0
    rig.clock.wall += 5.0
    runs = rig.pool.runs
    assert t.count == 2  # two runs since the last trial: the next one makes it hot
    rig.dispatch(1 + 12 + 4)
    assert t.trials == 4 and t.choice.pool and t.choice.wait_s == 2.0  # a new choice's wait starts over
    assert rig.pool.runs == runs + 6 + 4 and rig.reason().startswith("threads: the pool of 2 runs it")


def test_slower_runs_of_the_chosen_form_are_tried_again_at_once(monkeypatch):
    rig = Rig(monkeypatch, ML(rules=rules_with(recheck_s=60.0)), pool=(6.0, 6.6), one=(5.0, 5.0))
    rig.dispatch(15)
    t = rig.g.tier
    assert not t.choice.pool and t.trials == 1
    rig.one.ms = rig.one.cpu_ms = 5.0 * 1.2  # slower, but within drift
    rig.dispatch(20)
    assert t.trials == 1
    rig.one.ms = rig.one.cpu_ms = 5.0 * 1.5  # 1.5x its trial's median
    rig.dispatch(8)
    assert t.trials == 1 and t.state == "watching"  # not within MIN_RETRY_S of the last trial
    rig.clock.wall += pool_trial.MIN_RETRY_S
    rig.dispatch(1 + 12)  # a trial, long before 60 s
    assert t.trials == 2 and t.choice.pool  # the pool's 6 ms now beats one thread's 7.5 ms


def test_a_graph_built_again_starts_from_its_choice(monkeypatch):
    ml = ML(rules=rules_with())
    first = Rig(monkeypatch, ml, pool=(6.0, 6.6), one=(5.0, 5.0))
    first.dispatch(15)
    assert not first.g.tier.choice.pool
    again = ml.createContext()
    g = mlp(again)  # the same graph: its one-thread form compiles at once, and runs it once compiled
    assert isinstance(g.tier, PoolTrial) and g.tier.choice is not None and not g.tier.choice.pool
    assert tier_up.idle(60)  # (the compile may be done already: the cache holds the first graph's form)
    assert g.tier.one is not None and not g.tier.uses_pool and g.tier.trials == 0
    compiled, is_one = g.tier.pick()
    assert is_one and compiled is g.tier.one
    want = again.compute(g, {"x": first.x})["y"]
    np.testing.assert_allclose(want, first.want, rtol=1e-4, atol=1e-4)


def test_a_one_thread_form_that_fails_is_dropped_and_the_dispatch_still_runs(monkeypatch):
    rig = Rig(monkeypatch, ML(rules=rules_with()), pool=(6.0, 6.6), one=(5.0, 5.0))
    real = rig.g.tier._compile_one

    def failing():
        f = real()
        f.error = RuntimeError("boom")
        return f

    rig.g.tier._compile_one = failing
    rig.dispatch(3 + 6)
    t = rig.g.tier
    assert t.state == "done" and t.one is None and rig.made[-1].closed
    assert rig.reason() == "threads: the pool of 2 runs it: its one-thread form failed (RuntimeError: boom)"
    rig.dispatch(3)  # the pool runs it, right
    rig.g.destroy()
    assert rig.ctx.budget.used == rig.before


def test_the_real_forms_give_the_same_results_throughout(monkeypatch):
    """No stand-ins: the runtime's pool and its one thread, the trial forced (any parallelism)."""
    ml = ML(rules=rules_with(min_parallelism=100.0))
    ctx = ml.createContext()
    g = mlp(ctx)
    x = np.random.default_rng(2).standard_normal((64, 1024)).astype(np.float32)
    want = ctx.compute(g, {"x": x})["y"]
    seen = set()
    for _ in range(40):
        seen.add(g.tier.pick()[1])
        np.testing.assert_allclose(ctx.compute(g, {"x": x})["y"], want, rtol=1e-4, atol=1e-4)
        if g.tier.state == "compiling":
            assert tier_up.idle(60)
    assert seen == {True, False} and g.tier.trials >= 1
    assert getattr(g.tier.one, "compiled", g.tier.one).threads == 1


def test_a_thread_count_set_by_the_policy_is_kept(monkeypatch):
    rules = rules_with()
    rules["policy"]["default"]["cpu_threads"] = 2
    g = mlp(ML(rules=rules).createContext())
    assert g.placement.threads == 2 and g.tier is None


def test_the_default_rules_try_pools_and_the_rules_file_checks_pool_trial():
    assert default_rules()["pool_trial"]["enabled"] is True
    for bad in ({"margin": 1.5}, {"block_runs": 1}, {"blocks": 0}, {"drift": 0.9}, {"min_parallelism": 0.5},
                {"recheck_s": -1.0}, {"min_dispatches": True}):
        assert engine.validate_rules(rules_with(**bad)), bad
    assert not engine.validate_rules(rules_with(margin=1.0))
    assert engine.check_rules_file({"pool_trial": {"margin": "x"}}, default_rules())
    assert not engine.check_rules_file({"pool_trial": {"enabled": False}}, default_rules())
