"""The LiteRT backend (src/webnn_bridge/backends/litert.py): every WPT-derived conformance case whose
graph is the backend's (float32, rank 4 at most, only ops with a ``litert`` lowering) computed by
LiteRT's interpreter against the expected values, with the registry's tolerances; NCHW values kept
in NHWC between convolutions (no transposes left between them); a variant a lowering cannot
express is an OperationError at compile; probing, capabilities and opt-in placement by the rules.
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
import pytest

from webnn_bridge.backends import litert
from webnn_bridge.backends.base import Device
from webnn_bridge.backends.cache import CompileCache
from webnn_bridge.backends.litert import LiteRTBackend, litert_ops, tflite_model
from webnn_bridge.bridge.api import ML, MLGraphBuilder

try:
    from . import test_conformance as conf
except ImportError:  # tests/ is not a package: pytest puts this directory on sys.path
    import test_conformance as conf

pytestmark = pytest.mark.skipif(not LiteRTBackend.probe(), reason="ai-edge-litert is not installed (pip install '.[test]')")
DEVICE = Device(id="litert:CPU", kind="cpu", backend="litert", name="LiteRT CPU (XNNPACK)")


@functools.cache
def _reference_ml():
    return ML([d for d in ML().inventory if d.backend == "reference"][:1])


def _reference_context():
    return _reference_ml().createContext()


def _packed_by_flatbuffers(codes, tensors, operators, ins, outs, buffers) -> bytes:
    """The model litert._model_bytes writes, packed by flatbuffers' own object API instead (each
    constant's bytes inside the flatbuffer)."""
    import flatbuffers

    s = litert._schema()
    model = s.ModelT()
    model.version, model.description = 3, "webnn-bridge"
    model.operatorCodes = []
    for code in codes:
        oc = s.OperatorCodeT()
        oc.builtinCode, oc.deprecatedBuiltinCode, oc.version = code, min(code, 127), 1
        model.operatorCodes.append(oc)
    graph = s.SubGraphT()
    graph.inputs, graph.outputs, graph.tensors, graph.operators = list(ins), list(outs), [], []
    for t in tensors:
        tt = s.TensorT()
        tt.shape, tt.type, tt.buffer, tt.name = list(t.shape), t.type, t.buffer, t.name
        graph.tensors.append(tt)
    for o in operators:
        oo = s.OperatorT()
        oo.opcodeIndex, oo.inputs, oo.outputs = o.opcodeIndex, list(o.inputs), list(o.outputs)
        if o.builtinOptions is not None:
            oo.builtinOptionsType, oo.builtinOptions = o.builtinOptionsType, o.builtinOptions
        graph.operators.append(oo)
    model.subgraphs = [graph]
    model.buffers = []
    for b in buffers:
        bb = s.BufferT()
        if b.data is not None and len(b.data):
            bb.data = b.data
        model.buffers.append(bb)
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def _read(blob: bytes) -> tuple:
    """A model as flatbuffers' reader gives it back, each buffer's bytes wherever they are stored."""
    model = litert._schema().ModelT.InitFromPackedBuf(blob, 0)

    def plain(v):
        return [int(x) for x in v] if isinstance(v, (list, np.ndarray)) else v

    def options(o):
        return None if o is None else (type(o).__name__, sorted((k, plain(v)) for k, v in vars(o).items()))

    def data(b):
        if b.data is not None:
            return bytes(np.asarray(b.data, np.uint8))
        return bytes(blob[b.offset:b.offset + b.size]) if b.size else b""

    (g,) = model.subgraphs
    return (model.version, model.description, [(c.builtinCode, c.deprecatedBuiltinCode, c.version) for c in model.operatorCodes],
            plain(g.inputs), plain(g.outputs),
            [(plain(t.shape), t.type, t.buffer, t.name, t.quantization, t.isVariable) for t in g.tensors],
            [(o.opcodeIndex, plain(o.inputs), plain(o.outputs), o.builtinOptionsType, options(o.builtinOptions))
             for o in g.operators],
            [data(b) for b in model.buffers])


