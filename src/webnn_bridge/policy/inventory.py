"""The device inventory.

``probe_inventory()`` is the one impure place that asks installed runtimes what they can use.
Everything else here is pure: ``load_profile()`` reads a declared inventory (what-if runs: the
devices are simulated and graphs execute on the host's CPU backend), ``capabilities_of()`` says
what a device executes, ``execution_device()`` picks the CPU that really runs simulated work.

Declared inventory (``--devices PROFILE.json``; see policy/fixtures/README.md)::

    {"name": "intel-laptop-npu",
     "devices": [
       {"id": "openvino:npu", "kind": "npu", "backend": "openvino", "name": "Intel NPU",
        "power": "low-power",                                   (optional power class)
        "perf": {"throughput": 3.0, "latency": 1.5},            (optional cost-model hints)
        "capabilities": {"dataTypes": ["float32", "float16"], "maxRank": 5, ...}},
       {"id": "cpu", "kind": "cpu"}                             (old form: supports everything)
     ]}

An entry with ``"probe": "openvino:CPU"`` is *bound* to that probed device: it is real (graphs run
on it, reports say non-simulated), its kind must be the probed one, and its ``capabilities``
narrow the probed device's (a declared gap, e.g. to force a real partition). A profile whose
bound device is not on this machine fails to load.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from webnn_bridge.backends.base import Capabilities, Device
from webnn_bridge.backends.capabilities import capabilities_from_spec, intersect, spec_capabilities

FIXTURES_DIR = Path(__file__).with_name("fixtures")
KINDS = ("cpu", "gpu", "npu")
POWER_CLASSES = ("high-performance", "low-power", "unspecified")
PERF_KEYS = {"throughput", "latency", "gflops", "bandwidthGBs", "dispatchMs", "perNodeMs"}
SIMULATED = "simulated"


@dataclass(frozen=True)
class DeclaredDevice(Device):
    """A device from a declared inventory. ``backend`` is always "simulated" (so the host never
    looks for a runtime for it); the backend the profile names is ``declared_backend``."""

    declared_backend: str = SIMULATED
    power: str = "unspecified"
    perf: Mapping[str, float] = field(default_factory=dict, compare=False)
    capabilities: Capabilities | None = field(default=None, compare=False, repr=False)
    bound: bool = False  # a real, probed device with declared narrowings (see bind())


# --------------------------------------------------------------------------- probing (impure)


def probe_inventory() -> list[Device]:
    from webnn_bridge.backends import all_backends

    devices: list[Device] = []
    for cls in all_backends():
        try:
            devices.extend(cls.probe())
        except Exception:  # a broken runtime shrinks the inventory, never breaks the host
            continue
    return devices


# --------------------------------------------------------------------------- declared inventories


def resolve_profile(arg: str | Path) -> Path:
    """A profile path, or the name of a bundled fixture (``nvidia-cuda-trt``)."""
    p = Path(arg)
    if p.exists():
        return p
    candidate = FIXTURES_DIR / f"{arg}.json"
    if candidate.exists():
        return candidate
    raise FileNotFoundError(f"no device profile {arg!r} (neither a file nor a fixture in {FIXTURES_DIR})")


def _device_from_entry(d: Mapping[str, Any], presets: Mapping[str, Any], where: str) -> DeclaredDevice:
    for key in ("id", "kind"):
        if key not in d:
            raise ValueError(f"{where}: '{key}' is required")
    kind = d["kind"]
    if kind not in KINDS:
        raise ValueError(f"{where}: kind must be one of {KINDS}, not {kind!r}")
    power = d.get("power", "unspecified")
    if power not in POWER_CLASSES:
        raise ValueError(f"{where}: power must be one of {POWER_CLASSES}, not {power!r}")
    perf = d.get("perf", {})
    if not isinstance(perf, Mapping):
        raise ValueError(f"{where}: perf must be an object")
    perf = dict(perf)
    if set(perf) - PERF_KEYS:
        raise ValueError(f"{where}: unknown perf keys {sorted(set(perf) - PERF_KEYS)}")
    for key, value in perf.items():
        positive = key not in ("dispatchMs", "perNodeMs")
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        if not ok or (value <= 0 if positive else value < 0):
            raise ValueError(f"{where}: perf.{key} must be a finite number {'> 0' if positive else '>= 0'}, "
                             f"not {value!r}")
    spec = d.get("capabilities")
    if isinstance(spec, str):
        if spec not in presets:
            raise ValueError(f"{where}: unknown capability preset {spec!r}")
        spec = presets[spec]
    try:
        caps = capabilities_from_spec(spec)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None
    backend = d.get("backend", SIMULATED)
    details = {"simulated": "yes", "declared backend": backend}
    if power != "unspecified":
        details["power"] = power
    return DeclaredDevice(
        id=str(d["id"]),
        kind=kind,
        backend=SIMULATED,
        name=str(d.get("name", d["id"])),
        details=details,
        declared_backend=backend,
        power=power,
        perf={k: float(v) for k, v in perf.items()},
        capabilities=caps,
    )


def bind(declared: DeclaredDevice, probed: Sequence[Device], probe_id: str, where: str) -> DeclaredDevice:
    """A declared entry bound to the probed device ``probe_id``: real execution, declared
    capabilities intersected with the real ones."""
    real = next((d for d in probed if d.id == probe_id), None)
    if real is None:
        raise ValueError(f"{where}: probe {probe_id!r} names no device on this machine")
    if real.kind != declared.kind:
        raise ValueError(f"{where}: kind {declared.kind!r} differs from the probed device's {real.kind!r}")
    caps = capabilities_of(real)
    if declared.capabilities is not None:
        caps = intersect(caps, declared.capabilities)
    details = {**dict(real.details), "declared": "yes"}
    return replace(declared, backend=real.backend, providers=real.providers, details=details,
                   declared_backend=real.backend, capabilities=caps, bound=True)


def parse_profile(data: Mapping[str, Any], where: str = "profile") -> list[DeclaredDevice]:
    if not isinstance(data, Mapping):
        raise ValueError(f"{where}: a profile is a JSON object with a 'devices' list")
    devices = data.get("devices")
    if not isinstance(devices, list) or not devices or not all(isinstance(d, Mapping) for d in devices):
        raise ValueError(f"{where}: 'devices' must be a non-empty list of objects")
    presets = dict(data.get("presets", {}))
    out = [_device_from_entry(d, presets, f"{where}: devices[{i}]") for i, d in enumerate(devices)]
    probes = {i: str(d["probe"]) for i, d in enumerate(devices) if "probe" in d}
    if probes:
        probed = probe_inventory()
        for i, probe_id in probes.items():
            out[i] = bind(out[i], probed, probe_id, f"{where}: devices[{i}]")
    ids = [d.id for d in out]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{where}: device ids must be unique")
    return out


def profile_backend_problem(data: Any, where: str = "profile") -> str | None:
    """A profile entry naming a backend webnn-bridge does not have (``"backend": "cuda"``): the
    ranking would silently put it after every backend the rules name, and a recorded latency
    would never count for it. None when every entry names a known backend (or none)."""
    from webnn_bridge.backends import all_backends

    known = tuple(dict.fromkeys(cls.name for cls in all_backends()))
    for i, d in enumerate(data.get("devices") or [] if isinstance(data, Mapping) else []):
        backend = d.get("backend", SIMULATED) if isinstance(d, Mapping) else SIMULATED
        if backend != SIMULATED and backend not in known:
            return (f"{where}: devices[{i}]: unknown backend {backend!r} (known: {', '.join(known)}; "
                    "a runtime reached through one of them goes by its name)")
    return None


def load_profile(path: str | Path) -> list[Device]:
    """A declared inventory (what-if runs). Old profiles ({"id", "kind", "backend", "name"} only)
    load as devices that support everything the spec allows. A backend webnn-bridge does not
    have is an error (``profile_backend_problem``)."""
    p = resolve_profile(path)
    data = json.loads(p.read_text())
    problem = profile_backend_problem(data, str(p))
    if problem:
        raise ValueError(problem)
    return list(parse_profile(data, str(p)))


# --------------------------------------------------------------------------- facts about devices


def is_simulated(device: Device) -> bool:
    if isinstance(device, DeclaredDevice):
        return not device.bound
    return device.backend == SIMULATED


def backend_name(device: Device) -> str:
    """The backend used for ranking: the declared one for simulated devices."""
    return device.declared_backend if isinstance(device, DeclaredDevice) else device.backend


def takes_cpu_modes(device: Device) -> bool:
    """Whether a real CPU device's backend takes a thread count per graph (Backend.cpu_modes)."""
    if isinstance(device, DeclaredDevice) or device.kind != "cpu":
        return False
    from webnn_bridge.backends import all_backends

    return any(cls.name == device.backend and cls.cpu_modes for cls in all_backends())


