"""The two halves of scripts/floor_smoke.sh (the declared dependency floors work):

``python scripts/floor_smoke.py pins [PYPROJECT]`` prints each direct dependency of pyproject.toml
pinned to its declared floor (``numpy>=1.26`` gives ``numpy==1.26``), one a line, so that the pins
cannot drift from what pyproject declares; a dependency without a floor is an error.

``python scripts/floor_smoke.py check URL`` checks a running host as a page would: /webnn-shim.js
and /healthz answer 200 (GET, and HEAD for the shim), and a wire client builds a tiny graph,
computes it and reads back the expected values. It imports webnn_bridge from the interpreter that
runs it (the floor environment's). Exit status 0 when everything holds.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

REQUIREMENT = re.compile(r"\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*(?P<extras>\[[^\]]*\])?\s*(?P<spec>[^;]*?)\s*"
                         r"(?P<marker>;.*)?")


def floor_pins(pyproject: str | Path) -> list[str]:
    """``name[extras]==floor[; marker]`` for every entry of [project] dependencies."""
    import tomllib

    with open(pyproject, "rb") as f:
        deps = tomllib.load(f)["project"]["dependencies"]
    pins = []
    for dep in deps:
        m = REQUIREMENT.fullmatch(dep)
        floors = re.findall(r"(?:>=|==|~=)\s*([^,\s]+)", m.group("spec")) if m else []
        if not floors:
            raise ValueError(f"{dep!r} declares no floor (>=): the floor smoke test cannot pin it")
        marker = m.group("marker") or ""
        pins.append(f"{m.group('name')}{m.group('extras') or ''}=={floors[0]}{marker}")
    return pins


def check(url: str) -> list[str]:
    """What fails at the host at ``url`` (empty: nothing)."""
    import asyncio
    import urllib.error
    import urllib.request

    import numpy as np

    from webnn_bridge.bridge.testing.wire_client import WireClient

    problems = []
    for method, path, needle in (("GET", "/webnn-shim.js", b"WebNN"), ("HEAD", "/webnn-shim.js", b""),
                                 ("GET", "/healthz", b"ok")):
        try:
            with urllib.request.urlopen(urllib.request.Request(url + path, method=method), timeout=30) as r:
                body = r.read()
                if r.status != 200 or needle not in body:
                    problems.append(f"{method} {path}: {r.status}, {body[:80]!r}")
        except urllib.error.HTTPError as e:
            problems.append(f"{method} {path}: {e.code} {e.read()[:200]!r}")
        except OSError as e:
            problems.append(f"{method} {path}: {e}")

    async def compute() -> None:
        c = await WireClient.open(url)
        try:
            await c.context()
            w = np.array([[1, -2, 0.5], [3, 4, -1], [-0.25, 1, 2]], np.float32)
            await c.matmul_graph(1, 3, weights=w, rows=2)
            x = np.array([[1, 1, 1], [2, -1, 0.5]], np.float32)
            y = (await c.round_trip(1, x)).reshape(2, 3)
            expected = np.array([[3.75, 3, 1.5], [0, 0, 3]], np.float32)  # relu(x @ w), by hand
            if not np.allclose(y, expected, rtol=1e-6, atol=1e-6):
                problems.append(f"wire round trip: relu(x @ w) = {y.tolist()}, expected {expected.tolist()}")
        finally:
            await c.close()

    try:
        asyncio.run(asyncio.wait_for(compute(), 120))
    except Exception as e:  # noqa: BLE001 - every failure is reported, not raised
        problems.append(f"wire round trip: {type(e).__name__}: {e}")
    return problems


def main(argv: list[str]) -> int:
    if len(argv) >= 1 and argv[0] == "pins":
        try:
            print("\n".join(floor_pins(argv[1] if len(argv) > 1 else "pyproject.toml")))
        except ValueError as e:
            print(f"floor_smoke: {e}", file=sys.stderr)
            return 1
        return 0
    if len(argv) == 2 and argv[0] == "check":
        problems = check(argv[1].rstrip("/"))
        for p in problems:
            print(f"floor_smoke: {p}", file=sys.stderr)
        return 1 if problems else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