@pytest.fixture(autouse=True)
def _every_model_reads_as_flatbuffers_packs_it(monkeypatch):
    """Every model this module's tests make (litert._model_bytes, the project's own flatbuffer
    writer) is also packed by flatbuffers' object API from the same records, and flatbuffers'
    reader reads both the same: the writer's layout is checked on every conformance case, sweep,
    fusion and cache test here."""
    real = litert._model_bytes

    def checked(*records):
        blob = real(*records)
        assert _read(blob) == _read(_packed_by_flatbuffers(*records))
        return blob

    monkeypatch.setattr(litert, "_model_bytes", checked)


def _is_litert_graph(ir) -> bool:
    ops = set(litert_ops())
    return (all(n.op in ops for n in ir.nodes)
            and all(d.data_type == "float32" and len(d.shape) <= 4 for d in ir.operands.values()))


def _cases():
    """The cases whose graph is the backend's: its ops, float32 and rank 4 at most throughout (as
    their inputs and outputs say; the others are ONNX Runtime's in a context that opts into it)."""
    names = set(litert_ops())

    def descs(c):
        return [v["descriptor"] for v in [*c.graph["inputs"].values(), *c.graph["expectedOutputs"].values()]]

    return [c for c in conf.CASES if set(c.ops) <= names
            and all(d["dataType"] == "float32" and len(d["shape"]) <= 4 for d in descs(c))]


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c.name)
def test_conformance_case(case):
    try:
        graph, feeds, nodes = conf.build_case(_reference_context(), case)
    except Exception as e:  # noqa: BLE001 - a case of another data type: not built here either
        pytest.skip(f"not built on the reference: {e}")
    if not _is_litert_graph(graph.ir):
        pytest.skip("not a LiteRT graph (a data type or rank the backend does not take)")
    compiled = LiteRTBackend.instance().compile(graph.ir, DEVICE)
    results = compiled.run({k: np.asarray(v) for k, v in feeds.items()})
    out_type = next(iter(case.graph["expectedOutputs"].values()))["descriptor"]["dataType"]
    metric, tol = conf.graph_tolerance(nodes, out_type)
    problems = []
    for name, spec in case.graph["expectedOutputs"].items():
        desc = spec["descriptor"]
        actual = results[name]
        assert actual.dtype == np.float32 and list(actual.shape) == list(desc["shape"])
        bad = conf.mismatches(actual, case.expected[name], desc["dataType"], metric, tol)
        if bad:
            problems.append(f"{name}: " + "; ".join(bad))
    assert not problems, "\n".join(problems)


# the shared data's pool and gemm files hold no float32 cases: these are swept here against the reference
POOLS_SWEPT = {"averagePool2d", "maxPool2d"}
GEMM_SWEPT = {"gemm"}


def test_the_cases_reach_every_lowering():
    """Each op with a LiteRT lowering has conformance cases the backend computes (not only skips),
    or a sweep of its own below."""
    covered = {op for c in _cases() for op in c.ops} | POOLS_SWEPT | GEMM_SWEPT
    assert set(litert_ops()) <= covered, sorted(set(litert_ops()) - covered)


POOL_VARIANTS = [
    {},  # the whole input
    {"windowDimensions": [2, 2], "strides": [2, 2]},
    {"windowDimensions": [3, 3], "padding": [1, 1, 1, 1]},  # TFLite's SAME
    {"windowDimensions": [3, 2], "padding": [2, 0, 1, 1], "strides": [2, 1]},  # explicit padding
    {"windowDimensions": [2, 2], "strides": [2, 2], "outputShapeRounding": "ceil"},  # windows past the end
    {"windowDimensions": [3, 3], "strides": [2, 2], "padding": [1, 1, 1, 1], "outputSizes": [4, 4]},
    {"windowDimensions": [2, 3], "layout": "nhwc", "padding": [0, 1, 1, 0]},
    {"windowDimensions": [2, 2], "dilations": [2, 2]},  # strided slices
    {"windowDimensions": [3, 2], "dilations": [2, 3], "padding": [1, 2, 0, 1], "strides": [2, 1]},
    {"windowDimensions": [2, 2], "dilations": [2, 1], "strides": [2, 2], "outputShapeRounding": "ceil", "layout": "nhwc"},
]


