"""Pure decisions: which device a context prefers, where a built graph runs, and why."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from backends.base import Device

DEFAULT_RULES = Path(__file__).with_name("rules.toml")


def load_rules(path: str | Path | None = None) -> dict:
    rules = tomllib.loads(DEFAULT_RULES.read_text())
    if path is not None:
        override = tomllib.loads(Path(path).read_text())
        for key, value in override.items():
            if isinstance(value, dict) and isinstance(rules.get(key), dict):
                rules[key] = {**rules[key], **value}
            else:
                rules[key] = value
    return rules


@dataclass(frozen=True)
class Normalized:
    policy: str  # "default" | "high-performance" | "low-power" | "fallback"
    device_type: str | None
    source: str  # which option shape decided the policy


def normalize(options: Mapping[str, Any]) -> Normalized:
    """Map HEAD options, PR #923 computePolicy and legacy deviceType to one internal policy."""
    if options.get("computePolicy") is not None:
        return Normalized(options["computePolicy"], options.get("deviceType"), "computePolicy")
    if options.get("accelerated") is False:
        return Normalized("fallback", options.get("deviceType"), "accelerated=false")
    return Normalized(options.get("powerPreference", "default"), options.get("deviceType"), "powerPreference")


@dataclass
class Decision:
    device: Device | None
    policy: str
    candidates: list[Device] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    exec_device: Device | None = None  # differs from device only for simulated inventories


def _backend_rank(rules: dict, d: Device) -> int:
    order = rules["backends"]["order"]
    return order.index(d.backend) if d.backend in order else len(order)


def rank_devices(norm: Normalized, inventory: Sequence[Device], rules: dict) -> tuple[list[Device], list[str]]:
    reasons = [f"policy '{norm.policy}' from {norm.source}"]
    kinds = list(rules["policy"][norm.policy]["order"])
    if norm.device_type:
        kinds = list(rules["deviceType"][norm.device_type])
        reasons.append(f"legacy deviceType '{norm.device_type}' orders kinds {kinds}")
    ordered = sorted(
        (d for d in inventory if d.kind in kinds),
        key=lambda d: (kinds.index(d.kind), _backend_rank(rules, d), d.id),
    )
    missing = [k for k in kinds if not any(d.kind == k for d in inventory)]
    if missing:
        reasons.append(f"no {'/'.join(missing)} device in the inventory")
    return ordered, reasons


def decide_context(options: Mapping[str, Any], inventory: Sequence[Device], rules: dict | None = None) -> Decision:
    rules = rules or load_rules()
    norm = normalize(options)
    ordered, reasons = rank_devices(norm, inventory, rules)
    if not ordered:
        reasons.append("no device of an acceptable kind")
        return Decision(None, norm.policy, [], reasons)
    chosen = ordered[0]
    reasons.append(f"chose a {chosen.kind} device ({chosen.backend})")
    exec_device = chosen
    if chosen.backend == "simulated":
        cpu = [d for d in inventory if d.backend != "simulated" and d.kind == "cpu"]
        exec_device = cpu[0] if cpu else None
        reasons.append("simulated inventory: execution uses the CPU backend")
    return Decision(chosen, norm.policy, ordered, reasons, exec_device)


@dataclass
class Placement:
    device: Device
    fallback: str  # "none" | "partial" | "full"
    reasons: list[str]


def decide_build(decision: Decision, graph, inventory: Sequence[Device], rules: dict | None = None) -> Placement:
    """Per-graph placement at build(): the context's device runs the whole graph when it can."""
    device = decision.device
    # "full": the page hoped for an accelerator (any policy but fallback) and got the CPU
    fallback = "full" if device.kind == "cpu" and decision.policy != "fallback" else "none"
    return Placement(device, fallback, [f"whole graph on the context's {device.kind} device"])
