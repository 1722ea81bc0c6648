"""The routes a tuning wrote, told apart from the default rules' own (rules.toml §4b)."""

from __future__ import annotations

from webnn_bridge.policy import engine


def tuned(routes: list) -> list:
    """``routes`` without those of the default rules."""
    defaults = {r["id"] for r in engine.load_rules().get("routes", [])}
    return [r for r in routes if r.get("id") not in defaults]