@pytest.mark.parametrize("op", sorted(POOLS_SWEPT))
@pytest.mark.parametrize("options", POOL_VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "whole")
def test_pools_match_the_reference(op, options):
    ctx = _reference_context()
    b = MLGraphBuilder(ctx)
    shape = [2, 7, 7, 3] if options.get("layout") == "nhwc" else [2, 3, 7, 7]
    x = b.input("x", {"dataType": "float32", "shape": shape})
    graph = b.build({"y": getattr(b, op)(x, options)})
    feeds = {"x": np.random.default_rng(1).standard_normal(shape).astype(np.float32)}
    expected = ctx.compute(graph, feeds)["y"]
    got = LiteRTBackend.instance().compile(graph.ir, DEVICE).run(feeds)["y"]
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6)


def _conv_chain(ctx, layout: str = "nchw"):
    """An openWakeWord-like block: conv -> leakyRelu -> max(constant) -> conv -> maxPool -> reshape."""
    rng = np.random.default_rng(0)
    b = MLGraphBuilder(ctx)
    shape = [1, 5, 12, 10] if layout == "nchw" else [1, 12, 10, 5]
    x = b.input("x", {"dataType": "float32", "shape": shape})
    f1 = b.constant({"dataType": "float32", "shape": [6, 5, 3, 3]}, rng.standard_normal((6, 5, 3, 3)).astype(np.float32))
    y = b.conv2d(x, f1, {"padding": [0, 0, 1, 1], "inputLayout": layout,
                         "bias": b.constant({"dataType": "float32", "shape": [6]}, np.arange(6, dtype=np.float32))})
    y = b.leakyRelu(y, {"alpha": 0.2})
    y = b.max(y, b.constant({"dataType": "float32", "shape": [1, 1, 1, 1]}, np.array([-0.4], np.float32)))
    f2 = b.constant({"dataType": "float32", "shape": [6, 1, 1, 3]}, rng.standard_normal((6, 1, 1, 3)).astype(np.float32))
    y = b.conv2d(y, f2, {"padding": [0, 0, 1, 1], "groups": 6, "inputLayout": layout})
    y = b.maxPool2d(y, {"windowDimensions": [2, 2], "strides": [2, 2], "layout": layout})
    y = b.reshape(y, [1, 6 * 5 * 5])
    return b.build({"y": y}), {"x": rng.standard_normal(shape).astype(np.float32)}


@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
def test_a_convolution_chain_matches_the_reference_and_keeps_nhwc(layout):
    ctx = _reference_context()
    graph, feeds = _conv_chain(ctx, layout)
    expected = ctx.compute(graph, feeds)["y"]
    compiled = LiteRTBackend.instance().compile(graph.ir, DEVICE)
    np.testing.assert_allclose(compiled.run(feeds)["y"], expected, rtol=1e-5, atol=1e-5)
    used = _operators(graph.ir)
    # NCHW in, the values stay NHWC from the first convolution on: one transpose in (a reshape
    # where it moves only axes of size 1) and one out before the reshape
    assert used.count("TRANSPOSE") <= (2 if layout == "nchw" else 0), used
    assert used.count("DEPTHWISE_CONV_2D") == 1 and used.count("CONV_2D") == 1, used


