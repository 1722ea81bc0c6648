"""ONNX Runtime backend: the graph is lowered to an in-memory ONNX model (each op's ``lower``
from the registry) and compiled into one InferenceSession per built graph, reused by every
dispatch. Execution providers found at probe time become devices (CPU, CUDA, TensorRT, ...)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from webnn_bridge.ops.core import DATA_TYPES, OperationError, UnknownError
from webnn_bridge.ops.graph import GraphIR
from webnn_bridge.ops.registry import load_all

from .base import (
    Backend,
    Compiled,
    Device,
    HoldsPool,
    code_fingerprint,
    contiguous,
    graph_peak_value_bytes,
    graph_threads,
    graph_value_bytes,
    pool_threads,
    spinning,
)
from .cache import engine_cache_dir
from .onnx_lowering import OPSET, _external_name, io_names, is_external, ort_storage, serialize_graph

log = logging.getLogger("webnn_bridge.onnxruntime")

# Threads: ORT's process-wide (global) pools would bound the thread count, but their threads spin
# for ~50 ms after every run and Python has no switch for that (onnxruntime's pybind module offers
# set_global_thread_pool_sizes alone): on a small machine that steals the core the browser needs to
# send the next input. Instead a graph big enough to gain from threads gets its own intra-op pool of
# pool_threads() threads (backends/base.py: the cores shared by the active pages, at most two) whose
# threads never spin (session.intra_op.allow_spinning = 0: a thread with no work sleeps at once;
# `serve --spin` lets them spin between the operators of a run, as before, for about 0.2 ms a run);
# and only a bounded number of sessions get one (backends/base.py POOL_SLOTS, which LiteRT's pools
# count against too): graphs too small to gain from threads, and big ones beyond the bound, run on
# the calling worker thread (intra_op_num_threads=1: ORT creates no thread).
SPIN_US = 1000  # with --spin: how long an idle pool thread spins before it sleeps (see session_options)
POOL_MIN_BYTES = 1 << 20  # graphs with over this much work (constants + values) keep an optimized model on disk
# Memory: ORT's CPU arena keeps what a run allocated (intermediate values) for the next run, for as
# long as the session lives, also while the compile cache keeps it warm for nobody. Graphs whose
# values alive at once (graph_peak_value_bytes) add up to more than this run without the arena:
# their intermediates are allocated and freed by each run (big ones are mapped and unmapped at
# once). Measured on a graph of a 256 MiB intermediate (expand + add): with the arena every warm
# session kept 256 MiB, with the run option memory.enable_memory_arena_shrinkage ("cpu:0") too,
# without the arena nothing; a run took 160 -> 310 ms there (fresh pages each run). The bound was
# once on the sum of all values: the OCR detector (162 MiB in all, 11 MiB at once) then ran
# without its arena, 10.3 ms a run in the host against 7.1 ms with it, and its process held more
# after 30 runs without it (41 MiB against 23: the allocator keeps what the runs freed).
ARENA_MAX_BYTES = 64 << 20

BOUND_OUTPUT_MIN_BYTES = 64 << 10  # outputs of more bytes than this in all are bound (OrtCompiled.run)

# execution provider -> (device kind, description); order is preference within a kind
KNOWN_PROVIDERS = {
    "TensorrtExecutionProvider": ("gpu", "NVIDIA GPU via TensorRT EP"),
    "CUDAExecutionProvider": ("gpu", "NVIDIA GPU via CUDA EP"),
    "DmlExecutionProvider": ("gpu", "DirectML GPU"),
    "ROCMExecutionProvider": ("gpu", "AMD GPU via ROCm EP"),
    "MIGraphXExecutionProvider": ("gpu", "AMD GPU via MIGraphX EP"),
    "CoreMLExecutionProvider": ("gpu", "Apple GPU/ANE via Core ML EP"),
    "OpenVINOExecutionProvider": ("cpu", "Intel device via OpenVINO EP"),
    "QNNExecutionProvider": ("npu", "Qualcomm NPU via QNN EP"),
    "VitisAIExecutionProvider": ("npu", "AMD NPU via Vitis AI EP"),
    "CPUExecutionProvider": ("cpu", "CPU via ONNX Runtime"),
}


def _ort():
    import onnxruntime

    return onnxruntime


# ORT device type names (get_ep_devices) -> WebNN kinds
_EP_DEVICE_KINDS = {"CPU": "cpu", "GPU": "gpu", "NPU": "npu"}
# Core ML EP: one device per compute-unit choice the policy can pick (MLComputeUnits)
COREML_UNITS = {"gpu": "CPUAndGPU", "npu": "CPUAndNeuralEngine"}


def provider_options(ep: str, index: int = 0, kind: str = "gpu", *, system: str | None = None) -> dict[str, str]:
    """The real provider options for one device of an execution provider (pure)."""
    import platform

    system = system or platform.system()
    if ep in ("CUDAExecutionProvider", "ROCMExecutionProvider", "MIGraphXExecutionProvider", "DmlExecutionProvider"):
        return {"device_id": str(index)}
    if ep == "TensorrtExecutionProvider":
        # fp16 stays off: WebNN float32 operands are computed in float32
        return {"device_id": str(index), "trt_fp16_enable": "False", "trt_engine_cache_enable": "True",
                "trt_engine_cache_path": str(engine_cache_dir())}
    if ep == "OpenVINOExecutionProvider":
        return {"device_type": {"cpu": "CPU", "gpu": "GPU", "npu": "NPU"}[kind]}
    if ep == "QNNExecutionProvider":
        return {"backend_path": "QnnHtp.dll" if system == "Windows" else "libQnnHtp.so"}
    if ep == "CoreMLExecutionProvider":
        return {"ModelFormat": "MLProgram", "MLComputeUnits": COREML_UNITS.get(kind, "ALL")}
    return {}


def ep_device_slots(ep: str, default_kind: str, ep_devices: list[tuple[str, str]]) -> list[tuple[str, int]]:
    """(kind, index) for each device an EP can use: from ORT's device list (get_ep_devices, as
    (ep name, device type) pairs) when it names the EP, else one device of the EP's usual kind."""
    if ep == "CoreMLExecutionProvider":
        return [("gpu", 0), ("npu", 0)]
    listed = [_EP_DEVICE_KINDS.get(t) for name, t in ep_devices if name == ep]
    slots: list[tuple[str, int]] = []
    for kind in listed:
        if kind is not None:
            slots.append((kind, sum(1 for k, _ in slots if k == kind)))
    return slots or [(default_kind, 0)]


