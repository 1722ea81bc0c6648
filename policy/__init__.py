"""Device selection: options normalization, pure decisions with reasons, privacy bucketing.

Probing hardware happens only in inventory.probe_inventory(); everything else is a pure
function of (options, inventory, graph, rules) and is testable without hardware.

- engine.py        rules (rules.toml) -> normalize() -> decide_context() / decide_build()
- capabilities.py  compact capability declarations -> backends.base.Capabilities, subset/union
- inventory.py     probing, declared inventories (fixtures/), capabilities_of()
- graphs.py        GraphSummary from a GraphIR, a graph JSON file or a trace line
- qos.py           static cost model, DAOP estimateQoS tiers
- privacy.py       bucketed opSupportLimits (profiles.toml), latency buckets, effective report
- trace.py         JSONL traces, replay under two rule sets, replay table/CSV/PNG
- truth_table.py   TRUTH_TABLE.md rendered from the rules
- cli.py           `webnn-bridge policy explain | replay | truth-table`
"""
