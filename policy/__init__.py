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
- trace.py         JSONL traces, workloads, replay under two rule sets, replay table/CSV/PNG
- replica.py       a graph's full structure in traces, rebuilt for measuring
- matrix.py        the latency matrix: per-graph statistics, matrix file checks, op classes, calibrated model
- measure.py       re-running traced graphs on real devices (matrix), calibration, op-class model (impure:
                   it times runtimes; only the CLI calls it)
- tune.py          the rules search and its report
- truth_table.py   TRUTH_TABLE.md rendered from the rules
- cli.py           `webnn-bridge policy explain | replay | measure | calibrate | tune | check | truth-table`
"""