def test_the_compile_cache_keeps_the_model_for_reloads_and_restarts(tmp_path, monkeypatch):
    ctx = _reference_context()
    graph, feeds = _conv_chain(ctx)
    expected = ctx.compute(graph, feeds)["y"]
    backend, origin = LiteRTBackend.instance(), "http://a.test"
    cache = CompileCache(tmp_path)
    first = cache.compile(backend, graph.ir, DEVICE, origin)
    reload = cache.compile(backend, _conv_chain(ctx)[0].ir, DEVICE, origin)  # a page reload's identical build
    assert (first.source, reload.source) == ("compiled", "memory")
    assert reload._entry is first._entry  # one interpreter
    assert cache.compile(backend, graph.ir, dataclasses.replace(DEVICE, threads=2), origin).source == "compiled"
    assert cache.compile(backend, graph.ir, DEVICE, "http://b.test").source == "compiled"  # origins never share
    cache.flush()  # the model is written after the build, off its path
    restarted = CompileCache(tmp_path).compile(backend, _conv_chain(ctx)[0].ir, DEVICE, origin)
    assert restarted.source == "disk"  # a restarted host makes the interpreter from the stored model
    for compiled in (first, reload, restarted):
        np.testing.assert_allclose(compiled.run(feeds)["y"], expected, rtol=1e-5, atol=1e-5)
    # other lowering code: the stored model is not that code's, the graph is lowered again
    monkeypatch.setattr(litert, "code_fingerprint", lambda *files: "other code")
    assert CompileCache(tmp_path).compile(backend, graph.ir, DEVICE, origin).source == "compiled"


def test_warm_up_loads_the_runtime_in_a_fresh_process():
    import subprocess
    import sys

    code = ("import sys; from webnn_bridge.backends.litert import LiteRTBackend; "
            "assert 'ai_edge_litert' not in sys.modules; LiteRTBackend.instance().warm_up(); "
            "print('ai_edge_litert.interpreter' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "True", r.stderr
    assert "XNNPACK" not in r.stderr  # TFLite's INFO line stays out of a host's log


def test_after_the_hosts_warm_up_a_first_pooled_build_imports_nothing():
    """serve's warm-up (ML.warm_up, then session.warm_up) leaves nothing for a page's first build
    of a graph with a thread pool to import: the pool trial, the tier-up and statistics cost such a
    build 15 ms where no bytecode is cached. In a fresh process, a 0.46 GFLOP convolution (LiteRT's
    pool, with its trial where the machine has two cores) imports no module."""
    import subprocess
    import sys

    code = """if True:
        import sys
        import numpy as np
        from webnn_bridge.backends.base import cpu_cores
        from webnn_bridge.bridge import session
        from webnn_bridge.bridge.api import ML, MLGraphBuilder
        ml = ML()
        ml.warm_up()
        assert session.warm_up(ml) == []
        b = MLGraphBuilder(ml.createContext())
        x = b.input("x", {"dataType": "float32", "shape": [1, 32, 112, 112]})
        w = b.constant({"dataType": "float32", "shape": [64, 32, 3, 3]}, np.full((64, 32, 3, 3), 0.01, np.float32))
        y = b.conv2d(x, w, {"padding": [1, 1, 1, 1]})
        before = set(sys.modules)
        graph = b.build({"y": y})
        print(graph.placement.device.id, cpu_cores(), type(graph.tier).__name__, sorted(set(sys.modules) - before))
    """
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    device, cores, tier, new = r.stdout.split(" ", 3)
    assert device == "litert:CPU" and new.strip() == "[]", r.stdout
    assert tier == ("PoolTrial" if int(cores) >= 2 else "NoneType"), r.stdout


def test_probe_and_capabilities():
    assert [d.id for d in LiteRTBackend.probe()] == ["litert:CPU"]
    caps = LiteRTBackend.instance().capabilities(DEVICE)
    assert set(caps.ops) == set(litert_ops()) and "conv2d" in caps.ops
    assert caps.max_rank == 4
    assert all(lim.types == ("float32",) for limits in caps.ops.values() for lim in limits.values()
               if lim.same is None)


def test_rules_put_it_first_on_the_cpu_and_others_take_what_it_cannot():
    """Opt-in: [backends] cpu = ["litert", "onnxruntime"]; a graph of ops it lacks stays on ONNX Runtime."""
    from webnn_bridge.policy.engine import default_rules

    rules = default_rules()
    rules = {**rules, "backends": {**rules["backends"], "cpu": ["litert", "onnxruntime"]}}
    ml = ML(rules=rules)
    ctx = ml.createContext({"deviceType": "cpu"})
    graph, feeds = _conv_chain(ctx)
    assert graph.placement.assignment and set(graph.placement.assignment) == {"litert:CPU"}
    expected = _reference_context()
    ref_graph, _ = _conv_chain(expected)
    np.testing.assert_allclose(ctx.compute(graph, feeds)["y"], expected.compute(ref_graph, feeds)["y"],
                               rtol=1e-5, atol=1e-5)
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [2, 3]})
    other = b.build({"y": b.exp(x)})
    assert set(other.placement.assignment) == {"onnxruntime:CPUExecutionProvider"}


