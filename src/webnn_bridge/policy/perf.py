"""A device's figures in the static cost model (rules.toml [perf.*], scaled or replaced by its
profile's perf hints): used by the cost model (qos.py) and by candidate ranking (engine.py)."""

from __future__ import annotations

from collections.abc import Mapping

from webnn_bridge.backends.base import Device

from .inventory import perf_hints


def perf_of(device: Device, rules: Mapping) -> dict[str, float]:
    """gflops, bandwidth_gbs, dispatch_ms, per_node_ms for a device."""
    base = dict(rules.get("perf", {}).get(device.kind, {}))
    perf = {
        "gflops": float(base.get("gflops", 100.0)),
        "bandwidth_gbs": float(base.get("bandwidth_gbs", 20.0)),
        "dispatch_ms": float(base.get("dispatch_ms", 0.5)),
        "per_node_ms": float(base.get("per_node_ms", 0.005)),
    }
    hints = perf_hints(device)
    tp = float(hints.get("throughput", 1.0))
    lat = float(hints.get("latency", 1.0))
    perf["gflops"] *= tp
    perf["bandwidth_gbs"] *= tp
    perf["dispatch_ms"] *= lat
    perf["per_node_ms"] *= lat
    for src, dst in (("gflops", "gflops"), ("bandwidthGBs", "bandwidth_gbs"), ("dispatchMs", "dispatch_ms"),
                     ("perNodeMs", "per_node_ms")):
        if src in hints:
            perf[dst] = float(hints[src])
    return perf
