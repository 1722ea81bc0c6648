"""What the host builds its ML from (``webnn-bridge serve``, ``webnn-bridge wpt --devices``, the
Playwright suites): the probed inventory or a declared one, the rules, the compile cache."""

from __future__ import annotations


def ml_factory(devices: str | None, rules_path: str | None, cache_dir: str | None = None):
    """What the host builds its ML from: the probed inventory, or a declared (simulated) one.
    ``cache_dir``: where compiled graphs persist across restarts (None: in memory only)."""
    from .api import ML

    def make_ml():
        from webnn_bridge.backends.cache import CompileCache
        from webnn_bridge.policy.engine import load_rules
        from webnn_bridge.policy.inventory import is_simulated, load_profile, probe_inventory

        rules = load_rules(rules_path)
        cache = CompileCache(cache_dir)
        if devices:
            declared = load_profile(devices)
            if not any(is_simulated(d) for d in declared):  # every entry bound to a probed device
                return ML(declared, rules=rules, compile_cache=cache)
            cpu = [d for d in probe_inventory() if d.kind == "cpu"]
            return ML(declared + cpu[:1], rules=rules, simulated=True, compile_cache=cache)
        return ML(rules=rules, compile_cache=cache)

    return make_ml
