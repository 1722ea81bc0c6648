"""One-command GPU check (run by scripts/gpu-check.sh; see README "GPU check").

On a machine without a GPU backend it says so and exits 0. With one it:
  1. runs the WPT-derived conformance cases (../shared/data/wpt_conformance) on every GPU device
     the backends probe (PyTorch CUDA/ROCm/MPS/XPU, ONNX Runtime CUDA/TensorRT EP, TensorRT) and,
     for comparison, on ONNX Runtime's and PyTorch's CPU; prints passed / failed / unsupported per device;
  2. times MobileNetV2 (the e2e graph from ../shared/data/mobilenetv2, the missing FC matrix
     replaced by its seeded stand-in) on each GPU device against the CPU backends, in-process;
  3. times a larger graph where a GPU should win clearly: a stack of transformer blocks
     (layerNormalization, single-head attention, a GELU MLP; matmuls of [seq, dim] x [dim, 4 dim]);
  4. measures the process's CPU time per run against the run's latency (issue 39, CPU thrift), with
     2 ms pauses between runs: relu(x @ W) six times on [16, 1024] and MobileNetV2, on ONNX
     Runtime's CPU with the host's default pool (pool_threads(), no spinning), with spinning
     (`serve --spin`), and with a thread per core, spinning or not (the host before issue 39 had
     a thread per core, spinning within runs); and the chain on each GPU device; then, where
     websockets is installed, benchmarks/bench_cpu.py through a host (`--skip-cpu` skips both);
  5. the tuning loop through hosts driven over the wire, the page's path (issue 36;
     benchmarks/tune_loop.py, `--skip-tune` skips it): on the first GPU and ONNX Runtime's CPU
     (with --devices: those), tiny, small, MLP, MobileNetV2 and transformer graphs recorded under
     the current rules and each single device's, `policy measure`, `policy tune`, then the tuned
     rules and each single device re-run: prediction errors, tuned against each single device;
  6. large tensors over the page's path (issue 39; benchmarks/bench_transfer.py, `--skip-transfer`
     skips it): 16 MiB written, run through relu on a GPU context and read back over a host's
     websocket, against a bare websocket echo of the same bytes, and the same in process: where the
     time goes (the transport, the backend's copies and run, the host's part).
For PyTorch GPU devices the timings are given four ways: compute() as a page gets it (host arrays
in and out; on CUDA a run after the first replays a CUDA graph, the default), the same without CUDA
graphs (eager), device-resident without them (inputs already on the GPU, outputs left there) and
device-resident replayed as a CUDA graph.

It works from the repository in place, without ``pip install -e``: the ``webnn_bridge`` package
is mapped onto the checkout here, and nothing imported needs websockets (only the server does).
Timings are medians of a few runs: noisy, indicative only.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
import types
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _in_place() -> None:
    """Import this checkout as ``webnn_bridge`` (its src/webnn_bridge/) and make ``tests`` importable;
    stand-ins for pytest (the conformance module decorates its tests at import) and Pillow where they
    are missing."""
    sys.path.insert(0, str(REPO))
    sys.path.insert(0, str(REPO / "src"))
    try:
        import PIL.Image  # noqa: F401 - tests/models/mobilenet_data imports it (only its preprocess() uses it)
    except ImportError:
        pil = types.ModuleType("PIL")
        pil.Image = None
        sys.modules["PIL"] = pil
    try:
        import pytest  # noqa: F401
    except ImportError:
        stub = types.ModuleType("pytest")

        class _Mark:
            def __getattr__(self, name):
                return lambda *a, **k: (lambda f: f)

        class _Skipped(Exception):
            pass

        def skip(reason=""):
            raise _Skipped(reason)

        def fail(reason=""):
            raise AssertionError(reason)

        stub.mark = _Mark()
        stub.param = lambda *a, **k: a
        stub.skip, stub.fail = skip, fail
        sys.modules["pytest"] = stub


def data_dir(arg: str | None) -> Path | None:
    for cand in (arg, os.environ.get("WEBNN_BRIDGE_DATA"), REPO.parent / "shared" / "data", REPO / "shared" / "data"):
        if cand and (Path(cand) / "wpt_conformance").is_dir():
            return Path(cand)
    return None


def median_ms(fn, iters: int, warmup: int = 2, sync=None) -> float:
    for _ in range(warmup):
        fn()
    if sync:
        sync()
    times = []
    for _ in range(iters):
        t = time.perf_counter()
        fn()
        if sync:
            sync()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


# --------------------------------------------------------------------------- conformance


def conformance(device, tc, runs: int = 1) -> dict:
    """The conformance cases on one device alone: passed / failed / unsupported (the device's
    capabilities refuse the graph at build, which a real inventory partitions or falls back).
    ``runs``: computes per case, each checked (3 on a CUDA device: eager, captured as a CUDA
    graph, replayed)."""
    from webnn_bridge.bridge.api import ML
    from webnn_bridge.ops.core import WebNNError

    ctx = ML([device]).createContext()
    counts = {"passed": 0, "failed": 0, "unsupported": 0}
    failures: list[str] = []
    t0 = time.perf_counter()
    for case in tc.CASES:
        try:
            graph, feeds, nodes = tc.build_case(ctx, case)
        except (WebNNError, TypeError) as e:
            counts["unsupported"] += 1
            if not isinstance(e, WebNNError):
                failures.append(f"{case.name}: build: {e}")
            continue
        try:
            out_type = next(iter(case.graph["expectedOutputs"].values()))["descriptor"]["dataType"]
            metric, tol = tc.graph_tolerance(nodes, out_type)
            bad = []
            for run in range(runs):
                results = ctx.compute(graph, feeds)
                for name, spec in case.graph["expectedOutputs"].items():
                    bad += [f"run {run + 1}: {m}" for m in
                            tc.mismatches(results[name], case.expected[name], spec["descriptor"]["dataType"], metric, tol)]
            ok = not bad
            if bad:
                failures.append(f"{case.name}: {bad[0]}")
        except Exception as e:  # noqa: BLE001 - a failing case is counted, the check goes on
            ok = False
            failures.append(f"{case.name}: {type(e).__name__}: {e}")
        finally:
            graph.destroy()
        counts["passed" if ok else "failed"] += 1
    counts["seconds"] = round(time.perf_counter() - t0, 1)
    counts["failures"] = failures[:10]
    return counts


# --------------------------------------------------------------------------- policy

PLACEMENT_OPTIONS = ({}, {"powerPreference": "high-performance"}, {"accelerated": True},
                     {"computePolicy": "high-performance"}, {"deviceType": "gpu"}, {"accelerated": False},
                     {"powerPreference": "low-power"})


def placement(inventory) -> dict:
    """Where the policy places contexts on this machine's probed inventory (device id per option
    set), and a small conv2d graph built and run through the high-performance context, its output
    compared with the numpy reference's."""
    import numpy as np

    from webnn_bridge.bridge.api import ML, MLGraphBuilder

    ml = ML(inventory)
    out: dict = {"contexts": {}}
    for opts in PLACEMENT_OPTIONS:
        try:
            out["contexts"][json.dumps(opts)] = ml.createContext(opts).device.id
        except Exception as e:  # noqa: BLE001 - reported, the check goes on
            out["contexts"][json.dumps(opts)] = f"{type(e).__name__}: {e}"

    def run(ctx):
        rng = np.random.default_rng(3)
        b = MLGraphBuilder(ctx)
        x = b.input("x", {"dataType": "float32", "shape": [1, 8, 32, 32]})
        w = b.constant({"dataType": "float32", "shape": [16, 8, 3, 3]}, rng.standard_normal((16, 8, 3, 3), dtype=np.float32))
        graph = b.build({"y": b.relu(b.conv2d(x, w, {"padding": [1, 1, 1, 1]}))})
        try:
            return ctx.compute(graph, {"x": rng.standard_normal((1, 8, 32, 32), dtype=np.float32)})["y"], graph.devices
        finally:
            graph.destroy()

    try:
        ctx = ml.createContext({"powerPreference": "high-performance"})
        y, kinds = run(ctx)
        ref, _ = run(ML([d for d in inventory if d.backend == "reference"]).createContext())
        out["graph"] = {"device": ctx.exec_device.id, "graph_devices": list(kinds),
                        "max_abs_diff": float(np.abs(y.astype(np.float64) - ref).max())}
    except Exception as e:  # noqa: BLE001
        out["graph"] = {"error": f"{type(e).__name__}: {e}"}
    return out


