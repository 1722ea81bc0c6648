"""`webnn-bridge serve --restart-on-crash` (src/webnn_bridge/bridge/cli.py `_supervise`): the supervisor and the host
it runs, with real processes and real signals.

- a stop (SIGTERM, SIGINT) in the pause after a crash is final: no new host;
- SIGHUP (reload the rules) never ends the host or the supervisor, in any phase;
- the host ends with its supervisor, even when the supervisor is killed (SIGKILL);
- a crash that several graphs share (their operators, or one page's origin) restarts the host a
  bounded number of times, not once per graph (src/webnn_bridge/backends/crash_journal.py).

Runtime crashes are planted (tests/crash_plant.py) in every process of the host through a
sitecustomize module. The /proc checks are Linux's."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
import websockets

from webnn_bridge.bridge.cli import SUPERVISOR_ENV

from .crash_plant import PLANT

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)")

# ONNX Runtime's session creation aborts the process for any graph with a matmul whose width is
# a multiple of 11 (one runtime bug that many different graphs hit)
PLANT_ELEVENS = """
import os
from webnn_bridge.backends import onnxruntime as ortb
real_init = ortb.OrtCompiled.__init__
def init(self, graph, *a, **k):
    if any(n.op == "matmul" and graph.operands[n.outputs[0]].shape[-1] % 11 == 0 for n in graph.nodes):
        os.abort()
    real_init(self, graph, *a, **k)
ortb.OrtCompiled.__init__ = init
"""

# the supervisor with another pause after a crash (RESTART_PAUSE_S, argv[1]), so that a test can
# signal it in that pause for sure
_SUPERVISOR = """
import sys
from webnn_bridge.bridge import cli
cli.RESTART_PAUSE_S = float(sys.argv[1])
sys.exit(cli.main(["serve", *sys.argv[2:]]))
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env(tmp_path: Path, plant: str | None = PLANT) -> dict:
    env = {**os.environ, "WEBNN_BRIDGE_TORCH": "0", "PYTHONUNBUFFERED": "1"}
    env.pop(SUPERVISOR_ENV, None)
    if plant is not None:
        folder = tmp_path / "plant"
        folder.mkdir(exist_ok=True)
        (folder / "sitecustomize.py").write_text(plant)
        env["PYTHONPATH"] = os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")])
    return env


def _poll(predicate, timeout: float, step: float = 0.02) -> bool:
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(step)


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a process, None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    state, ppid = text[text.rindex(")") + 2:].split()[:2]
    return state, int(ppid)


def _alive(pid: int) -> bool:
    s = _stat(pid)
    return s is not None and s[0] not in "ZX"  # a zombie has ended


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (s := _stat(int(entry.name))) is not None and s[1] == pid and s[0] not in "ZX":
            out.append(int(entry.name))
    return out


def _catches(pid: int, signum: int) -> bool:
    """Whether the process has a handler for the signal (it has taken it over)."""
    try:
        line = next(x for x in Path(f"/proc/{pid}/status").read_text().splitlines() if x.startswith("SigCgt:"))
    except (OSError, StopIteration):
        return False
    return bool(int(line.split()[1], 16) >> (signum - 1) & 1)


def _accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class Served:
    """`webnn-bridge serve ARGS` (supervised with a pause of ``pause`` s), its output read as it comes."""

    def __init__(self, args: list[str], env: dict, pause: float | None = None):
        cmd = ([sys.executable, "-c", _SUPERVISOR, str(pause), *args] if pause is not None
               else [sys.executable, "-m", "webnn_bridge.bridge.cli", "serve", *args])
        self.p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.lines: dict[str, list[str]] = {"out": [], "err": []}
        self.changed = threading.Condition()
        self.readers = [threading.Thread(target=self._read, args=(name, stream), daemon=True)
                        for name, stream in (("out", self.p.stdout), ("err", self.p.stderr))]
        for t in self.readers:
            t.start()

    def _read(self, name: str, stream) -> None:
        for line in stream:
            with self.changed:
                self.lines[name].append(line)
                self.changed.notify_all()

    def count(self, name: str, text: str) -> int:
        with self.changed:
            return sum(text in line for line in self.lines[name])

    def wait_for(self, name: str, text: str, count: int = 1, timeout: float = 20) -> str:
        """The ``count``-th line of stdout/stderr holding ``text``, once it comes."""
        with self.changed:
            ok = self.changed.wait_for(lambda: self.count(name, text) >= count or self.p.poll() is not None, timeout)
            found = [line for line in self.lines[name] if text in line]
        assert len(found) >= count, (f"no {text!r} ({count}) in {name}, {'timed out' if not ok else 'exited'}; "
                                     f"stderr: {''.join(self.lines['err'])[-3000:]}")
        return found[count - 1]

    def url(self, start: int = 1) -> str:
        """The host's URL, once it serves for the ``start``-th time."""
        return re.search(r"serving on (http://\S+)", self.wait_for("out", "serving on", start)).group(1)

    def done(self, timeout: float = 10) -> None:
        """Both pipes closed: no process (a host left behind included) still holds them."""
        for t in self.readers:
            t.join(timeout)
            assert not t.is_alive(), "a process still holds the supervisor's output"

    def stop(self) -> None:
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            try:
                self.p.wait(20)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait(20)