def _conv(ctx, size: int, channels: int = 64):
    """One 3x3 convolution of [1, channels, size, size]: 18 * channels**2 * size**2 FLOPs."""
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [1, channels, size, size]})
    w = np.full((channels, channels, 3, 3), 0.01, np.float32)
    return b.build({"y": b.relu(b.conv2d(x, b.constant({"dataType": "float32", "shape": list(w.shape)}, w),
                                         {"padding": [1, 1, 1, 1]}))})


def test_the_default_rules_send_convolution_networks_up_to_1_gflop_here():
    """rules.toml §4b: a float32 convolution network goes to LiteRT up to 1 GFLOP, on one thread
    under the pool bound (0.3 GFLOP) and on the pool ONNX Runtime would get above it; a bigger one
    stays on ONNX Runtime. The route says why."""
    from webnn_bridge.backends.base import pool_threads

    ctx = ML().createContext()
    small, pooled, big = (_conv(ctx, n) for n in (16, 64, 96))  # 0.08, 0.30 and 0.68 GFLOP at 64 channels
    huge = _conv(ctx, 128, 72)  # 1.53 GFLOP
    for g in (small, pooled, big):
        assert set(g.placement.assignment) == {"litert:CPU"}, g.placement.reasons
        assert any("small-convnets-on-litert" in r for r in g.placement.reasons)
    assert set(huge.placement.assignment) == {"onnxruntime:CPUExecutionProvider"}
    threads = [g.compiled.compiled.threads for g in (small, pooled, big)]
    assert threads == [1, pool_threads(), pool_threads()]
    x = np.ones((1, 64, 96, 96), np.float32)
    y = ctx.compute(big, {"x": x})["y"]  # 0.01 * 64 * (inner 9, edge 6, corner 4 taps)
    assert y.shape == (1, 64, 96, 96)
    np.testing.assert_allclose([y[0, 0, 5, 5], y[0, 0, 0, 5], y[0, 0, 0, 0]], [5.76, 3.84, 2.56], rtol=1e-5)


def test_its_pools_count_against_the_hosts_bound_on_pools(monkeypatch):
    """An interpreter of more than one thread takes one of the host's pool slots (backends/base.py
    POOL_SLOTS, shared with ONNX Runtime's sessions); with none free it runs on the caller's thread
    alone, with the same results; closing it gives the slot back."""
    from webnn_bridge.backends import base

    slots = base.PoolSlots(1)
    monkeypatch.setattr(base, "POOL_SLOTS", slots)
    graph, feeds = _conv_chain(_reference_context())
    two = dataclasses.replace(DEVICE, threads=2)
    a = LiteRTBackend.instance().compile(graph.ir, two)
    b = LiteRTBackend.instance().compile(graph.ir, two)
    assert (a.threads, b.threads, slots.used) == (2, 1, 1)
    np.testing.assert_allclose(a.run(feeds)["y"], b.run(feeds)["y"], rtol=1e-6)
    a.close()
    b.close()
    assert slots.used == 0


GEMM_VARIANTS = [
    ({}, True, None),
    ({"bTranspose": True, "alpha": 0.5}, True, (5,)),  # bias from a 1-D c
    ({"aTranspose": True, "beta": 2.0}, True, (3, 5)),
    ({"alpha": 1.5, "beta": 0.25}, False, (1, 5)),  # b an input: BATCH_MATMUL
    ({"bTranspose": True}, False, ()),
]