# --------------------------------------------------------------------------- graphs


def mobilenet_graph(b, w):
    """MobileNetV2 as the e2e page builds it (tests/models/mobilenet_data.py's layer list)."""
    from tests.models import mobilenet_data as md

    def const(a):
        import numpy as np

        a = np.ascontiguousarray(a, np.float32)
        return b.constant({"dataType": "float32", "shape": list(a.shape)}, a)

    def conv(x, n, stride, groups, pad, relu6):
        y = b.conv2d(x, const(w[f"conv_{n}_weight"]), {"bias": const(w[f"conv_{n}_bias"]), "strides": [stride, stride],
                                                       "padding": [pad] * 4, "groups": groups})
        return b.clamp(y, {"minValue": 0, "maxValue": 6}) if relu6 else y

    x = b.input("input", {"dataType": "float32", "shape": [1, 3, 224, 224]})
    y = md.layers(x, w, conv, lambda a, c, _n: b.add(c, a))
    y = b.reshape(b.averagePool2d(y), [1, 1280])
    y = b.gemm(y, const(w["gemm_104_weight"]), {"c": const(w["gemm_104_bias"]), "bTranspose": True})
    return b.build({"output": b.softmax(y, 1)})


def transformer_graph(b, layers: int, seq: int, dim: int):
    """``layers`` pre-norm transformer blocks on [seq, dim] float32: single-head attention and a
    4x GELU MLP, with residual adds (random weights, fixed seed)."""
    import numpy as np

    rng = np.random.default_rng(0)

    def weight(*shape):
        a = (rng.standard_normal(shape, dtype=np.float32) / np.sqrt(shape[0])).astype(np.float32)
        return b.constant({"dataType": "float32", "shape": list(shape)}, a)

    x = b.input("x", {"dataType": "float32", "shape": [seq, dim]})
    scale = b.constant({"dataType": "float32", "shape": []}, np.array(1 / np.sqrt(dim), np.float32))
    for _ in range(layers):
        h = b.layerNormalization(x, {"axes": [1]})
        q, k, v = (b.matmul(h, weight(dim, dim)) for _ in range(3))
        att = b.softmax(b.mul(b.matmul(q, b.transpose(k)), scale), 1)
        x = b.add(x, b.matmul(b.matmul(att, v), weight(dim, dim)))
        h = b.layerNormalization(x, {"axes": [1]})
        x = b.add(x, b.matmul(b.gelu(b.matmul(h, weight(dim, 4 * dim))), weight(4 * dim, dim)))
    return b.build({"y": x})