@pytest.fixture
def served():
    hosts: list[Served] = []

    def start(*args, **kwargs) -> Served:
        hosts.append(Served(*args, **kwargs))
        return hosts[-1]

    yield start
    for h in hosts:
        h.stop()
        for pid in _children(h.p.pid):  # never leave a host behind
            os.kill(pid, signal.SIGKILL)


async def _graph(url: str, n: int, unary: str = "relu", origin: str | None = None) -> np.ndarray:
    """A page (of ``origin``) builds y = unary(x @ W), x [2, n] = 0, 1, 2 ..., W [n, n] all 1/n, and
    runs it once."""
    from webnn_bridge.bridge.testing.wire_client import WireClient

    c = await WireClient.open(url, origin=origin)
    try:
        await c.context()
        f32 = lambda shape: {"dataType": "float32", "shape": shape}  # noqa: E731
        await c.request({
            "t": "build", "ctx": 1, "graph": 1,
            "inputs": [{"operand": 1, "name": "x", "desc": f32([2, n])}],
            "constants": [{"operand": 2, "desc": f32([n, n]), "part": 0}],
            "nodes": [{"op": "matmul", "args": [{"$operand": 1}, {"$operand": 2}], "outputs": [3]},
                      {"op": unary, "args": [{"$operand": 3}], "outputs": [4]}],
            "outputs": {"y": 4},
        }, [np.full((n, n), 1 / n, np.float32).tobytes()])
        for tid, usage in ((11, "writable"), (12, "readable")):
            await c.request({"t": "createTensor", "ctx": 1, "tensor": tid, "desc": {**f32([2, n]), usage: True}})
        return await c.round_trip(1, np.arange(2 * n, dtype=np.float32).reshape(2, n))
    finally:
        await c.close()


_NUMPY = {"relu": lambda v: np.maximum(v, 0), "sigmoid": lambda v: 1 / (1 + np.exp(-v)), "tanh": np.tanh,
          "abs": np.abs, "neg": np.negative, "exp": np.exp}


def _expected(n: int, unary: str = "relu") -> np.ndarray:
    x = np.arange(2 * n, dtype=np.float64).reshape(2, n)
    return _NUMPY[unary](x @ np.full((n, n), 1 / n)).ravel()


def _crashes_it(url: str, n: int, unary: str = "relu", origin: str | None = None) -> None:
    with pytest.raises(websockets.exceptions.ConnectionClosed):  # the link dies with the host
        asyncio.run(_graph(url, n, unary, origin))


# --------------------------------------------------------------------------- a stop in the pause


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGINT"])
def test_a_stop_during_the_pause_after_a_crash_starts_no_new_host(tmp_path, served, signame):
    port = _free_port()
    h = served(["--port", str(port), "--cache-dir", str(tmp_path / "cache"), "--restart-on-crash"],
               _env(tmp_path), pause=10)
    _crashes_it(h.url(), 77)
    h.wait_for("err", "starting it again")  # now in its pause (10 s here)
    asked = time.monotonic()
    h.p.send_signal(getattr(signal, signame))
    assert h.p.wait(5) == 0
    assert time.monotonic() - asked < 3  # at once, not at the pause's end
    h.done()  # and nothing it started holds its output: no new host
    assert h.count("out", "serving on") == 1
    assert "stopped before the host was started again" in "".join(h.lines["err"])
    assert not _accepts(port)


# --------------------------------------------------------------------------- SIGHUP