@pytest.mark.parametrize(("options", "b_constant", "c_shape"), GEMM_VARIANTS)
def test_gemm_matches_the_reference(options, b_constant, c_shape):
    rng = np.random.default_rng(2)
    ctx = _reference_context()
    b = MLGraphBuilder(ctx)
    a_shape = [4, 3] if options.get("aTranspose") else [3, 4]
    b_shape = [5, 4] if options.get("bTranspose") else [4, 5]
    feeds = {"a": rng.standard_normal(a_shape).astype(np.float32)}
    a = b.input("a", {"dataType": "float32", "shape": a_shape})
    if b_constant:
        bb = b.constant({"dataType": "float32", "shape": b_shape}, rng.standard_normal(b_shape).astype(np.float32))
    else:
        bb = b.input("b", {"dataType": "float32", "shape": b_shape})
        feeds["b"] = rng.standard_normal(b_shape).astype(np.float32)
    opts = dict(options)
    if c_shape is not None:
        opts["c"] = b.constant({"dataType": "float32", "shape": list(c_shape)},
                               rng.standard_normal(c_shape).astype(np.float32))
    graph = b.build({"y": b.gemm(a, bb, opts)})
    expected = ctx.compute(graph, feeds)["y"]
    got = LiteRTBackend.instance().compile(graph.ir, DEVICE).run(feeds)["y"]
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def _operators(ir) -> list[str]:
    from webnn_bridge.backends.litert import _schema

    model = _schema().ModelT.InitFromPackedBuf(tflite_model(ir), 0)
    names = {v: k for k, v in vars(_schema().BuiltinOperator).items() if not k.startswith("_")}
    return [names[model.operatorCodes[o.opcodeIndex].builtinCode] for o in model.subgraphs[0].operators]