def time_graph(devices, gpus, make, feeds, iters_gpu: int, iters_cpu: int) -> list[dict]:
    """compute() medians per device, max abs difference to the first device's output (ONNX
    Runtime's CPU), and for
    PyTorch GPU devices the device-resident and CUDA-graph medians."""
    import numpy as np

    from webnn_bridge.bridge.api import ML, MLGraphBuilder

    rows, first = [], None
    for dev in devices:
        row = {"device": dev.id, "kind": dev.kind, "checked": dev in gpus}
        try:
            ctx = ML([dev]).createContext()
            t0 = time.perf_counter()
            graph = make(MLGraphBuilder(ctx))
            row["build_ms"] = round((time.perf_counter() - t0) * 1e3, 1)
            iters = iters_gpu if dev in gpus else iters_cpu
            out = ctx.compute(graph, feeds)
            row["compute_ms"] = round(median_ms(lambda c=ctx, g=graph: c.compute(g, feeds), iters), 3)
            y = next(iter(out.values()))
            if first is None:
                first = y
            row["max_abs_diff"] = float(np.abs(y.astype(np.float64) - first.astype(np.float64)).max())
            if dev.backend == "torch" and dev in gpus:
                row.update(_torch_resident(graph, dev, feeds, iters))
            graph.destroy()
        except Exception as e:  # noqa: BLE001 - one device's failure is reported, the check goes on
            row["error"] = f"{type(e).__name__}: {e}"
        rows.append(row)
    return rows