def test_sighup_while_the_host_starts_reloads_the_rules_once_it_is_ready(tmp_path, served):
    """Before, a SIGHUP while the host started (probing runtimes, warming up) ended it (129). Now
    from serve's first step on it is held and the rules are reloaded once the host is ready."""
    rules = tmp_path / "rules.toml"
    rules.write_text("")
    h = served(["--port", "0", "--no-cache", "--rules", str(rules)], _env(tmp_path, None))
    assert _poll(lambda: _catches(h.p.pid, signal.SIGHUP) or h.p.poll() is not None, 20)
    rules.write_text('[backends]\ncpu = ["openvino"]\n')  # the file changed: what a reload is for
    sent = 0
    while h.count("out", "serving on") == 0 and h.p.poll() is None:  # all through the start
        h.p.send_signal(signal.SIGHUP)
        sent += 1
        time.sleep(0.02)
    assert h.p.poll() is None, "".join(h.lines["err"])[-2000:]
    assert sent >= 3
    assert str(rules) in h.wait_for("err", "SIGHUP: reloaded the rules")
    rules.write_text("[build]\npartial_min_fraction = 7\n")
    h.p.send_signal(signal.SIGHUP)  # and as before once it serves
    assert "partial_min_fraction" in h.wait_for("err", "SIGHUP: kept the old rules")
    np.testing.assert_allclose(asyncio.run(_graph(h.url(), 8)), _expected(8), rtol=1e-5)
    assert h.p.poll() is None


def test_sighup_while_the_host_stops_does_not_end_it_by_the_signal(tmp_path, served):
    """SIGHUPs all through a stop (a drain, the disk caches written, the interpreter's exit): the
    host still ends with its own status, 0, not by SIGHUP."""
    h = served(["--port", "0", "--cache-dir", str(tmp_path / "cache"), "--drain-timeout", "1"], _env(tmp_path, None))
    np.testing.assert_allclose(asyncio.run(_graph(h.url(), 8)), _expected(8), rtol=1e-5)
    h.p.send_signal(signal.SIGTERM)
    while h.p.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            h.p.send_signal(signal.SIGHUP)
        time.sleep(0.002)
    assert h.p.returncode == 0, "".join(h.lines["err"])[-2000:]


def test_sighup_never_ends_a_supervised_host(tmp_path, served):
    """SIGHUPs to the supervisor all the time: while it starts the host, while the host starts and
    serves, in the pause after a crash and through the restart. Nothing ends; the host reloads."""
    h = served(["--port", "0", "--cache-dir", str(tmp_path / "cache"), "--restart-on-crash"], _env(tmp_path),
               pause=1.5)
    assert _poll(lambda: _catches(h.p.pid, signal.SIGHUP) or h.p.poll() is not None, 20)
    stop = threading.Event()
    sent = []

    def hangups():
        while not stop.wait(0.03) and h.p.poll() is None:
            h.p.send_signal(signal.SIGHUP)
            sent.append(time.monotonic())

    spammer = threading.Thread(target=hangups, daemon=True)
    spammer.start()
    try:
        url = h.url()
        np.testing.assert_allclose(asyncio.run(_graph(url, 8)), _expected(8), rtol=1e-5)
        _crashes_it(url, 77)
        h.wait_for("err", "starting it again")
        paused = time.monotonic()
        assert h.url(2) == url
        assert sum(paused < t for t in sent) >= 10  # in the pause and through the start
        np.testing.assert_allclose(asyncio.run(_graph(url, 77)), _expected(77), rtol=1e-5)
    finally:
        stop.set()
        spammer.join(5)
    assert h.p.poll() is None
    h.p.send_signal(signal.SIGTERM)
    assert h.p.wait(20) == 0
    h.done()
    err = "".join(h.lines["err"])
    assert h.count("err", "starting it again") == 1 and "SIGHUP: reloaded the rules" in err


# --------------------------------------------------------------------------- the supervisor's death


def test_a_supervised_host_ends_with_its_killed_supervisor(tmp_path, served):
    port = _free_port()
    h = served(["--port", str(port), "--no-cache", "--restart-on-crash"], _env(tmp_path, None))
    h.url()
    (host,) = _children(h.p.pid)
    assert _accepts(port)
    h.p.kill()  # SIGKILL: nothing of the supervisor runs
    h.p.wait(10)
    assert _poll(lambda: not _accepts(port) and not _alive(host), 5)
    h.done()


def test_a_host_whose_supervisor_was_killed_while_it_started_ends(tmp_path, served):
    h = served(["--port", "0", "--no-cache", "--restart-on-crash"], _env(tmp_path, None))
    assert _poll(lambda: _children(h.p.pid) or h.p.poll() is not None, 20)
    (host,) = _children(h.p.pid)
    h.p.kill()  # the host is still starting: before or after it set up its end with the supervisor
    h.p.wait(10)
    assert _poll(lambda: not _alive(host), 15)
    h.done()