def _ep_devices(ort) -> list[tuple[str, str]]:
    try:
        return [(d.ep_name, d.device.type.name) for d in ort.get_ep_devices()]
    except Exception:  # older onnxruntime: no device list
        return []


def graph_work_bytes(graph: GraphIR) -> int:
    """A cheap size of a graph's work: the bytes of its constants and of every value it computes."""
    return graph_value_bytes(graph) + graph.constant_bytes()


def session_options(pooled: bool = False, arena: bool = True, threads: int = 0, spin: bool | None = None):
    """The options every compiled graph gets (the one place to tune ORT threading and memory):
    ``pooled`` gives the session an intra-op pool of ``threads`` threads (0: pool_threads()), else
    it runs on the caller's thread alone; ``spin``: whether the pool's threads spin between a
    run's operators (default: spinning(), off unless `serve --spin`); ``arena``: ORT's CPU memory
    arena (see ARENA_MAX_BYTES)."""
    opts = _ort().SessionOptions()
    opts.log_severity_level = 3
    opts.enable_cpu_mem_arena = arena
    opts.intra_op_num_threads = max(1, threads or pool_threads()) if pooled else 1
    # a pool's threads stop spinning as soon as a run ends: the page's threads compete for the
    # same cores
    opts.add_session_config_entry("session.force_spinning_stop", "1")
    if spinning() if spin is None else spin:
        # ... and spin at most a millisecond without work: a new session's pool would otherwise
        # spin through its creation and on until its first run (tens of ms of a core, on the first
        # build's path); the gaps between a run's operators are far shorter
        opts.add_session_config_entry("session.intra_op.spin_duration_us", str(SPIN_US))
    else:
        # never: while one thread computes a small operator the others would spin, each burning
        # a core for the whole run (on 16 cores, 5x a dispatch's latency in CPU time); sleeping
        # threads cost a wake-up per parallel operator instead
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        opts.add_session_config_entry("session.inter_op.allow_spinning", "0")
    return opts