def _torch_resident(graph, dev, feeds, iters: int) -> dict:
    import torch

    from webnn_bridge.backends.torch import TorchCompiled

    out = {}
    cuda = dev.providers[0].startswith("cuda")
    sync = torch.cuda.synchronize if cuda else None
    for key, graphs in (("resident_ms", False), ("cuda_graph_ms", True)):
        if graphs and not cuda:
            continue
        c = TorchCompiled(graph.ir, dev, cuda_graphs=graphs)
        if not graphs:
            out["eager_ms"] = round(median_ms(lambda c=c: c.run(feeds), iters), 3)
        dfeeds = c.to_device(feeds)
        out[key] = round(median_ms(lambda c=c, f=dfeeds: c.run_device(f), iters, warmup=3, sync=sync), 3)
        if graphs:
            out["cuda_graph_captured"] = c.cuda_graph is not None
        c.close()
    return out


# --------------------------------------------------------------------------- CPU per run (issue 39)


def chain_ir(layers: int = 6, rows: int = 16, width: int = 1024):
    """relu(x @ W) ``layers`` times on x: float32[rows, width], one W: float32[width, width]."""
    import numpy as np

    from webnn_bridge.bridge.api import ML, MLGraphBuilder
    from webnn_bridge.policy.inventory import REFERENCE_CPU

    b = MLGraphBuilder(ML([REFERENCE_CPU]).createContext({}))
    y = b.input("x", {"dataType": "float32", "shape": [rows, width]})
    w = b.constant({"dataType": "float32", "shape": [width, width]},
                   (np.random.default_rng(0).standard_normal((width, width)) / np.sqrt(width)).astype(np.float32))
    for _ in range(layers):
        y = b.relu(b.matmul(y, w))
    return b._collect({"y": y})


def cpu_ratio(compiled, feeds, runs: int, pause_s: float = 0.002) -> dict:
    """``runs`` runs with a pause after each: the latency (p50, mean) and the process's CPU time
    per run, pauses included (so threads that spin after a run are charged)."""
    for _ in range(5):
        compiled.run(feeds)
    time.sleep(0.05)
    lat = []
    c0 = time.process_time()
    for _ in range(runs):
        t = time.perf_counter()
        compiled.run(feeds)
        lat.append((time.perf_counter() - t) * 1e3)
        time.sleep(pause_s)
    cpu = (time.process_time() - c0) * 1e3 / runs
    mean = statistics.fmean(lat)
    return {"p50_ms": statistics.median(lat), "mean_ms": mean, "cpu_ms": cpu, "ratio": cpu / mean}


