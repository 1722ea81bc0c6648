"""PyTorch backend: WebNN graphs run op by op with PyTorch on its devices (CUDA, ROCm, MPS, XPU, CPU).

Each operator's torch lowering lives in its op module (``attach_torch`` in ops/defs/*.py, beside
its numpy reference and ONNX lowering). A lowering receives a ``TorchBuilder`` and the call with
operands as torch tensors in their *storage* types:

- float32 / float16 / int32 / int64 / int8 / uint8 are held as themselves;
- uint32 is held as int64 (the same values: PyTorch has no uint32 arithmetic);
- uint64 is held as int64 with the same bits (two's complement): addition, subtraction,
  multiplication and sums are bit-exact; comparisons go through ``ordered()``;
- int4 / uint4 are held unpacked as int8 / uint8 (the host's arrays are already unpacked).

Whatever a lowering returns is fitted to the node's output descriptor (``fit``): cast to the
storage type (float16 results rounded once from float32, as the reference does), integers
wrapped to their type's width (two's complement). Lowerings compute float16 in float32.

Compile prepares the steps and uploads constants to the device once; run() copies inputs to the
device, runs the steps under ``torch.inference_mode`` and copies outputs back. On CUDA (and ROCm)
a graph run a second time is captured as a CUDA graph and replayed from then on (on by default;
``WEBNN_BRIDGE_TORCH_CUDA_GRAPHS=0`` turns it off): inputs are copied into static buffers, the
captured kernels replayed, outputs read from their fixed buffers. Measured on an H100 (README, "GPU
check"): MobileNetV2 on the device took 3.4–6.6 ms a run eagerly (one Python step and kernel launch
per node) and 0.69–0.74 ms replayed. ``torch.compile`` is off by default (``WEBNN_BRIDGE_TORCH_COMPILE=1``).
Lowerings never synchronise with the host (no ``.item()``, no data-dependent Python branches),
so every graph can be captured.

Importing this module never imports torch. probe() finds no devices when torch is missing (or
``WEBNN_BRIDGE_TORCH=0``); it lists ``torch:cpu`` without importing torch, and imports it (once) to
list GPUs only where a GPU driver's device files are present (``gpu_plausible``;
``WEBNN_BRIDGE_TORCH=gpu`` forces it): a host without a GPU does not pay torch's start-up.
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import os
import platform
import threading
import warnings
from collections.abc import Mapping

import numpy as np

from webnn_bridge.ops.core import DATA_TYPES, OperandDesc, OperationError
from webnn_bridge.ops.graph import GraphIR, is_ref
from webnn_bridge.ops.registry import load_all

from .base import Backend, Capabilities, Compiled, Device, DeviceValue, contiguous, pool_threads, spinning

# WebNN type -> storage type name (the torch dtype's name)
STORAGE = {"float32": "float32", "float16": "float16", "int32": "int32", "int64": "int64", "int8": "int8",
           "uint8": "uint8", "uint32": "int64", "uint64": "int64", "int4": "int8", "uint4": "uint8"}
INT64_MIN = -(2**63)
MAX_RANK = 8
# Apple's MPS has no float64 and only partial 64-bit integer support: its devices claim the
# narrower types, and not the ops whose lowerings compute in float64
MPS_TYPES = ("float32", "float16", "int32", "int8", "uint8")
FLOAT64_OPS = ("cast", "quantizeLinear", "dequantizeLinear", "resample2d", "gelu")
_CAPTURE_LOCK = threading.Lock()  # one CUDA graph capture at a time in the process
log = logging.getLogger(__name__)


def _torch():
    if not _THREADS_SET:
        _first_import()
    import torch

    return torch


_THREADS_SET = False
_THREADS_LOCK = threading.Lock()


def _first_import() -> None:
    """Imports torch the first time with its CPU threads set as ONNX Runtime's pools are (CPU
    thrift, backends/base.py): its OpenMP threads sleep as soon as they run out of work (they spin
    otherwise: OMP_WAIT_POLICY, read when the OpenMP runtime starts, so set before torch is
    imported; unless the user set it, or asked for spinning), and it runs an operator on at most
    pool_threads(1) threads (torch.set_num_threads, process-wide: every thread that starts torch
    work afterwards takes it; a pool's size is set once, so the number of active pages does not
    change it). Where torch was imported before (by whoever), the thread count is still set."""
    global _THREADS_SET
    with _THREADS_LOCK:
        if _THREADS_SET:
            return
        if not spinning():
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        import torch

        torch.set_num_threads(pool_threads(1))
        _THREADS_SET = True


def enabled() -> bool:
    return os.environ.get("WEBNN_BRIDGE_TORCH", "1") != "0" and importlib.util.find_spec("torch") is not None


# device files of the GPU drivers PyTorch uses (NVIDIA, also under gVisor's nvproxy; AMD ROCm; WSL)
_GPU_DEVICE_FILES = ("/dev/nvidiactl", "/dev/nvidia0", "/dev/kfd", "/dev/dxg")


def gpu_plausible() -> bool:
    """Whether a GPU PyTorch could use may be here, known without importing torch (about 200 MB and
    seconds of start-up, which a host without a GPU should not pay for its CPU device)."""
    if os.environ.get("WEBNN_BRIDGE_TORCH") == "gpu":
        return True
    system = platform.system()
    if system == "Darwin":
        return platform.machine() == "arm64"  # MPS
    if system == "Windows":
        return True
    if any(os.path.exists(p) for p in _GPU_DEVICE_FILES):
        return True
    return "xpu" in _version() and os.path.isdir("/dev/dri")  # Intel GPUs, with PyTorch's XPU build


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("torch")
    except PackageNotFoundError:
        return "unknown"


class TorchBuilder:
    """What an op's ``torch`` lowering uses: the torch module, the node's types, and helpers for
    the storage types (see the module docstring)."""

    def __init__(self, device):
        self.torch = _torch()
        self.device = device
        self.types: dict[int, str] = {}  # id(tensor) -> WebNN data type, for the node's operands
        self.out_types: list[str] = []
        self._consts: dict[tuple[int, int], object] = {}
        self._node = 0
        self._k = 0

    # -- per node
    def begin(self, node: int, operand_types: Mapping[int, str], out_types: list[str]) -> None:
        self.types = dict(operand_types)
        self.out_types = out_types
        self._node, self._k = node, 0

    def type(self, t) -> str:
        """The WebNN data type of an operand (an intermediate's: named by its storage dtype)."""
        dt = self.types.get(id(t))
        return dt if dt is not None else str(t.dtype).removeprefix("torch.")

    def dtype(self, data_type: str):
        return getattr(self.torch, STORAGE[data_type])

    # -- constants
    def const(self, array: np.ndarray, dtype=None):
        """A numpy array of the lowering's own (indices, masks) on the device: uploaded once per
        compiled graph and reused (no host copies while a CUDA graph is captured)."""
        key = (self._node, self._k)
        self._k += 1
        t = self._consts.get(key)
        if t is None:
            t = self.torch.as_tensor(contiguous(array), device=self.device)
            if dtype is not None:
                t = t.to(dtype)
            self._consts[key] = t
        return t

    def full(self, value, like, dtype=None):
        return self.torch.full_like(like, value, dtype=dtype)

    # -- numeric helpers
    def f32(self, x):
        """float16 -> float32 (others unchanged): the precision the reference computes in."""
        return x.float() if x.dtype == self.torch.float16 else x

    def wide(self, x):
        """Integers -> int64 (uint64 keeps its bits)."""
        return x if x.dtype == self.torch.int64 or x.is_floating_point() else x.to(self.torch.int64)

    def ordered(self, x, data_type: str):
        """uint64 bits -> int64 with the same order (flip the sign bit); other types unchanged."""
        return x ^ INT64_MIN if data_type == "uint64" else x

    def ordered_scalar(self, value, data_type: str) -> int:
        """A Python integer of ``data_type`` as ordered() maps its storage (uint64: int64 bits, sign flipped)."""
        v = int(value)
        if data_type != "uint64":
            return v
        return (v - 2**64 if v >= 2**63 else v) ^ INT64_MIN

    def unordered(self, x, data_type: str):
        return x ^ INT64_MIN if data_type == "uint64" else x

    def fit(self, y, data_type: str):
        """A result as ``data_type``'s storage: rounded (floats) or wrapped (integers)."""
        torch = self.torch
        if data_type in ("float32", "float16"):
            return y.to(self.dtype(data_type))
        if y.is_floating_point():
            raise OperationError(f"torch: a float result for a {data_type} output")
        if data_type == "uint32":
            return y.to(torch.int64) & 0xFFFFFFFF
        if data_type in ("int4", "uint4"):
            low = y.to(torch.int64) & 0xF
            if data_type == "int4":
                low = (low ^ 8) - 8
            return low.to(self.dtype(data_type))
        return y.to(self.dtype(data_type))

    def int_range(self, data_type: str) -> tuple[int, int]:
        return DATA_TYPES[data_type].int_range


# --------------------------------------------------------------------------- host <-> storage


def to_storage(a: np.ndarray, data_type: str) -> np.ndarray:
    if data_type == "uint32":
        return a.astype(np.int64)
    if data_type == "uint64":
        return contiguous(a).view(np.int64)
    if data_type in ("int4", "uint4"):
        return a.astype(np.int8 if data_type == "int4" else np.uint8)
    return a


def from_storage(a: np.ndarray, desc: OperandDesc) -> np.ndarray:
    dt = desc.data_type
    if dt == "uint64":
        a = contiguous(a).view(np.uint64)
    elif a.dtype != desc.numpy_dtype:
        a = a.astype(desc.numpy_dtype)
    return a.reshape(desc.shape)


# --------------------------------------------------------------------------- compiled graphs


class TorchValue(DeviceValue):
    """A tensor's contents as a torch tensor (its storage type) on a PyTorch device."""

    __slots__ = ("tensor", "desc")

    def __init__(self, tensor, desc: OperandDesc):
        self.tensor = tensor
        self.desc = desc

    def numpy(self) -> np.ndarray:
        return from_storage(host_copy(self.tensor), self.desc)


@functools.cache
def _numpy_dtype(dtype) -> np.dtype:
    return _torch().empty(0, dtype=dtype).numpy().dtype


def host_copy(t) -> np.ndarray:
    """A torch tensor's values in a new numpy array of their own: copied once, straight into the
    array (from a GPU: one device-to-host copy, no CPU tensor copied again)."""
    t = t.detach()
    out = np.empty(tuple(t.shape), _numpy_dtype(t.dtype))
    _torch().from_numpy(out).copy_(t)
    return out


def cuda_graphs_default() -> bool:
    """Whether CUDA (and ROCm) devices replay repeated runs as CUDA graphs: yes, unless
    ``WEBNN_BRIDGE_TORCH_CUDA_GRAPHS=0``."""
    return os.environ.get("WEBNN_BRIDGE_TORCH_CUDA_GRAPHS", "1") != "0"


class TorchCompiled(Compiled):
    def __init__(self, graph: GraphIR, device: Device, cuda_graphs: bool | None = None,
                 compile_mode: bool | None = None):
        torch = _torch()
        self.torch = torch
        self.graph = graph
        self.dev = torch.device(device.providers[0] if device.providers else "cpu")
        registry = load_all()
        self.steps = []
        for node in graph.nodes:
            op = registry[node.op]
            if op.torch is None:
                raise OperationError(f"torch: {node.op} has no torch lowering")
            self.steps.append((op.torch, node, [graph.operands[o].data_type for o in node.outputs]))
        self.ins = graph.input_descs()
        self.outs = graph.output_descs()
        self.tb = TorchBuilder(self.dev)
        graph.load_constants()
        self.constants = {oid: self._upload(np.asarray(a), graph.operands[oid].data_type)
                          for oid, a in graph.constants.items()}
        self._dry_run()
        # a compiled graph's constant cache and CUDA graph are not shared by threads, and a replay's
        # outputs (its fixed buffers) are copied out before another run may overwrite them
        self.lock = threading.RLock()
        gpu = self.dev.type == "cuda"
        if cuda_graphs is None:
            cuda_graphs = cuda_graphs_default()
        self.use_cuda_graph = bool(cuda_graphs and gpu)
        self.cuda_graph = None
        self.static_in: dict[str, object] = {}
        self.static_out: dict[str, object] = {}
        self.runs = 0
        if compile_mode is None:
            compile_mode = os.environ.get("WEBNN_BRIDGE_TORCH_COMPILE", "0") == "1"
        self.execute = torch.compile(self._execute, dynamic=False) if compile_mode else self._execute

    def _dry_run(self) -> None:
        """The steps on PyTorch's meta device (shapes only, no data): what a lowering refuses
        fails the build, not the first dispatch. A lowering that the meta device cannot run is
        left to the real run."""
        torch = self.torch
        real_tb, real_consts = self.tb, self.constants
        self.tb = TorchBuilder(torch.device("meta"))
        self.constants = {oid: torch.empty(t.shape, dtype=t.dtype, device="meta") for oid, t in real_consts.items()}
        try:
            feeds = {n: torch.empty(d.shape, dtype=self.tb.dtype(d.data_type), device="meta")
                     for n, d in self.ins.items()}
            self._execute(feeds)
        except OperationError:
            raise
        except Exception:  # noqa: BLE001 - the meta device lacks a kernel: the real run decides
            pass
        finally:
            self.tb, self.constants = real_tb, real_consts

    def _upload(self, a: np.ndarray, data_type: str):
        a = contiguous(to_storage(a, data_type))
        if not a.flags.writeable:
            if self.dev.type == "cpu":  # PyTorch tensors over read-only memory: copy (torch.tensor does)
                return self.torch.tensor(a)
            with warnings.catch_warnings():  # read once, by the copy to the device: never written
                warnings.filterwarnings("ignore", message="The given NumPy array is not writable")
                return self.torch.from_numpy(a).to(self.dev)
        return self.torch.as_tensor(a).to(self.dev)

    def _execute(self, feeds: Mapping[str, object]) -> dict[str, object]:
        """The graph on device tensors (storage types): feeds by input name -> outputs by name."""
        graph, tb = self.graph, self.tb
        values: dict[int, object] = dict(self.constants)
        for name, oid in graph.inputs.items():
            values[oid] = feeds[name]
        for i, (fn, node, out_types) in enumerate(self.steps):
            refs = {}

            def sub(r, refs=refs):
                t = values[r.id]
                refs[id(t)] = graph.operands[r.id].data_type
                return t

            call = node.call.map_operands(sub, is_ref)
            tb.begin(i, refs, out_types)
            try:
                results = fn(tb, call)
            except NotImplementedError as e:
                raise OperationError(f"torch: {node.op}: {e}") from e
            for oid, y in zip(node.outputs, results):
                desc = graph.operands[oid]
                y = tb.fit(y, desc.data_type)
                if tuple(y.shape) != desc.shape:
                    if y.numel() != desc.size:
                        raise OperationError(f"torch: {node.op} gave shape {list(y.shape)}, expected {list(desc.shape)}")
                    y = y.reshape(desc.shape)
                values[oid] = y
        return {name: values[oid] for name, oid in graph.outputs.items()}

    def to_device(self, inputs: Mapping[str, np.ndarray]) -> dict[str, object]:
        return {name: self._upload(np.asarray(inputs[name]), d.data_type) for name, d in self.ins.items()}

    def to_host(self, outs: Mapping[str, object]) -> dict[str, np.ndarray]:
        # always a copy: a CPU tensor's numpy() shares its memory (with an input or a constant)
        return {name: from_storage(host_copy(outs[name]), d) for name, d in self.outs.items()}

    def run_device(self, feeds: Mapping[str, object]) -> dict[str, object]:
        """Device tensors in, device tensors out (storage types): what a dispatch whose tensors stay
        on the device runs. The outputs of a CUDA-graph replay are its fixed buffers (preallocated;
        overwritten by the next run)."""
        torch = self.torch
        with self.lock, torch.inference_mode():
            self.runs += 1
            if not self.use_cuda_graph:
                return self.execute(feeds)
            if self.cuda_graph is None:
                if self.runs < 2:  # capture only graphs that are run again
                    return self.execute(feeds)
                try:
                    self._capture(feeds)
                except Exception:  # a graph PyTorch cannot capture runs eagerly, as without the option
                    log.warning("torch: CUDA graph capture failed; running eagerly", exc_info=True)
                    self.use_cuda_graph = False
                    self.static_in, self.static_out = {}, {}
                    return self.execute(feeds)
            for name, t in feeds.items():
                self.static_in[name].copy_(t, non_blocking=True)
            self.cuda_graph.replay()
            return self.static_out

    def _capture(self, feeds: Mapping[str, object]) -> None:
        torch = self.torch
        self.static_in = {name: t.clone() for name, t in feeds.items()}
        stream = torch.cuda.Stream(device=self.dev)
        stream.wait_stream(torch.cuda.current_stream(self.dev))
        with torch.cuda.stream(stream):
            self.execute(self.static_in)  # warm-up on a side stream (allocator, cuBLAS handles, constants)
        torch.cuda.current_stream(self.dev).wait_stream(stream)
        g = torch.cuda.CUDAGraph()
        # thread_local: another session's work on another thread does not break the capture
        with _CAPTURE_LOCK, warnings.catch_warnings():
            # a graph whose outputs are views of its inputs (reshape alone) captures no kernel: its
            # replay does nothing, rightly, and PyTorch's warning about it is noise
            warnings.filterwarnings("ignore", message="The CUDA Graph is empty")
            with torch.cuda.graph(g, capture_error_mode="thread_local"):
                self.static_out = self.execute(self.static_in)
        self.cuda_graph = g

    def run(self, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        feeds = self.to_device(inputs)
        with self.lock:
            return self.to_host(self.run_device(feeds))

    resident = True

    def upload(self, name: str, array: np.ndarray) -> TorchValue:
        d = self.ins[name]
        return TorchValue(self._upload(np.asarray(array), d.data_type), d)

    def run_resident(self, inputs: Mapping[str, np.ndarray | DeviceValue]) -> dict[str, TorchValue]:
        feeds = {}
        for name, d in self.ins.items():
            v = inputs[name]
            if isinstance(v, TorchValue) and v.tensor.device == self.dev and v.desc == d:
                feeds[name] = v.tensor
            else:
                feeds[name] = self._upload(np.asarray(v.numpy() if isinstance(v, DeviceValue) else v), d.data_type)
        with self.lock:
            outs = self.run_device(feeds)
            # a CUDA graph's outputs are its fixed buffers, overwritten by the next replay: copied on the device
            copy = self.use_cuda_graph and self.cuda_graph is not None
            return {name: TorchValue(outs[name].clone() if copy else outs[name], d) for name, d in self.outs.items()}

    def close(self) -> None:
        self.cuda_graph = None
        self.static_in, self.static_out, self.constants = {}, {}, {}
        self.tb._consts.clear()


# --------------------------------------------------------------------------- the backend


def torch_ops() -> list[str]:
    return sorted(name for name, op in load_all().items() if op.torch is not None)


class TorchBackend(Backend):
    name = "torch"
    _probed: list[Device] | None = None

    @classmethod
    def probe(cls) -> list[Device]:
        if cls._probed is not None:
            return list(cls._probed)
        if not enabled():
            cls._probed = []
            return []
        out: list[Device] = []
        version = _version()
        cpu = Device(id="torch:cpu", kind="cpu", backend=cls.name, name="CPU via PyTorch",
                     details={"torch": version, "api": "cpu"}, providers=("cpu",))
        if not gpu_plausible():  # the CPU device needs no import until a graph is compiled for it
            cls._probed = [cpu]
            return [cpu]
        torch = _torch()
        if torch.cuda.is_available():
            hip = getattr(torch.version, "hip", None)
            for i in range(torch.cuda.device_count()):
                name = torch.cuda.get_device_name(i)
                api = "rocm" if hip else "cuda"
                out.append(Device(id=f"torch:{api}:{i}", kind="gpu", backend=cls.name, name=f"{name} via PyTorch {api}",
                                  details={"torch": version, "api": api, "power": "high-performance",
                                           "runtime": str(hip or torch.version.cuda)},
                                  providers=(f"cuda:{i}",)))
        mps = getattr(torch.backends, "mps", None)
        if mps is not None and mps.is_available():
            out.append(Device(id="torch:mps", kind="gpu", backend=cls.name, name="Apple GPU via PyTorch MPS",
                              details={"torch": version, "api": "mps"}, providers=("mps",)))
        xpu = getattr(torch, "xpu", None)
        if xpu is not None and xpu.is_available():
            for i in range(xpu.device_count()):
                out.append(Device(id=f"torch:xpu:{i}", kind="gpu", backend=cls.name, name="Intel GPU via PyTorch XPU",
                                  details={"torch": version, "api": "xpu"}, providers=(f"xpu:{i}",)))
        out.append(cpu)
        cls._probed = out
        return list(out)

    def capabilities(self, device: Device) -> Capabilities:
        from .capabilities import capabilities_from_spec

        registry = load_all()
        ops = torch_ops()
        types = list(DATA_TYPES)
        per_op = {op: list(registry[op].torch_types or types) for op in ops}
        if device.providers and device.providers[0] == "mps":
            types = list(MPS_TYPES)
            ops = [op for op in ops if op not in FLOAT64_OPS]
            per_op = {op: per_op[op] for op in ops}
        return capabilities_from_spec({"ops": ops, "dataTypes": types, "maxRank": MAX_RANK,
                                       "maxTensorByteLength": 2**31 - 1, "opDataTypes": per_op})

    def implements(self, op: str) -> bool:
        return load_all()[op].torch is not None

    def warm_up(self) -> None:
        """Imports torch before serving only where it found GPUs: a host whose torch device is its
        CPU (never its default CPU) imports torch at the first build for it."""
        if any(d.kind == "gpu" for d in type(self)._probed or ()):
            _exact_float32()

    def compile(self, graph: GraphIR, device: Device) -> Compiled:
        _exact_float32()
        return TorchCompiled(graph, device)


def _exact_float32() -> None:
    torch = _torch()
    # exact float32 on NVIDIA GPUs: no TF32 in matmul or cuDNN convolutions
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