@functools.lru_cache(maxsize=1)
def supported_ir_version() -> int:
    """The newest ONNX IR version the installed onnxruntime loads (the newest onnx may write a
    newer one than onnxruntime accepts)."""
    import onnx
    from onnx import TensorProto, helper

    ort = _ort()
    for ir in range(onnx.IR_VERSION, 6, -1):
        g = helper.make_graph(
            [helper.make_node("Identity", ["x"], ["y"])],
            "probe",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])],
        )
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)])
        m.ir_version = ir
        try:
            ort.InferenceSession(m.SerializeToString(), session_options(), providers=["CPUExecutionProvider"])
            return ir
        except Exception:
            continue
    raise RuntimeError("onnxruntime loads no ONNX IR version this onnx can write")


def external_constants(graph: GraphIR) -> tuple[list[str], list]:
    """The (names, OrtValues) of a graph's external initializers (views of the IR's arrays)."""
    ort = _ort()
    names, values = [], []
    for k, arr in enumerate(graph.constants.values()):
        arr = np.asarray(arr)
        if is_external(arr):
            names.append(_external_name(k))
            values.append(ort.OrtValue.ortvalue_from_numpy(contiguous(ort_storage(arr))))
    return names, values


def disabled_optimizers(graph: GraphIR) -> list[str]:
    """The graph optimizers ONNX Runtime must not run on this graph. MatmulTransposeFusion
    crashed ONNX Runtime 1.32's session creation (a segfault, which would take the host down) on
    Cast(float32 -> float16), Transpose, MatMul: float16 graphs whose operations the lowering
    computes in float32 and casts back (gru, normalizations) have it (webnn-bridge fuzz)."""
    return ["MatmulTransposeFusion"] if any(d.data_type == "float16" for d in graph.operands.values()) else []


