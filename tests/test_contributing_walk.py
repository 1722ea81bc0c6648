"""CONTRIBUTING.md's "Adding an operator", walked: on a copy of the repository, its worked example (a
unary operator, `square`) is applied exactly as written (each ```` ```lang walk=ID file=PATH after=LINE ````
block inserts its lines after that line of that file; each ```` ```sh walk=ID ```` block's lines are
run), and the documented commands must pass there. Then each step is left out in turn, the others
applied, and the check that catches it must fail with a message naming the step: so the document is
the whole truth (an undocumented step fails the walk) and every step it names is needed.

The copy runs this interpreter with the copy's own code: `PYTHONPATH` holds the copy's `src/` (where the
`webnn_bridge` package lives), ahead of the editable install, which points at this checkout's `src/`
(``test_the_copy_runs_its_own_code``). The measured OpenVINO
table is skipped there (``WEBNN_BRIDGE_CODEGEN_SKIP_MEASURED=1``): measuring it takes longer than the
whole walk, and tests/test_backend_openvino.py covers it. Bounded: about a minute and a half.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "CONTRIBUTING.md"
PKG = "src/webnn_bridge"  # the package's folders, relative to the repository
BLOCK = re.compile(r"^```(\w+) walk=(\S+)([^\n]*)\n(.*?)^```$", re.M | re.S)
CLI = "import sys; from webnn_bridge.bridge.cli import main; sys.exit(main(sys.argv[1:]))"
# what leaving out each step makes fail, and the words its message must hold
OMISSIONS = {
    "1-method": ("codegen", ["step 1 (CONTRIBUTING.md", "no MLGraphBuilder method", "'square'"]),
    "1-limits": ("codegen", ["step 1 (CONTRIBUTING.md", "no MLOpSupportLimits member", "'square'"]),
    "2": ("codegen", ["step 2 (CONTRIBUTING.md", "no OpDef", "'square'"]),
    "4": ("check", ["stale", "run `webnn-bridge codegen`"]),
    "5": ("test data", ["step 5 (CONTRIBUTING.md", "no test data for ['square']"]),
}


@dataclass(frozen=True)
class Step:
    id: str
    lang: str
    body: str
    file: str | None = None
    after: str | None = None


def steps() -> list[Step]:
    out = []
    for m in BLOCK.finditer(GUIDE.read_text(encoding="utf-8")):
        attrs = dict(kv.split("=", 1) for kv in shlex.split(m.group(3)))
        out.append(Step(m.group(2), m.group(1), m.group(4), attrs.get("file"), attrs.get("after")))
    return out


def _copy(tmp: Path) -> Path:
    """The repository's files (tracked and untracked, not ignored: no .venv) in tmp/repo, with the shared
    data beside it as it is beside this checkout."""
    repo = tmp / "repo"
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split("\0")
    for f in files:
        src = ROOT / f
        if f and src.is_file() and not src.is_symlink() and not f.startswith(".venv/"):
            (repo / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, repo / f)
    if (ROOT.parent / "shared").is_dir():
        (tmp / "shared").symlink_to(ROOT.parent / "shared")
    return repo


def _env(repo: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "WEBNN_BRIDGE_"))}
    env.update(PYTHONPATH=f"{repo / 'src'}{os.pathsep}{repo}", PYTHONDONTWRITEBYTECODE="1",
               WEBNN_BRIDGE_CODEGEN_SKIP_MEASURED="1")
    return env


def _argv(line: str) -> list[str]:
    """A documented command, run with this interpreter (the copy has no .venv of its own)."""
    argv = shlex.split(line)
    if argv[0] == "webnn-bridge":
        return [sys.executable, "-c", CLI, *argv[1:]]
    if argv[0] in (".venv/bin/python", "python"):
        argv = [sys.executable, *argv[1:]]
        if argv[1:3] == ["-m", "pytest"]:  # the installed plugin's entry point belongs to this checkout
            argv[3:3] = ["-p", "no:webnn_bridge", "-p", "no:cacheprovider"]
        return argv
    raise AssertionError(f"CONTRIBUTING.md: a walk command this test cannot run: {line!r}")


def _run(repo: Path, line: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(_argv(line), cwd=repo, env=_env(repo), capture_output=True, text=True, timeout=timeout)


def _apply(repo: Path, step: Step) -> None:
    path = repo / step.file
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = [i for i, ln in enumerate(lines) if ln.rstrip("\n") == step.after]
    assert len(at) == 1, (f"CONTRIBUTING.md, walk step {step.id}: {step.file} has {len(at)} lines {step.after!r} "
                          "(the worked example no longer matches the code: update one or the other)")
    lines[at[0] + 1:at[0] + 1] = [step.body]
    path.write_text("".join(lines), encoding="utf-8")


def _walk(repo: Path, leave_out: str | None = None, run_commands: bool = True) -> None:
    for step in steps():
        if step.id == leave_out or step.id == "6":
            continue
        if step.file:
            _apply(repo, step)
        elif run_commands:
            for line in step.body.splitlines():
                r = _run(repo, line)
                assert r.returncode == 0, f"walk step {step.id}: `{line}` failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"


def test_the_guide_holds_the_worked_example():
    ids = [s.id for s in steps()]
    assert ids == ["1-method", "1-limits", "2", "4", "5", "6"], ids
    assert set(OMISSIONS) == {s.id for s in steps()} - {"6"}


def test_the_copy_runs_its_own_code(tmp_path):
    repo = _copy(tmp_path)
    r = subprocess.run([sys.executable, "-c", "import webnn_bridge.ops.registry as r, webnn_bridge.devtools.codegen as c; "
                        "from pathlib import Path; print(Path(r.__file__).resolve()); print(c.ROOT)"],
                       cwd=repo, env=_env(repo), capture_output=True, text=True, timeout=60, check=True)
    registry, root = r.stdout.split()
    assert Path(registry).is_relative_to(repo / PKG) and Path(root) == repo, r.stdout


def test_following_the_guide_adds_an_operator(tmp_path):
    repo = _copy(tmp_path)
    ops_js = (repo / PKG / "js_shim/generated/webnn_ops.js").read_text().splitlines()
    _walk(repo)
    for line in next(s for s in steps() if s.id == "6").body.splitlines():
        r = _run(repo, line, timeout=180)
        out = r.stdout + r.stderr
        assert r.returncode == 0, f"walk step 6: `{line}` failed:\n{out[-4000:]}"
        assert "pytest" not in line or re.search(r"\b[1-9]\d* passed", out), f"`{line}` ran no test:\n{out[-2000:]}"
    assert "square" in (repo / PKG / "idl/model.json").read_text()
    assert '"square"' in (repo / PKG / "backends/onnx_op_types.json").read_text()
    # one operator adds its own lines to the op rules and renumbers none of the others
    after = (repo / PKG / "js_shim/generated/webnn_ops.js").read_text().splitlines()
    assert set(ops_js) <= set(after) and len(after) - len(ops_js) <= 4, [ln for ln in after if ln not in set(ops_js)]


@pytest.mark.parametrize("left_out", sorted(OMISSIONS))
def test_leaving_out_a_step_is_named(tmp_path, left_out):
    """The other steps applied; then the check that catches the omission (codegen checks steps 1 to 3
    before writing; `codegen --check` finds the files it did not write; step 5's test finds no test data)."""
    repo = _copy(tmp_path)
    how, words = OMISSIONS[left_out]
    generated = {p: (repo / PKG / p).read_text() for p in ("idl/model.json", "js_shim/generated/webnn_ops.js")}
    # the edits only: the check below is the command that catches the omission (the test-data check
    # reads no generated file, so step 5's case runs no codegen, to keep the walk affordable)
    _walk(repo, leave_out=left_out, run_commands=False)
    if how == "codegen":
        r = _run(repo, "webnn-bridge codegen")
        assert r.returncode != 0
        assert all((repo / PKG / p).read_text() == text for p, text in generated.items()), "codegen wrote files"
    elif how == "check":
        r = _run(repo, "webnn-bridge codegen --check")
        assert r.returncode == 1
    else:
        r = _run(repo, ".venv/bin/python -m pytest -q tests/test_contributing.py -k test_every_operator_has_test_data")
        assert r.returncode == 1
    out = r.stdout + r.stderr
    missing = [w for w in words if w not in out]
    assert not missing, f"leaving out step {left_out}: the failure does not say {missing}:\n{out[-3000:]}"
