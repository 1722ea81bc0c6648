"""The device inventory: the one impure place that asks installed runtimes what they can use."""

from __future__ import annotations

import json
from pathlib import Path

from backends import all_backends
from backends.base import Device


def probe_inventory() -> list[Device]:
    devices: list[Device] = []
    for cls in all_backends():
        try:
            devices.extend(cls.probe())
        except Exception:  # a broken runtime shrinks the inventory, never breaks the host
            continue
    return devices


def load_profile(path: str | Path) -> list[Device]:
    """A declared inventory (what-if runs): {"devices": [{"id", "kind", "backend", "name"}]}."""
    data = json.loads(Path(path).read_text())
    return [
        Device(id=d["id"], kind=d["kind"], backend=d.get("backend", "simulated"), name=d.get("name", d["id"]))
        for d in data["devices"]
    ]