def test_the_written_flatbuffer_reads_back_as_the_builder_made_it():
    """The model's flatbuffer (written by litert._model_bytes, not flatbuffers' object API), read by
    flatbuffers' own reader: every operator code, tensor (shape, type, buffer, name), operator (its
    inputs with an absent one, outputs and builtin options of each kind the lowerings use, one of
    them shared) and buffer (offset and size, the bytes there) is what the builder holds."""
    s = litert._schema()
    lt = litert.LiteBuilder()
    rng = np.random.default_rng(11)
    x = lt.value((1, 6, 6, 3))
    filt = lt.constant(rng.standard_normal((4, 3, 3, 3)).astype(np.float32))
    y = lt.op(lt.ops.CONV_2D, [x, filt, -1], (1, 6, 6, 4),
              *lt.opts("Conv2DOptions", padding=s.Padding.SAME, strideH=1, strideW=1, dilationHFactor=1,
                       dilationWFactor=1, fusedActivationFunction=s.ActivationFunctionType.RELU6))
    y = lt.op(lt.ops.DEPTHWISE_CONV_2D, [y, lt.constant(rng.standard_normal((1, 3, 3, 4)).astype(np.float32)),
                                         lt.constant(np.zeros(4, np.float32))], (1, 4, 4, 4),
              *lt.opts("DepthwiseConv2DOptions", padding=s.Padding.VALID, strideH=1, strideW=1, depthMultiplier=1))
    y = lt.op(lt.ops.AVERAGE_POOL_2D, [y], (1, 2, 2, 4),
              *lt.opts("Pool2DOptions", padding=s.Padding.VALID, strideH=2, strideW=2, filterHeight=2, filterWidth=2))
    y = lt.elementwise(lt.ops.LEAKY_RELU, [y], *lt.opts("LeakyReluOptions", alpha=0.25))
    y = lt.reshape(y, (1, 16))
    y = lt.op(lt.ops.FULLY_CONNECTED, [y, lt.constant(rng.standard_normal((5, 16)).astype(np.float32)), -1], (1, 5),
              *lt.opts("FullyConnectedOptions"))
    y = lt.op(lt.ops.SOFTMAX, [y], (1, 5), *lt.opts("SoftmaxOptions", beta=1.0))
    z = lt.op(lt.ops.BATCH_MATMUL, [lt.reshape(y, (1, 5, 1)), lt.constant(np.ones((1, 1, 2), np.float32))], (1, 5, 2),
              *lt.opts("BatchMatMulOptions", adjX=False, adjY=False))
    scalar = lt.op(lt.ops.ADD, [lt.constant(np.float32(2.0)), lt.constant(np.float32(3.0))], ())
    w = lt.op(lt.ops.RELU, [z], (1, 5, 2))  # no options
    w = lt.op(lt.ops.LEAKY_RELU, [w], (1, 5, 2), *lt.opts("LeakyReluOptions", alpha=0.25))  # the same options again
    w = lt.op(lt.ops.RESHAPE, [w, lt.ints((5, 2))], (5, 2), *lt.opts("ReshapeOptions", newShape=np.array([5, 2], np.int32)))
    unhashable = lt.opts("ReshapeOptions", newShape=[5, 2])
    unhashable[1].spare = {}  # a field that cannot be part of a key: packed on its own
    w = lt.op(lt.ops.RESHAPE, [w, lt.ints((5, 2))], (5, 2), *unhashable)
    blob = lt.finish([x], [w, scalar])
    model = s.ModelT.InitFromPackedBuf(blob, 0)
    assert model.version == 3 and model.description == b"webnn-bridge"
    assert [(c.builtinCode, c.deprecatedBuiltinCode, c.version) for c in model.operatorCodes] == \
        [(c, min(c, 127), 1) for c in lt.codes]
    (graph,) = model.subgraphs
    assert list(graph.inputs) == [x.index] and list(graph.outputs) == [w.index, scalar.index]
    assert [(list(t.shape), t.type, t.buffer, t.name.decode()) for t in graph.tensors] == \
        [(t.shape, t.type, t.buffer, t.name) for t in lt.tensors]
    assert graph.tensors[scalar.index].shape is not None and len(graph.tensors[scalar.index].shape) == 0
    assert len(graph.operators) == len(lt.operators) == 14
    for got, made in zip(graph.operators, lt.operators):
        assert (got.opcodeIndex, list(got.inputs), list(got.outputs)) == (made.opcodeIndex, made.inputs, made.outputs)
        assert got.builtinOptionsType == made.builtinOptionsType
        if made.builtinOptions is None:
            assert got.builtinOptions is None
        else:
            assert type(got.builtinOptions) is type(made.builtinOptions)
            have = {k: (list(v) if isinstance(v, (list, np.ndarray)) else v) for k, v in vars(got.builtinOptions).items()}
            want = {k: (list(v) if isinstance(v, (list, np.ndarray)) else v) for k, v in vars(made.builtinOptions).items()
                    if k in have}  # the schema's fields (not one set on the object besides them)
            assert have == want
    assert -1 in graph.operators[0].inputs
    assert len(model.buffers) == len(lt.buffers)
    for got, made in zip(model.buffers, lt.buffers):
        if made.data is None:
            assert got.size == 0 and got.offset == 0
        else:
            assert got.offset % 64 == 0 and got.size == made.data.nbytes
            assert blob[got.offset:got.offset + got.size] == made.data.tobytes()


def test_constants_are_stored_once_after_the_flatbuffer():
    """Each constant's bytes follow the model's flatbuffer, on a 64-byte boundary, named by its
    buffer's offset and size (none inside the flatbuffer): the model is the flatbuffer and the
    constants, and the interpreter computes with those very bytes."""
    from webnn_bridge.backends.litert import _schema

    rng = np.random.default_rng(5)
    ctx = _reference_context()
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [1, 3, 5, 5]})
    filters = [rng.standard_normal(shape).astype(np.float32) for shape in ([4, 3, 3, 3], [5, 4, 1, 1])]
    y = b.conv2d(b.conv2d(x, b.constant({"dataType": "float32", "shape": [4, 3, 3, 3]}, filters[0])),
                 b.constant({"dataType": "float32", "shape": [5, 4, 1, 1]}, filters[1]))
    graph = b.build({"y": y})
    blob = tflite_model(graph.ir)
    model = _schema().ModelT.InitFromPackedBuf(blob, 0)
    placed = [(buf.offset, buf.size) for buf in model.buffers if buf.size]
    assert placed and all(buf.data is None for buf in model.buffers)
    assert all(offset % 64 == 0 for offset, _ in placed)
    stored = [np.frombuffer(blob[o:o + n], np.float32) for o, n in placed]
    # TFLite's filters are [O, H, W, I]: the WebNN filters' values, transposed, are among them
    for f in filters:
        assert any(np.array_equal(a, f.transpose(0, 2, 3, 1).reshape(-1)) for a in stored)
    assert len(blob) - sum(n for _, n in placed) < placed[0][0] + 64 * len(placed)  # nothing stored twice
    feeds = {"x": rng.standard_normal((1, 3, 5, 5)).astype(np.float32)}
    got = LiteRTBackend.instance().load_artifact(blob, graph.ir, DEVICE).run(feeds)["y"]
    np.testing.assert_allclose(got, ctx.compute(graph, feeds)["y"], rtol=1e-5, atol=1e-5)


