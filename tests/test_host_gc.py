"""The served host tunes its process's garbage collector; an embedded host leaves it alone."""

from __future__ import annotations

import gc
import subprocess
import sys

from webnn_bridge.bridge.embed import start_host
from webnn_bridge.bridge.server import GC_YOUNG_THRESHOLD


def test_an_embedded_host_leaves_the_programs_collector_alone():
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    h = start_host()
    try:
        assert gc.get_threshold() == before and gc.get_freeze_count() == frozen
    finally:
        h.stop()


def test_the_served_host_freezes_its_setup_and_collects_young_objects_less_often():
    script = (
        "import gc\n"
        "from webnn_bridge.bridge.embed import start_host\n"
        "assert gc.get_freeze_count() == 0\n"
        "h = start_host(own_process=True)\n"
        "print(gc.get_threshold()[0], gc.get_freeze_count())\n"
        "h.stop()\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True).stdout
    young, frozen = map(int, out.split())
    assert young == GC_YOUNG_THRESHOLD and frozen > 10000  # the modules' objects, ONNX Runtime's bindings...
