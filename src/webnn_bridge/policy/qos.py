"""A static cost model: estimated graph latency on a device or a placement, and DAOP tiers.

The estimate is a roofline per node (max of compute time and memory time), plus a fixed cost
per node and per dispatch, plus a cost per partition boundary. Figures per device kind come
from rules.toml [perf.*]; a device profile's perf hints scale or replace them. The numbers
stay on the host: a page only ever sees the tier (``estimate_qos``).
"""

from __future__ import annotations

from collections.abc import Mapping

from webnn_bridge.backends.base import Device

from .graphs import GraphSummary, _nbytes, node_bytes, node_flops, summarize
from .perf import perf_of


def node_ms(node, perf: Mapping[str, float]) -> float:
    compute = node_flops(node) / (perf["gflops"] * 1e9)
    memory = node_bytes(node) / (perf["bandwidth_gbs"] * 1e9)
    return perf["per_node_ms"] + max(compute, memory) * 1e3


def estimate_latency_ms(graph, device: Device | None = None, rules: Mapping | None = None, *,
                        placement=None) -> float:
    """Estimated latency of one dispatch: the whole graph on ``device``, or as ``placement``
    (policy.engine.Placement) splits it between an accelerator and the CPU."""
    from .engine import default_rules

    rules = rules or default_rules()
    summary: GraphSummary = summarize(graph)
    if placement is not None:
        device = device or placement.device
    if device is None:
        raise ValueError("estimate_latency_ms needs a device or a placement")
    devices = {device.id: device}
    assignment = [device.id] * len(summary.nodes)
    if placement is not None and len(placement.assignment) == len(summary.nodes):
        devices[placement.device.id] = placement.device
        if placement.fallback_device is not None:
            devices[placement.fallback_device.id] = placement.fallback_device
        assignment = [a if a in devices else device.id for a in placement.assignment]
    perfs = {i: perf_of(d, rules) for i, d in devices.items()}
    transfer = dict(rules.get("perf", {}).get("transfer", {}))
    boundary_ms = float(transfer.get("boundary_ms", 0.2))
    transfer_bw = float(transfer.get("bandwidth_gbs", 10.0))
    total = perfs[device.id]["dispatch_ms"]
    prev = None
    for node, dev in zip(summary.nodes, assignment):
        total += node_ms(node, perfs[dev])
        if prev is not None and dev != prev:
            total += boundary_ms + node_bytes_in(node) / (transfer_bw * 1e9) * 1e3
        prev = dev
    return total


def node_bytes_in(node) -> int:
    """Bytes a node reads: what crosses a partition boundary in front of it."""
    return sum(_nbytes(t, s) for _, t, s in node.operands)


def qos_tier(ms: float, rules: Mapping | None = None) -> str:
    """The DAOP performance tier for a latency (boundaries from rules.toml [qos])."""
    from .engine import default_rules

    rules = rules or default_rules()
    q = rules["qos"]
    tiers, bounds = list(q["tiers"]), [float(b) for b in q["upper_ms"]]
    if len(bounds) != len(tiers) - 1:
        raise ValueError("[qos] needs one upper_ms bound fewer than tiers")
    for tier, bound in zip(tiers, bounds):
        if ms < bound:
            return tier
    return tiers[-1]


def estimate_qos(graph, device: Device | None = None, rules: Mapping | None = None, *, placement=None) -> str:
    """DAOP estimateQoS(): one of excellent, good, fair, moderate, slow, very-slow, poor."""
    return qos_tier(estimate_latency_ms(graph, device, rules, placement=placement), rules)