# without the kernel's parent-death signal (not Linux): the host follows the supervisor's pipe
_FOLLOWER = """
import time
from webnn_bridge.bridge import cli
cli._die_with_parent = lambda signum: False
cli._follow_supervisor()
print("following", flush=True)
time.sleep(60)
"""


def test_without_a_parent_death_signal_the_host_ends_with_the_supervisors_pipe(tmp_path):
    watch, keep = os.pipe()
    p = subprocess.Popen([sys.executable, "-c", _FOLLOWER], pass_fds=(watch,), stdout=subprocess.PIPE, text=True,
                         env={**_env(tmp_path, None), SUPERVISOR_ENV: f"{os.getpid()}:{watch}"})
    try:
        os.close(watch)
        assert p.stdout.readline() == "following\n"
        time.sleep(0.2)
        assert p.poll() is None
        os.close(keep)  # what the supervisor's end does, however the supervisor ends
        assert p.wait(5) == -signal.SIGTERM
    finally:
        p.kill()
        p.wait(10)


def test_a_host_whose_supervisor_is_already_gone_ends_at_once(tmp_path):
    watch, keep = os.pipe()
    try:  # its parent is this test, not the supervisor it is told of (one that died and was replaced)
        p = subprocess.run([sys.executable, "-c", _FOLLOWER.replace("cli._die_with_parent = lambda signum: False", "")],
                           pass_fds=(watch,), capture_output=True, text=True, timeout=30,
                           env={**_env(tmp_path, None), SUPERVISOR_ENV: f"{os.getppid()}:{watch}"})
    finally:
        os.close(watch)
        os.close(keep)
    assert p.returncode == -signal.SIGTERM and p.stdout == ""


# --------------------------------------------------------------------------- crash loops


def _page_with_retry(h: Served, url: str, n: int, unary: str, origin: str, crashes: list) -> np.ndarray:
    """A page that builds its graph again once the host that its graph crashed is back."""
    try:
        return asyncio.run(_graph(url, n, unary, origin))
    except websockets.exceptions.ConnectionClosed:
        crashes.append((n, unary, origin))
        assert h.url(len(crashes) + 1) == url
        return asyncio.run(_graph(url, n, unary, origin))


def test_six_graphs_that_hit_one_runtime_crash_restart_the_host_once(tmp_path, served):
    """Six pages (six origins) build six different graphs (widths 11 to 66) that the same runtime
    bug crashes: the first crash quarantines their operator signature on that runtime, so the host
    restarts once, serves all six from another device, and a seventh graph works too."""
    origins = [f"http://page{i}.test" for i in range(7)]
    h = served(["--port", "0", "--cache-dir", str(tmp_path / "cache"), "--restart-on-crash",
                *[a for o in origins for a in ("--allow-origin", o)]], _env(tmp_path, PLANT_ELEVENS))
    url = h.url()
    crashes: list = []
    for i, n in enumerate(range(11, 67, 11)):
        np.testing.assert_allclose(_page_with_retry(h, url, n, "relu", origins[i], crashes), _expected(n), rtol=1e-5)
    assert len(crashes) == 1
    np.testing.assert_allclose(asyncio.run(_graph(url, 12, "sigmoid", origins[6])), _expected(12, "sigmoid"), rtol=1e-5)
    assert h.p.poll() is None and h.count("err", "starting it again") == 1
    assert h.count("err", "will not get graphs of these operators again") == 1


def test_one_origin_cannot_restart_the_host_more_than_twice(tmp_path, served):
    """One page's six graphs of different operators, each crashing the runtime: after two crashes
    its origin's graphs go to the reference device, so the host restarts twice, not six times
    (the supervisor would give up after five), and other origins keep the fast device."""
    bad, good = "http://bad.test", "http://good.test"
    h = served(["--port", "0", "--cache-dir", str(tmp_path / "cache"), "--restart-on-crash",
                "--allow-origin", bad, "--allow-origin", good], _env(tmp_path, PLANT_ELEVENS))
    url = h.url()
    crashes: list = []
    for unary in ("relu", "sigmoid", "tanh", "abs", "neg", "exp"):
        np.testing.assert_allclose(_page_with_retry(h, url, 11, unary, bad, crashes), _expected(11, unary), rtol=1e-4)
    assert [c[1] for c in crashes] == ["relu", "sigmoid"]
    np.testing.assert_allclose(asyncio.run(_graph(url, 8, "tanh", good)), _expected(8, "tanh"), rtol=1e-5)
    assert h.p.poll() is None and h.count("err", "starting it again") == 2
    # the four graphs after the cap were kept off the runtimes for their origin; the other origin's was not
    assert h.count("err", "this page's origin crashed the host's runtimes 2 times") == 4
