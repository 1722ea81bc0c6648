"""The README is the front door and docs/ holds the rest (issue 37): the README stays short, every link
from the README or a docs page to a docs page (and to a heading there) resolves, and the generated
pages (the command-line reference, the operator table) are current."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from webnn_bridge.devtools import codegen

ROOT = codegen.ROOT
README = ROOT / "README.md"
DOCS = ROOT / "docs"
MAX_README_LINES = 400
# [text](target) outside code; the target up to the closing parenthesis
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _prose(text: str) -> str:
    """``text`` without fenced code blocks (a ``](`` in code is no link)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def _anchor(heading: str) -> str:
    """GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`|\*", "", heading.strip()).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for line in _prose(path.read_text(encoding="utf-8")).splitlines():
        m = re.match(r"#{1,6} (.+)", line)
        if not m:
            continue
        base = _anchor(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def _local_links(path: Path) -> list[tuple[str, Path, str]]:
    """(link as written, file it names, anchor or "") of every relative link in ``path``."""
    out = []
    for target in LINK.findall(_prose(path.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        file, _, anchor = target.partition("#")
        out.append((target, (path.parent / file).resolve() if file else path, anchor))
    return out


def test_readme_is_at_most_400_lines():
    n = len(README.read_text(encoding="utf-8").splitlines())
    assert n <= MAX_README_LINES, f"README.md has {n} lines; move detail into docs/ (at most {MAX_README_LINES})"


def test_readme_links_every_docs_page():
    linked = {f for _, f, _ in _local_links(README)}
    pages = set(DOCS.glob("*.md"))
    assert {"cli.md", "tuning.md", "performance.md", "operators.md", "memory.md", "deployment.md",
            "browsers.md"} <= {p.name for p in pages}
    assert pages <= linked, f"docs pages the README does not link: {sorted(p.name for p in pages - linked)}"


@pytest.mark.parametrize("page", [README, *sorted(DOCS.glob("*.md"))], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_links_resolve(page):
    bad = []
    for target, file, anchor in _local_links(page):
        if not file.exists():
            bad.append(f"{target}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
            bad.append(f"{target}: no heading with that anchor in {file.relative_to(ROOT)}")
    assert not bad, f"{page.relative_to(ROOT)}: " + "; ".join(bad)


def test_anchor_rules():
    assert _anchor("A small model through onnxruntime-web") == "a-small-model-through-onnxruntime-web"
    assert _anchor("`webnn-bridge policy tune`") == "webnn-bridge-policy-tune"
    assert _anchor("What tune decides on since issue 36 (not yet re-measured)") == \
        "what-tune-decides-on-since-issue-36-not-yet-re-measured"


@pytest.mark.parametrize("name", ["CLI reference", "operator table"])
def test_generated_docs_are_current(name):
    gen = next(g for g in codegen.GENERATORS if g.name == name)
    for path, text in gen.render().items():
        assert path.parent == DOCS
        assert path.read_text(encoding="utf-8") == text, f"{path.name} is stale: run `webnn-bridge codegen`"


def test_cli_reference_covers_every_option():
    """Every flag of every parser is in docs/cli.md, e.g. wpt's, which the old hand-written reference left out."""
    from webnn_bridge.devtools.codegen import cli_reference

    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    for flag in ("--global", "--timeout", "--timeout-multiplier", "--devices", "--chromium", "--native-chromium"):
        section = text[text.index("## `webnn-bridge wpt`"):]
        assert f"`{flag}" in section[:section.index("\n## ", 1)], flag
    wpt = cli_reference.devtool_parser("wpt")
    assert "Chromium, Firefox or WebKit" in wpt.description
    from webnn_bridge.backends.cache import default_cache_dir

    assert str(codegen.ROOT) not in text and str(default_cache_dir()) not in text  # no machine-specific paths