def power_class(device: Device) -> str:
    if isinstance(device, DeclaredDevice):
        return device.power
    return str(dict(device.details).get("power", "unspecified"))


def perf_hints(device: Device) -> Mapping[str, float]:
    return device.perf if isinstance(device, DeclaredDevice) else {}


_REAL_CAPS: dict[tuple, Capabilities] = {}


def capabilities_of(device: Device) -> Capabilities:
    """What a device executes. Declared devices carry their own; real devices ask their backend
    class (derived from the op registry; no hardware is touched)."""
    if isinstance(device, DeclaredDevice) and device.capabilities is not None:
        return device.capabilities
    if device.backend == SIMULATED:
        return spec_capabilities()
    key = (device.backend, device.id, tuple(device.providers))
    caps = _REAL_CAPS.get(key)
    if caps is None:
        from webnn_bridge.backends import backend_for

        try:
            caps = backend_for(device).capabilities(device)
        except KeyError:
            caps = spec_capabilities()
        _REAL_CAPS[key] = caps
    return caps


REFERENCE_CPU = Device(id="reference:cpu", kind="cpu", backend="reference", name="numpy reference (CPU)")


def execution_device(inventory: Sequence[Device], backend_order: Sequence[str] = ()) -> Device:
    """The real CPU device that executes simulated work: the inventory's first non-simulated CPU
    (by backend order), else the numpy reference CPU."""
    cpus = [d for d in inventory if d.kind == "cpu" and not is_simulated(d)]
    if not cpus:
        return REFERENCE_CPU
    order = list(backend_order)
    return sorted(cpus, key=lambda d: (order.index(d.backend) if d.backend in order else len(order), d.id))[0]