def cpu_per_run(inventory, gpus, weights, rounds: int = 3, runs: int = 100) -> list[dict]:
    """CPU time per run over its latency on ONNX Runtime's CPU under four pool settings (each its
    own session, measured in turn each round; medians over rounds), and on each GPU device."""
    import dataclasses

    import numpy as np

    from webnn_bridge.backends import backend_for, base

    rows: list[dict] = []
    cpu = next((d for d in inventory if d.id == "onnxruntime:CPUExecutionProvider"), None)
    graphs = {"chain [16,1024] x6": (chain_ir(), {"x": np.random.default_rng(1).standard_normal((16, 1024),
                                                                                              dtype=np.float32)})}
    if weights is not None:
        from webnn_bridge.bridge.api import ML, MLGraphBuilder

        ctx = ML([cpu] if cpu else inventory[:1]).createContext()
        graphs["MobileNetV2"] = (mobilenet_graph(MLGraphBuilder(ctx), weights).ir,
                                 {"input": np.random.default_rng(1).standard_normal((1, 3, 224, 224), dtype=np.float32)})
    cores = base.cpu_cores()
    settings = {f"default ({base.pool_threads(1)} threads, no spin)": (0, ""),
                f"--spin ({base.pool_threads(1)} threads)": (0, "1"),
                f"{cores} threads, no spin": (cores, ""),
                f"{cores} threads, spin (before issue 39)": (cores, "1")}
    print(f"CPU time per run against its latency, {rounds} rounds x {runs} runs with 2 ms pauses, {cores} cores "
          f"(load {' '.join(f'{v:.2f}' for v in os.getloadavg())}):")
    for gname, (ir, feeds) in graphs.items():
        compiled: dict[str, object] = {}
        if cpu is not None:
            for name, (threads, spin) in settings.items():
                old = os.environ.get(base.SPIN_ENV, "")
                os.environ[base.SPIN_ENV] = spin  # read when the session is created
                try:
                    compiled[name] = backend_for(cpu).compile(ir, dataclasses.replace(cpu, threads=threads))
                finally:
                    os.environ[base.SPIN_ENV] = old
        for dev in gpus:
            try:
                compiled[dev.id] = backend_for(dev).compile(ir, dev)
            except Exception as e:  # noqa: BLE001 - reported, the check goes on
                rows.append({"graph": gname, "setting": dev.id, "error": f"{type(e).__name__}: {e}"})
        samples: dict[str, list[dict]] = {k: [] for k in compiled}
        for _ in range(rounds):
            for name, c in compiled.items():
                samples[name].append(cpu_ratio(c, feeds, runs if "Mobile" not in gname else max(20, runs // 3)))
        for name, got in samples.items():
            row = {"graph": gname, "setting": name,
                   **{k: round(statistics.median(g[k] for g in got), 3) for k in got[0]}}
            rows.append(row)
            print(f"  {gname:20s} {name:42s} p50 {row['p50_ms']:8.3f} ms  mean {row['mean_ms']:8.3f} ms  "
                  f"CPU {row['cpu_ms']:8.3f} ms  CPU/mean {row['ratio']:5.2f}x")
        for c in compiled.values():
            c.close()
    return rows


def cpu_through_host(data: Path | None) -> str:
    """benchmarks/bench_cpu.py (a host subprocess per setting, driven over the wire): its table, or
    why it did not run."""
    import importlib.util
    import subprocess

    if importlib.util.find_spec("websockets") is None:
        return "not run: websockets is not installed (the host needs it)"
    env = dict(os.environ)
    if data is not None:
        env["WEBNN_BRIDGE_DATA"] = str(data)
    try:
        r = subprocess.run([sys.executable, str(REPO / "benchmarks" / "bench_cpu.py"), "--rounds", "3", "--n", "100"],
                           cwd=REPO, env=env, capture_output=True, text=True, timeout=400)
    except subprocess.TimeoutExpired:
        return "not finished in 400 s"
    out = r.stdout if r.returncode == 0 else f"exit {r.returncode}: {r.stderr[-1500:]}"
    print("benchmarks/bench_cpu.py through a host:\n" + out)
    return out


# --------------------------------------------------------------------------- main


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", help="the shared data folder (default: ../shared/data or ./shared/data)")
    ap.add_argument("--iters", type=int, default=30, help="timed runs per GPU device (CPU: a third)")
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--seq", type=int, default=512)
    ap.add_argument("--dim", type=int, default=1024)
    ap.add_argument("--skip-conformance", action="store_true")
    ap.add_argument("--skip-tests", action="store_true",
                    help="do not run the unit tests that use GPU devices (pytest: the capability sweep, "
                         "the PyTorch backend's tests, the fuzz tests)")
    ap.add_argument("--skip-cpu", action="store_true", help="do not measure CPU time per run (step 4)")
    ap.add_argument("--skip-tune", action="store_true", help="do not run the tuning loop (step 5)")
    ap.add_argument("--skip-transfer", action="store_true", help="do not time large tensors over the wire (step 6)")
    ap.add_argument("--tune-rounds", type=int, default=3, help="tuning loop: rounds recorded and re-run")
    ap.add_argument("--tune-seconds", type=float, default=15.0, help="tuning loop: `policy measure` time budget")
    ap.add_argument("--tune-size", default="2x256x512",
                    help="tuning loop: its transformer's LAYERSxSEQxDIM (default 2x256x512)")
    ap.add_argument("--tune-out", help="tuning loop: keep its traces, matrix, rules and report here")
    ap.add_argument("--json", help="also write the results to this file")
    ap.add_argument("--devices", help="check these device ids (comma-separated) as the GPU path would, whatever "
                                      "their kind: a dry run of the check on a machine without a GPU")
    args = ap.parse_args(argv)

    _in_place()
    os.environ.setdefault("WEBNN_BRIDGE_TORCH", "gpu")  # ask PyTorch itself for GPUs (src/webnn_bridge/backends/torch.py)
    import numpy as np

    from webnn_bridge.policy.inventory import probe_inventory

    t_start = time.perf_counter()
    inventory = probe_inventory()
    gpus = [d for d in inventory if d.kind == "gpu"]
    if args.devices:
        wanted = args.devices.split(",")
        gpus = [d for d in inventory if d.id in wanted]
        if len(gpus) != len(wanted):
            print(f"unknown device(s): {sorted(set(wanted) - {d.id for d in gpus})}")
            return 2
    print(f"webnn-bridge GPU check: {platform.node()} {platform.machine()}, Python {platform.python_version()}")
    print("devices: " + ", ".join(f"{d.id} ({d.kind})" for d in inventory))
    result: dict = {"devices": [d.id for d in inventory], "gpus": [{"id": d.id, "name": d.name} for d in gpus]}
    if not gpus:
        print("RESULT: no GPU: no backend found a GPU device on this machine " + _why_no_gpu())
        _write(args.json, {**result, "result": "no GPU"})
        return 0

    result["software"] = _software()
    print("software: " + ", ".join(f"{k} {v}" for k, v in result["software"].items()))
    place = result["placement"] = placement(inventory)
    print("policy placement on this inventory:")
    for opts, dev in place["contexts"].items():
        print(f"  createContext({opts}) -> {dev}")
    g = place["graph"]
    print("  conv2d+relu through the high-performance context: "
          + (f"error: {g['error']}" if "error" in g else
             f"ran on {g['device']} (graph.devices {g['graph_devices']}), max|diff| to the reference {g['max_abs_diff']:.2e}"))

    data = data_dir(args.data)
    cpu_ref = [d for d in inventory if d.id == "onnxruntime:CPUExecutionProvider"]
    cpus = [d for d in cpu_ref + [d for d in inventory if d.backend == "torch" and d.kind == "cpu"] if d not in gpus]
    if not args.skip_conformance:
        if data is None:
            print("conformance: skipped (no shared data folder: pass --data or set WEBNN_BRIDGE_DATA)")
        else:
            from tests import test_conformance as tc

            if tc.DATA_DIR != data / "wpt_conformance":
                tc.DATA_DIR = data / "wpt_conformance"
                tc.CASES = tc.load_cases()
            print(f"conformance: {len(tc.CASES)} cases per device")
            result["conformance"] = {}
            for dev in gpus + cpus:
                cuda = dev.backend == "torch" and dev.providers and dev.providers[0].startswith("cuda")
                r = conformance(dev, tc, runs=3 if cuda else 1)
                r["runs_per_case"] = 3 if cuda else 1
                result["conformance"][dev.id] = r
                print(f"  {dev.id:45s} passed {r['passed']:5d}  failed {r['failed']:4d}  "
                      f"unsupported {r['unsupported']:4d}  ({r['seconds']} s"
                      + (", 3 runs per case: eager, CUDA graph captured, replayed)" if cuda else ")"))
                for f in r["failures"][:5]:
                    print(f"      {f[:160]}")

    if data is not None and (data / "mobilenetv2" / "weights").is_dir():
        from tests.models import mobilenet_data as md

        md.MOBILENET_DIR = data / "mobilenetv2"
        weights = md.load_weights()
        x = np.random.default_rng(1).standard_normal((1, 3, 224, 224), dtype=np.float32)
        rows = time_graph(cpus + gpus, gpus, lambda b: mobilenet_graph(b, weights), {"input": x},
                          args.iters, max(3, args.iters // 3))
        result["mobilenetv2"] = rows
        _print_rows("MobileNetV2 [1,3,224,224] float32", rows)
    else:
        print("MobileNetV2: skipped (no ../shared/data/mobilenetv2/weights)")

    x = np.random.default_rng(2).standard_normal((args.seq, args.dim), dtype=np.float32)
    name = f"transformer {args.layers} blocks [{args.seq},{args.dim}] float32"
    rows = time_graph(cpus + gpus, gpus, lambda b: transformer_graph(b, args.layers, args.seq, args.dim), {"x": x},
                      args.iters, 3)
    result["transformer"] = rows
    _print_rows(name, rows)
    if not args.skip_tune:
        result["tune"] = tune_step(args, data)
    if not args.skip_cpu:
        weights = None
        if data is not None and (data / "mobilenetv2" / "weights").is_dir():
            from tests.models import mobilenet_data as md

            md.MOBILENET_DIR = data / "mobilenetv2"
            weights = md.load_weights()
        result["cpu_per_run"] = cpu_per_run(inventory, gpus, weights)
        result["cpu_through_host"] = cpu_through_host(data)
    if not args.skip_transfer:
        result["transfer"] = transfer_step()
    if not args.skip_tests and not args.devices:
        result["tests"] = unit_tests(data)
        print(f"unit tests on every device, GPUs included ({' '.join(GPU_TESTS)}): {result['tests']}")
    result["seconds"] = round(time.perf_counter() - t_start, 1)
    print(f"RESULT: {len(gpus)} GPU device(s) checked in {result['seconds']} s")
    _write(args.json, result)
    return 0


def tune_step(args, data: Path | None) -> dict:
    """benchmarks/tune_loop.py in this process (its hosts are subprocesses): on the first GPU
    (PyTorch's where it has one) and ONNX Runtime's CPU, or the --devices given; its figures, or
    why it did not run."""
    import importlib.util

    if importlib.util.find_spec("websockets") is None:
        print("tuning loop: not run: websockets is not installed (the hosts need it)")
        return {"error": "websockets is not installed"}
    ids = args.devices.split(",") if args.devices else None  # None: the first GPU (PyTorch's first) and ORT's CPU
    try:
        layers, seq, dim = (int(x) for x in args.tune_size.lower().split("x"))
        from benchmarks import tune_loop

        print("tuning loop (benchmarks/tune_loop.py: hosts over the wire, the page's path):", flush=True)
        return tune_loop.run(devices=ids, rounds=args.tune_rounds, seconds=args.tune_seconds, data=data,
                             out=Path(args.tune_out) if args.tune_out else None, layers=layers, seq=seq, dim=dim,
                             log=lambda text: print(text, flush=True))
    except Exception as e:  # noqa: BLE001 - reported, the check goes on
        import traceback

        traceback.print_exc()
        print(f"tuning loop: error: {type(e).__name__}: {e}")
        return {"error": f"{type(e).__name__}: {e}"}


def transfer_step() -> dict:
    """benchmarks/bench_transfer.py in this process (its host and echo are subprocesses): 16 MiB
    through the high-performance, GPU and CPU contexts; its figures, or why it did not run."""
    import importlib.util

    if importlib.util.find_spec("websockets") is None:
        print("large tensors: not run: websockets is not installed (the host needs it)")
        return {"error": "websockets is not installed"}
    try:
        from benchmarks import bench_transfer

        print("large tensors over the wire (benchmarks/bench_transfer.py):", flush=True)
        out = bench_transfer.run(16, 10, 3, ["high-performance", "gpu", "cpu"], log=lambda t: print(t, flush=True))
        bench_transfer.print_table(out)
        return out
    except BaseException as e:  # noqa: BLE001 - reported, the check goes on (SystemExit: a wrong output)
        import traceback

        traceback.print_exc()
        print(f"large tensors: error: {type(e).__name__}: {e}")
        return {"error": f"{type(e).__name__}: {e}"}


GPU_TESTS = ("tests/test_capability_sweep.py", "tests/test_backend_torch.py", "tests/test_fuzz.py")


def unit_tests(data: Path | None) -> str:
    """The test files that add every GPU device PyTorch sees, run with pytest from the checkout
    in place (``webnn_bridge`` from its src/ on PYTHONPATH): pytest's
    summary line, or why they did not run."""
    import importlib.util
    import subprocess

    if importlib.util.find_spec("pytest") is None:
        return "not run: pytest is not installed"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO), os.environ.get("PYTHONPATH", "")])}
    if data is not None:
        env["WEBNN_BRIDGE_DATA"] = str(data)
    xdist = ["-n", str(min(8, os.cpu_count() or 1))] if importlib.util.find_spec("xdist") else []
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *xdist, *GPU_TESTS],
                       cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    lines = [ln for ln in r.stdout.splitlines() if ln.strip()]
    failed = [ln for ln in lines if ln.startswith("FAILED")]
    for ln in failed[:10]:
        print("      " + ln[:200])
    return lines[-1].strip("= ") if lines else f"pytest exited {r.returncode}: {r.stderr[-300:]}"


