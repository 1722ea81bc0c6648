"""The op registry loads once, completely, even when many threads ask at the same time (the
host's sessions run on worker threads; a half-filled registry once broke every context)."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_concurrent_first_load_sees_every_operator():
    code = textwrap.dedent("""
        import threading, time
        from webnn_bridge.ops.registry import load_all
        counts = []
        def work(i):
            time.sleep(i * 0.002)  # staggered: later threads arrive while the first is loading
            counts.append(len(load_all()))
        threads = [threading.Thread(target=work, args=(i,)) for i in range(64)]
        for t in threads: t.start()
        for t in threads: t.join()
        print(sorted(set(counts)))
    """)
    for _ in range(3):  # a fresh interpreter each time: the first load is the racy one
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
        assert out.strip() == "[95]", out
