"""The tuning workbench: traces, measurement and the rules search, above the host.

It records what pages ask for, re-runs it on this machine's devices (in process, or through a
browser page and a host: it starts the host, so it sits above bridge/) and searches the rules the
policy engine (policy/) reads. Nothing below it imports it: bridge/cli.py wires `webnn-bridge policy
...` and `serve --trace` to it.

- trace.py         JSONL traces (the host's observer), workloads, replay under two rule sets,
                   replay table/CSV/PNG
- measure.py       re-running traced graphs on real devices (matrix), calibration, op-class model
                   (impure: it times runtimes; only the CLI calls it)
- insitu.py        the same matrix timed where pages run the graphs (a browser and a host)
- tune.py          the rules search and its report
- cli.py           `webnn-bridge policy explain | replay | measure | calibrate | tune | check | truth-table`

The pure parts they read stay in the engine: policy/matrix.py (the matrix file and the calibrated
model), policy/replica.py (a graph's full structure in traces), policy/truth_table.py.
"""