def _software() -> dict:
    import numpy as np

    out = {"python": platform.python_version(), "numpy": np.__version__}
    for mod in ("onnxruntime", "torch"):
        try:
            out[mod] = __import__(mod).__version__
        except Exception:  # noqa: BLE001
            out[mod] = "absent"
    try:
        import torch

        if torch.cuda.is_available():
            out["gpu"] = torch.cuda.get_device_name(0)
            out["cuda"] = torch.version.cuda or f"hip {torch.version.hip}"
    except Exception:  # noqa: BLE001
        pass
    return out


def _why_no_gpu() -> str:
    parts = []
    try:
        import torch

        parts.append(f"torch {torch.__version__}: cuda available {torch.cuda.is_available()}")
    except Exception:  # noqa: BLE001
        parts.append("torch not installed")
    try:
        import onnxruntime as ort

        parts.append(f"onnxruntime {ort.__version__} providers {ort.get_available_providers()}")
    except Exception:  # noqa: BLE001
        parts.append("onnxruntime not installed")
    return "(" + "; ".join(parts) + "); nothing to check, exit 0"


def _print_rows(title: str, rows: list[dict]) -> None:
    print(f"{title} (median ms per run; compute: host arrays in and out, as configured; eager: compute without "
          "CUDA graphs; resident: eager, inputs and outputs on the GPU; cuda_graph: resident, replayed):")
    cpu = min((r["compute_ms"] for r in rows if not r["checked"] and "compute_ms" in r), default=None)
    for r in rows:
        if "error" in r:
            print(f"  {r['device']:45s} error: {r['error'][:160]}")
            continue
        extra = "".join(f"  {k.removesuffix('_ms')} {r[k]:9.3f}" for k in ("eager_ms", "resident_ms", "cuda_graph_ms") if k in r)
        speed = f"  x{cpu / r['compute_ms']:.1f} vs best CPU" if cpu and r.get("checked") else ""
        print(f"  {r['device']:45s} compute {r['compute_ms']:9.3f}{extra}  build {r['build_ms']:8.1f}"
              f"  max|diff| {r['max_abs_diff']:.2e}{speed}")


def _write(path: str | None, result: dict) -> None:
    if path:
        Path(path).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    sys.exit(main())