def test_fusions_keep_the_values():
    """conv + per-channel add + hard-swish spelled out (add 3, clamp 0..6, mul, div 6) + conv + relu
    + depthwise conv + hardSigmoid: the add goes into the first convolution's bias, the hard-swish
    becomes one HARD_SWISH, the relu the second convolution's fused activation, hardSigmoid's
    multiply and add the depthwise convolution's filter and bias; the values stay the reference's
    (a few ulps)."""
    rng = np.random.default_rng(3)
    ctx = _reference_context()
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [1, 4, 6, 6]})

    def const(shape):
        return b.constant({"dataType": "float32", "shape": shape}, rng.standard_normal(shape).astype(np.float32))

    def scalar(v):
        return b.constant({"dataType": "float32", "shape": []}, np.array(v, np.float32))

    y = b.add(b.conv2d(x, const([8, 4, 3, 3]), {"padding": [1, 1, 1, 1]}), const([1, 8, 1, 1]))
    y = b.div(b.mul(y, b.clamp(b.add(y, scalar(3.0)), {"minValue": 0, "maxValue": 6})), scalar(6.0))
    z = b.relu(b.conv2d(y, const([8, 8, 1, 1]), {"bias": const([8])}))
    # a squeeze-and-excitation gate: depthwise convolution, hardSigmoid (alpha and beta fold into it)
    gate = b.hardSigmoid(b.conv2d(z, const([8, 1, 3, 3]), {"groups": 8, "padding": [1, 1, 1, 1]}),
                         {"alpha": 0.2, "beta": 0.5})
    graph = b.build({"z": z, "y": y, "gate": gate})
    ops = _operators(graph.ir)
    assert ops.count("HARD_SWISH") == 1 and "RELU6" not in ops and "DIV" not in ops, ops
    assert "ADD" not in ops and "RELU" not in ops, ops  # folded into the convolutions
    assert "MUL" not in ops and ops.count("RELU_0_TO_1") == 1, ops  # hardSigmoid's scale in the filter
    feeds = {"x": rng.standard_normal((1, 4, 6, 6)).astype(np.float32)}
    expected = ctx.compute(graph, feeds)
    got = LiteRTBackend.instance().compile(graph.ir, DEVICE).run(feeds)
    for name in ("y", "z", "gate"):
        np.testing.assert_allclose(got[name], expected[name], rtol=1e-5, atol=1e-5)


def test_a_value_read_twice_is_not_fused_away():
    """A convolution's output that another op (here a graph output) also reads keeps its add and relu."""
    rng = np.random.default_rng(4)
    ctx = _reference_context()
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [1, 3, 5, 5]})
    c = b.conv2d(x, b.constant({"dataType": "float32", "shape": [2, 3, 1, 1]},
                               rng.standard_normal((2, 3, 1, 1)).astype(np.float32)))
    graph = b.build({"c": c, "r": b.relu(c)})
    ops = _operators(graph.ir)
    assert "RELU" in ops, ops
    feeds = {"x": rng.standard_normal((1, 3, 5, 5)).astype(np.float32)}
    expected = ctx.compute(graph, feeds)
    got = LiteRTBackend.instance().compile(graph.ir, DEVICE).run(feeds)
    for name in ("c", "r"):
        np.testing.assert_allclose(got[name], expected[name], rtol=1e-5, atol=1e-5)