class OrtCompiled(HoldsPool, Compiled):
    def __init__(self, graph: GraphIR, providers: tuple[str, ...], model: bytes | None = None,
                 ep_options: Mapping[str, str] | None = None, optimized_folder: str | None = None,
                 threads: int = 0):
        """``model``: the graph already lowered and serialized with external constants (a compile
        cache artifact; its constants come from ``graph``);
        ``ep_options``: the first provider's options;
        ``threads``: a CPU mode (Device.threads): 1 runs on the caller's thread, n > 1 gets a pool
        of n threads (when the pool bound allows; else 1), 0 leaves it to the graph's size (a pool
        of pool_threads() threads for graphs that gain from threads, base.graph_threads);
        ``optimized_folder``: ``model`` is ONNX Runtime's optimized model of the graph (see
        save_optimized), its external data in this folder: loaded with no optimization, and a
        failure raises ORT's error (the caller falls back to the lowered model)."""
        ort = _ort()
        self.in_map, self.out_map = io_names(graph)
        if model is None:
            model = serialize_graph(graph, supported_ir_version(), external=True)
        self.optimized = optimized_folder is not None
        self.threads = self.take_pool(graph_threads(graph, threads))  # the session's intra-op threads, the caller's included
        self.arena = graph_peak_value_bytes(graph) <= ARENA_MAX_BYTES
        opts = session_options(self.pooled, self.arena, self.threads)
        self._external = []
        if self.optimized:  # its constants, optimized, are in its data file
            opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
            opts.add_session_config_entry("session.model_external_initializers_file_folder_path", optimized_folder)
        else:
            names, self._external = external_constants(graph)  # the session reads these arrays: keep them
            if names:
                opts.add_external_initializers(names, self._external)
        options = [dict(ep_options or {}) if i == 0 else {} for i in range(len(providers))]
        try:
            self.session = ort.InferenceSession(model, opts, providers=list(providers), provider_options=options,
                                                disabled_optimizers=disabled_optimizers(graph))
        except Exception as e:  # ORT rejects the model: a compile failure per spec (details stay in the log)
            self.close()
            if self.optimized:
                raise
            log.warning("compile failed: %s", e)
            raise OperationError("The graph could not be compiled.") from None
        # ORT drops an EP that fails to initialize and runs on the next one: say so
        self.fell_back = providers[0] != "CPUExecutionProvider" and providers[0] not in self.session.get_providers()
        self.output_names = list(self.out_map.values())
        self.webnn_outputs = list(self.out_map.keys())
        # int4 / uint4 outputs come back as int8 / uint8
        packed = {DATA_TYPES[t].numpy for t in ("int4", "uint4")}
        self.output_types = [d if d in packed else None for d in
                             (graph.output_descs()[n].numpy_dtype for n in self.webnn_outputs)]
        # what ORT computes each output into: arrays of its own storage type and shape
        self.output_slots = []
        for n in self.webnn_outputs:
            d = graph.output_descs()[n]
            self.output_slots.append((tuple(d.shape), ort_storage(np.empty(0, d.numpy_dtype)).dtype))
        # outputs bound to arrays of ours (IO binding) where that saves copying them: small ones
        # come back through session.run and one copy (5 us less a run of a tiny graph here: the
        # binding's set-up costs more than copying a few KB), as does an empty one (no buffer)
        sizes = [int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize for shape, dtype in self.output_slots]
        self.bound = all(sizes) and sum(sizes) > BOUND_OUTPUT_MIN_BYTES

    def run(self, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        """The outputs in arrays the caller owns: ORT writes them into fresh numpy arrays bound to
        the run (IO binding), so a session, warm in the compile cache or shared by pages, keeps
        no page's results (outputs of session.run are views into ORT's buffers, which its
        allocator keeps for as long as the session lives) and nothing is copied. Outputs of at
        most BOUND_OUTPUT_MIN_BYTES in all are copied out of session.run's instead: at most that
        much stays in the session's allocator."""
        try:
            if self.bound:
                results = self._run_bound(inputs)
            else:
                feed = {self.in_map[k]: ort_storage(np.asarray(v)) for k, v in inputs.items()}
                results = [np.array(r, copy=True) for r in self.session.run(self.output_names, feed)]
        except Exception as e:  # runtime internals stay in the host log, never reach a page
            log.warning("execution failed: %s", e)
            raise UnknownError("The graph could not be executed.") from None
        return {n: r if t is None else r.astype(t) for n, r, t in zip(self.webnn_outputs, results, self.output_types)}

    def _run_bound(self, inputs: Mapping[str, np.ndarray]) -> list[np.ndarray]:
        binding = self.session.io_binding()
        for k, v in inputs.items():
            binding.bind_cpu_input(self.in_map[k], contiguous(ort_storage(np.asarray(v))))
        results = []
        for name, (shape, dtype) in zip(self.output_names, self.output_slots):
            out = np.empty(shape, dtype)
            binding.bind_output(name, "cpu", 0, dtype, list(shape), out.ctypes.data)
            results.append(out)
        self.session.run_with_iobinding(binding)
        return results

    def close(self) -> None:
        self.session = None
        self._external = []
        self.give_back_pool()  # its pool's threads end with the session


class OnnxRuntimeBackend(Backend):
    name = "onnxruntime"
    cpu_modes = True  # intra_op_num_threads per session (OrtCompiled's threads)

    @classmethod
    def probe(cls) -> list[Device]:
        try:
            ort = _ort()
            import onnx  # noqa: F401  (needed for lowering)
        except Exception:
            return []
        available = ort.get_available_providers()
        ep_devices = _ep_devices(ort)
        return [dev for ep in available if ep in KNOWN_PROVIDERS for dev in cls._devices_of(ep, available, ep_devices)]

    @classmethod
    def _devices_of(cls, ep: str, available: list[str], ep_devices: list[tuple[str, str]]) -> list[Device]:
        default_kind, desc = KNOWN_PROVIDERS[ep]
        providers = (ep,) if ep == "CPUExecutionProvider" else (ep, "CPUExecutionProvider")
        if ep == "TensorrtExecutionProvider" and "CUDAExecutionProvider" in available:
            providers = (ep, "CUDAExecutionProvider", "CPUExecutionProvider")
        out = []
        for kind, index in ep_device_slots(ep, default_kind, ep_devices):
            suffix = "" if (kind, index) == (default_kind, 0) else f":{kind}{index}"
            options = provider_options(ep, index, kind)
            out.append(Device(
                id=f"onnxruntime:{ep}{suffix}",
                kind=kind,
                backend=cls.name,
                name=desc if not suffix else f"{desc} ({kind} {index})",
                details={"onnxruntime": _ort().__version__, "provider": ep, **options},
                providers=providers,
                options=options,
            ))
        return out

    def implements(self, op: str) -> bool:
        from webnn_bridge.ops.registry import _no_lowering

        return load_all()[op].lower is not _no_lowering

    def compile(self, graph: GraphIR, device: Device) -> Compiled:
        return OrtCompiled(graph, self._providers(device), ep_options=device.options, threads=device.threads)

    def warm_up(self) -> None:
        supported_ir_version()  # ORT's environment and thread pools, onnx's helpers
        lowering_fingerprint()
        cpu_fingerprint()

    @staticmethod
    def _providers(device: Device) -> tuple[str, ...]:
        return device.providers or ("CPUExecutionProvider",)

    def cache_token(self, device: Device) -> str:
        token = ("onnxruntime", _ort().__version__, OPSET, device.id, self._providers(device),
                 sorted((device.options or {}).items()), lowering_fingerprint())
        return repr((*token, ("threads", device.threads)) if device.threads else token)

    def artifact(self, graph: GraphIR, device: Device) -> bytes:
        return serialize_graph(graph, supported_ir_version(), external=True)

    def load_artifact(self, artifact: bytes, graph: GraphIR, device: Device) -> Compiled:
        return OrtCompiled(graph, self._providers(device), artifact, device.options, threads=device.threads)

    def optimized_token(self, graph: GraphIR, device: Device) -> str | None:
        # only ORT's own CPU EP: other EPs compile in their own way (and keep their own caches);
        # only graphs big enough for their session's optimizations to take time worth saving
        if self._providers(device) != ("CPUExecutionProvider",) or graph_work_bytes(graph) < POOL_MIN_BYTES:
            return None
        return repr(("ort-optimized", 1, _ort().get_build_info(), OPTIMIZED_DATA_MIN_BYTES, cpu_fingerprint()))

    def save_optimized(self, artifact: bytes, graph: GraphIR, device: Device, folder: Path, data_tmp: str,
                       data_name: str) -> bytes:
        """Compiles the lowered model again, having ONNX Runtime save its optimized model: its big
        initializers go to ``folder / data_tmp``; returns the model, naming ``data_name`` (the
        caller renames the file) as its data file."""
        ort = _ort()
        opts = session_options()
        names, values = external_constants(graph)
        if names:
            opts.add_external_initializers(names, values)
        model_tmp = folder / f"{data_tmp}.onnx"
        opts.optimized_model_filepath = str(model_tmp)
        opts.add_session_config_entry("session.optimized_model_external_initializers_file_name", data_tmp)
        opts.add_session_config_entry("session.optimized_model_external_initializers_min_size_in_bytes",
                                      str(OPTIMIZED_DATA_MIN_BYTES))
        try:
            ort.InferenceSession(artifact, opts, providers=list(self._providers(device)),
                                 disabled_optimizers=disabled_optimizers(graph))
            return relocated(model_tmp.read_bytes(), data_tmp, data_name)
        finally:
            model_tmp.unlink(missing_ok=True)

    def load_optimized(self, model: bytes, folder: Path, graph: GraphIR, device: Device) -> Compiled:
        return OrtCompiled(graph, self._providers(device), model, device.options, optimized_folder=str(folder),
                           threads=device.threads)


# ONNX Runtime's optimized model keeps initializers of at least this size in its data file
OPTIMIZED_DATA_MIN_BYTES = 1024


def relocated(model: bytes, old: str, new: str) -> bytes:
    """A serialized ONNX model whose external data in file ``old`` is read from file ``new``."""
    import onnx

    m = onnx.ModelProto()
    m.ParseFromString(model)
    graphs = [m.graph]
    while graphs:
        g = graphs.pop()
        for t in g.initializer:
            for entry in t.external_data:
                if entry.key == "location" and entry.value == old:
                    entry.value = new
        graphs.extend(a.g for n in g.node for a in n.attribute if a.HasField("g"))
        graphs.extend(sub for n in g.node for a in n.attribute for sub in a.graphs)
    return m.SerializeToString()


@functools.lru_cache(maxsize=1)
def cpu_fingerprint() -> str:
    """What ONNX Runtime's CPU kernels and layout choices depend on: the machine and its
    instruction set extensions (the ``flags`` of /proc/cpuinfo where there is one)."""
    import hashlib
    import platform

    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            flags = sorted({line.strip() for line in f if line.startswith(("flags", "Features"))})
    except OSError:
        flags = [platform.processor()]
    return hashlib.blake2b(repr((platform.machine(), flags)).encode(), digest_size=16).hexdigest()


def lowering_fingerprint() -> str:
    """A digest of the code that lowers graphs (the op registry, the ONNX lowering and this
    module): an on-disk compiled model is reused only by the code that produced it."""
    from . import onnx_lowering

    return code_fingerprint(onnx_lowering.__file__, __file__)
