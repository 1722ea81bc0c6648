"""Device selection: options normalization, pure decisions with reasons, privacy bucketing.

Probing hardware happens only in inventory.probe_inventory(); everything else is a pure
function of (options, inventory, graph, rules) and is testable without hardware. Capability
declarations and their algebra (subset/union) live in backends/capabilities.py.

- engine.py        rules (rules.toml) -> normalize() -> decide_context() / decide_build() ([[routes]])
- inventory.py     probing, declared inventories (fixtures/), capabilities_of()
- graphs.py        GraphSummary from a GraphIR, a graph JSON file or a trace line
- perf.py          a device's cost-model figures (rules.toml [perf.*] x its perf hints)
- qos.py           static cost model, DAOP estimateQoS tiers
- privacy.py       bucketed opSupportLimits (profiles.toml), latency buckets, effective report
- replica.py       a graph's full structure in traces, rebuilt for measuring
- matrix.py        the latency matrix: per-graph statistics, matrix file checks, op classes, calibrated model
- truth_table.py   TRUTH_TABLE.md rendered from the rules

The engine imports nothing from bridge/: traces, measuring, tuning and the `webnn-bridge policy`
commands, which start hosts and pages, live above it in workbench/ (webnn_bridge.workbench).
"""
