"""The policy as the host applies it to contexts (Python object model, no browser)."""

from __future__ import annotations

import pytest

from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.ops.core import WebNNTypeError
from webnn_bridge.policy import engine
from webnn_bridge.policy.inventory import load_profile, probe_inventory


def _ml(rules_text: str | None = None, tmp_path=None, profile: str | None = None) -> ML:
    rules = None
    if rules_text is not None:
        p = tmp_path / "rules.toml"
        p.write_text(rules_text)
        rules = engine.load_rules(p)
    if profile is None:
        return ML(rules=rules)
    cpu = [d for d in probe_inventory() if d.kind == "cpu"][:1]
    return ML(load_profile(profile) + cpu, rules=rules, simulated=True)


@pytest.mark.parametrize("options,echo", [({}, True), ({"accelerated": False}, False), ({"accelerated": True}, True)])
def test_accelerated_echoes_the_hint_by_default(options, echo):
    assert _ml().createContext(options).accelerated is echo


def test_effective_mode_reports_the_chosen_device(tmp_path):
    on_cpu = _ml('[privacy]\naccelerated = "effective"\n', tmp_path).createContext({})
    assert on_cpu.accelerated is False  # this machine's inventory has no accelerator
    on_gpu = _ml('[privacy]\naccelerated = "effective"\n', tmp_path, "nvidia-cuda-trt").createContext({})
    assert on_gpu.accelerated is True
    assert _ml('[privacy]\naccelerated = "effective"\n', tmp_path, "nvidia-cuda-trt").createContext(
        {"computePolicy": "fallback"}).accelerated is False


def test_limits_are_a_bucket_and_the_builder_enforces_them(tmp_path):
    strict = _ml("[strict]\ndeviceType = true\n", tmp_path, "intel-laptop-npu").createContext({"deviceType": "npu"})
    assert strict.limits_profile == "npu-fp16"
    limits = strict.opSupportLimits()
    assert limits["input"]["dataTypes"] == ["float32", "float16"] and "gather" not in limits
    b = MLGraphBuilder(strict)
    with pytest.raises(WebNNTypeError):
        b.input("x", {"dataType": "int32", "shape": [2]})
    with pytest.raises(WebNNTypeError):
        b.input("y", {"dataType": "float32", "shape": [1] * 6})  # rank above the bucket's 4
    x = b.input("z", {"dataType": "float32", "shape": [2, 2]})
    with pytest.raises(WebNNTypeError):
        b.gather(x, b.constant({"dataType": "int32", "shape": [1]}, bytes(4)))
    # the same inventory without strictness may fall back to the CPU: the full CPU bucket
    loose = _ml(None, None, "intel-laptop-npu").createContext({"deviceType": "npu"})
    assert loose.limits_profile == "cpu-full"
    assert loose.opSupportLimits() is not loose.opSupportLimits()  # a fresh copy each call
