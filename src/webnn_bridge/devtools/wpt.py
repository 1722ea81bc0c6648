"""Run the web-platform-tests WebNN suites through the shim, in headless Chromium, Firefox or WebKit.

Given a local wpt checkout (only its ``resources/`` and ``webnn/`` folders are read), this module
does the part of wptserve that `.any.js` tests need: it turns each ``X.any.js`` into the window
page (``X.any.html``) or dedicated-worker page (``X.any.worker.html``) that wptserve would
generate from the file's ``// META:`` lines, with the shim loaded first. A webnn-bridge host runs
in-process; the pages come from a second loopback origin that the host allows with
``--allow-origin`` semantics. Results come back through a ``testharnessreport.js`` of our own.

The WPT files are never part of this repository: see docs/conformance.md ("Running the WPT WebNN suites").
"""

from __future__ import annotations

import argparse
import asyncio
import fnmatch
import functools
import html
import http.server
import json
import posixpath
import re
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from . import playwright_missing

SUBTEST_STATUS = {0: "PASS", 1: "FAIL", 2: "TIMEOUT", 3: "NOTRUN", 4: "PRECONDITION_FAILED"}
HARNESS_STATUS = {0: "OK", 1: "ERROR", 2: "TIMEOUT", 3: "PRECONDITION_FAILED"}
DEFAULT_SUITES = ("webnn/conformance_tests", "webnn/validation_tests")
# wptserve's aliases that WebNN tests use (idlharness also reads /interfaces/*.idl)
ALIASES = {"/resources/WebIDLParser.js": "/resources/webidl2/lib/webidl2.js"}

# Replaces wpt's resources/testharnessreport.js: keeps the results where the runner can read them.
REPORT_JS = """\
(function () {
  var props = %(props)s;
  if (typeof setup === "function") setup(props);
  add_completion_callback(function (tests, status) {
    var out = {
      status: status.status, message: status.message || null,
      tests: tests.map(function (t) {
        return {name: t.name, status: t.status, message: t.message || null};
      })
    };
    self.__wptResult = out;
  });
})();
"""


@dataclass(frozen=True)
class Meta:
    """What a `.any.js` file's `// META:` lines say."""

    title: str | None = None
    globals: tuple[str, ...] = ("window", "dedicatedworker")
    variants: tuple[str, ...] = ("",)
    scripts: tuple[str, ...] = ()
    timeout: str = "normal"


def parse_meta(source: str) -> Meta:
    title, globs, variants, scripts, timeout = None, None, [], [], "normal"
    for line in source.splitlines():
        m = re.match(r"\s*//\s*META:\s*(\w+)=(.*)$", line)
        if not m:
            if line.strip() and not line.lstrip().startswith("//"):
                break
            continue
        key, value = m.group(1), m.group(2).strip()
        if key == "title":
            title = value
        elif key == "global":
            globs = [g.strip() for g in value.split(",") if g.strip()]
        elif key == "variant":
            variants.append(value)
        elif key == "script":
            scripts.append(value)
        elif key == "timeout":
            timeout = value
    expanded: list[str] = []
    for g in globs or ["window", "dedicatedworker"]:
        # wpt: "worker" means dedicated (and shared/service, which the shim does not cover)
        for name in {"worker": ["dedicatedworker"], "default": ["window", "dedicatedworker"]}.get(g, [g]):
            if name not in expanded:
                expanded.append(name)
    return Meta(title, tuple(expanded), tuple(variants) or ("",), tuple(scripts), timeout)


@dataclass
class TestFile:
    path: str  # URL path from the wpt root, e.g. /webnn/conformance_tests/abs.https.any.js
    meta: Meta

    def pages(self, variant_filter: Iterable[str] | None, globals_: Iterable[str]) -> list[str]:
        """Page URLs (path + query) for the wanted variants and globals."""
        base = self.path[: -len(".js")]
        out = []
        for g in self.meta.globals:
            if g not in globals_:
                continue
            suffix = {"window": ".html", "dedicatedworker": ".worker.html"}.get(g)
            if suffix is None:
                continue
            for v in self.meta.variants:
                if variant_filter is not None and not _variant_matches(v, variant_filter):
                    continue
                out.append(base + suffix + v)
        return out


def _variant_matches(variant: str, wanted: Iterable[str]) -> bool:
    q = urllib.parse.parse_qs(variant.lstrip("?"), keep_blank_values=True)
    names = set(q) | {v for vals in q.values() for v in vals}
    return any(w in names for w in wanted)


def discover(root: Path, suites: Iterable[str], pattern: str | None = None) -> list[TestFile]:
    files = []
    for suite in suites:
        d = root / suite
        if not d.is_dir():
            raise FileNotFoundError(f"{d} is not a directory: is {root} a wpt checkout?")
        for f in sorted(d.rglob("*.any.js")):
            rel = "/" + f.relative_to(root).as_posix()
            if pattern and not fnmatch.fnmatch(rel, pattern) and pattern not in rel:
                continue
            files.append(TestFile(rel, parse_meta(f.read_text(encoding="utf-8"))))
    return files


def _resolve_script(test_path: str, src: str) -> str:
    if src.startswith("/"):
        return src
    return posixpath.normpath(posixpath.join(posixpath.dirname(test_path), src))


def _global_js(kind: str) -> str:
    is_window = "true" if kind == "window" else "false"
    is_worker = "false" if kind == "window" else "true"
    return (
        "self.GLOBAL = {isWindow: function() { return %s; }, isWorker: function() { return %s; },"
        " isShadowRealm: function() { return false; }};" % (is_window, is_worker)
    )


def window_page(test: TestFile, shim_url: str) -> str:
    m = test.meta
    scripts = "".join(f'<script src="{html.escape(_resolve_script(test.path, s))}"></script>\n' for s in m.scripts)
    timeout = '<meta name="timeout" content="long">\n' if m.timeout == "long" else ""
    return (
        "<!doctype html>\n<meta charset=utf-8>\n"
        f"{timeout}<title>{html.escape(m.title or test.path)}</title>\n"
        + (f'<script src="{html.escape(shim_url)}"></script>\n' if shim_url else "")
        +         f"<script>{_global_js('window')}</script>\n"
        '<script src="/resources/testharness.js"></script>\n'
        '<script src="/resources/testharnessreport.js"></script>\n'
        f"{scripts}<div id=log></div>\n"
        f'<script src="{html.escape(test.path)}"></script>\n'
    )


def worker_page(test: TestFile, query: str) -> str:
    worker = test.path[: -len(".js")] + ".worker.js" + query
    timeout = '<meta name="timeout" content="long">\n' if test.meta.timeout == "long" else ""
    return (
        "<!doctype html>\n<meta charset=utf-8>\n"
        f"{timeout}<title>{html.escape(test.meta.title or test.path)}</title>\n"
        '<script src="/resources/testharness.js"></script>\n'
        '<script src="/resources/testharnessreport.js"></script>\n'
        "<div id=log></div>\n"
        f"<script>fetch_tests_from_worker(new Worker({json.dumps(worker)}));</script>\n"
    )


def worker_script(test: TestFile, shim_url: str) -> str:
    lines = [_global_js("dedicatedworker")] + ([f"importScripts({json.dumps(shim_url)});"] if shim_url else [])
    lines += ['importScripts("/resources/testharness.js");']
    lines += [f"importScripts({json.dumps(_resolve_script(test.path, s))});" for s in test.meta.scripts]
    lines += [f"importScripts({json.dumps(test.path)});", "done();"]
    return "\n".join(lines) + "\n"


class WptServer:
    """Serves the wpt checkout read-only, plus the generated .any pages, on a loopback port."""

    def __init__(self, root: Path, shim_url: str, harness_props: dict):
        self.root = root.resolve()
        self.shim_url = shim_url
        self.report_js = REPORT_JS % {"props": json.dumps(harness_props)}
        handler = functools.partial(_Handler, self)
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def headers_for(self, path: str) -> dict[str, str]:
        """wptserve's FILE.headers convention (e.g. COOP/COEP for SharedArrayBuffer tests); a
        generated .any page takes the headers of its .any.js."""
        for suffix in (".any.worker.html", ".any.worker.js", ".any.html"):
            if path.endswith(suffix):
                path = path[: -len(suffix)] + ".any.js"
                break
        f = self.root / (path.lstrip("/") + ".headers")
        out: dict[str, str] = {}
        if f.is_file():
            for line in f.read_text(encoding="utf-8").splitlines():
                name, sep, value = line.partition(":")
                if sep and name.strip():
                    out[name.strip()] = value.strip()
        return out

    @staticmethod
    def clean_path(url_path: str) -> str:
        """The URL path, decoded and normalized lexically: no '..' escapes the root."""
        return "/" + posixpath.normpath("/" + urllib.parse.unquote(url_path)).lstrip("/")

    def respond(self, url_path: str, query: str) -> tuple[int, str, bytes]:
        path = self.clean_path(url_path)
        if path == "/resources/testharnessreport.js":
            return 200, "text/javascript", self.report_js.encode()
        path = ALIASES.get(path, path)
        q = f"?{query}" if query else ""
        for suffix, make in ((".any.worker.html", "worker_page"), (".any.worker.js", "worker_script"),
                             (".any.html", "window_page")):
            if path.endswith(suffix):
                src = path[: -len(suffix)] + ".any.js"
                f = self.root / src.lstrip("/")
                if not f.is_file():
                    break
                test = TestFile(src, parse_meta(f.read_text(encoding="utf-8")))
                if make == "window_page":
                    return 200, "text/html", window_page(test, self.shim_url).encode()
                if make == "worker_page":
                    return 200, "text/html", worker_page(test, q).encode()
                return 200, "text/javascript", worker_script(test, self.shim_url).encode()
        f = self.root / path.lstrip("/")
        if not f.is_file():
            return 404, "text/plain", b"not found\n"
        ctype = {".js": "text/javascript", ".json": "application/json", ".html": "text/html"}.get(
            f.suffix, "application/octet-stream")
        return 200, ctype, f.read_bytes()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class _Handler(http.server.BaseHTTPRequestHandler):
    def __init__(self, server: WptServer, *args, **kw):
        self.wpt = server
        super().__init__(*args, **kw)

    def do_GET(self):  # noqa: N802 (http.server's naming)
        url = urllib.parse.urlsplit(self.path)
        status, ctype, body = self.wpt.respond(url.path, url.query)
        self.send_response(status)
        if status == 200:
            for name, value in self.wpt.headers_for(self.wpt.clean_path(url.path)).items():
                self.send_header(name, value)
        self.send_header("Content-Type", f"{ctype}; charset=utf-8" if ctype.startswith("text/") else ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@dataclass
class PageResult:
    url: str
    harness: str
    message: str | None = None
    subtests: list[dict] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def passed(self) -> int:
        return sum(1 for t in self.subtests if t["status"] == "PASS")

    @property
    def total(self) -> int:
        return len(self.subtests)


async def _run_page(browser, origin: str, url: str, deadline_s: float) -> PageResult:
    ctx = await browser.new_context()
    page = await ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    t0 = time.monotonic()
    try:
        await page.goto(origin + url, wait_until="load", timeout=deadline_s * 1000)
        await page.wait_for_function("() => self.__wptResult !== undefined", timeout=deadline_s * 1000,
                                     polling=200)
        raw = await page.evaluate("() => self.__wptResult")
        subtests = [{"name": t["name"], "status": SUBTEST_STATUS.get(t["status"], str(t["status"])),
                     "message": t["message"]} for t in raw["tests"]]
        return PageResult(url, HARNESS_STATUS.get(raw["status"], str(raw["status"])), raw["message"], subtests,
                          time.monotonic() - t0)
    except Exception as e:  # a page that never completes counts as a harness timeout, with what we know
        msg = f"{type(e).__name__}: {str(e).splitlines()[0]}"
        if errors:
            msg += f" (page errors: {errors[:3]})"
        return PageResult(url, "TIMEOUT", msg, [], time.monotonic() - t0)
    finally:
        await ctx.close()


async def run_pages(urls: list[str], origin: str, *, jobs: int, deadline_s: float, chromium: str,
                    on_result=None, native: bool = False) -> list[PageResult]:
    """``native``: ``chromium`` has its own WebNN (pages carry no shim), launched as the oracle
    launches it."""
    from playwright.async_api import async_playwright

    from webnn_bridge.bridge.embed import CHROMIUM_ARGS

    results: dict[str, PageResult] = {}
    queue: asyncio.Queue[str] = asyncio.Queue()
    for u in urls:
        queue.put_nowait(u)
    async with async_playwright() as p:
        if native:
            from .oracle import native_launch

            launch_args, env = native_launch(chromium)
        else:
            launch_args, env = CHROMIUM_ARGS, None
        browser = await p.chromium.launch(executable_path=chromium, args=launch_args, env=env, headless=True)

        async def worker():
            while not queue.empty():
                url = queue.get_nowait()
                r = await _run_page(browser, origin, url, deadline_s)
                results[url] = r
                if on_result:
                    on_result(r)

        await asyncio.gather(*(worker() for _ in range(max(1, jobs))))
        await browser.close()
    return [results[u] for u in urls]


def _run_page_driven(browser, origin: str, url: str, deadline_s: float) -> PageResult:
    """_run_page for Firefox and WebKit (bridge/browsers.py's synchronous, Playwright-like API)."""
    ctx = browser.new_context()
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(deadline_s * 1000)
    t0 = time.monotonic()
    try:
        page.goto(origin + url)
        page.wait_for_function("() => self.__wptResult !== undefined", polling=200)
        raw = page.evaluate("() => self.__wptResult")
        subtests = [{"name": t["name"], "status": SUBTEST_STATUS.get(t["status"], str(t["status"])),
                     "message": t["message"]} for t in raw["tests"]]
        return PageResult(url, HARNESS_STATUS.get(raw["status"], str(raw["status"])), raw["message"], subtests,
                          time.monotonic() - t0)
    except Exception as e:  # as _run_page: a page that never completes counts as a harness timeout
        msg = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        if errors:
            msg += f" (page errors: {errors[:3]})"
        return PageResult(url, "TIMEOUT", msg, [], time.monotonic() - t0)
    finally:
        ctx.close()


def run_pages_driven(engine: str, urls: list[str], origin: str, *, deadline_s: float,
                     on_result=None) -> list[PageResult]:
    """The pages one after another in Firefox or WebKit (one page at a time: -j applies to Chromium)."""
    from webnn_bridge.bridge.testing.browsers import launch

    results = []
    with launch(engine) as browser:
        for u in urls:
            r = _run_page_driven(browser, origin, u, deadline_s)
            results.append(r)
            if on_result:
                on_result(r)
    return results


def _run_in_thread(coro):
    """asyncio.run() on a thread of its own: callers may already be inside an event loop (e.g.
    a test process that also drives Playwright's sync API)."""
    out: dict = {}

    def target():
        try:
            out["value"] = asyncio.run(coro)
        except BaseException as e:  # re-raised in the caller
            out["error"] = e

    t = threading.Thread(target=target, name="wpt-runner")
    t.start()
    t.join()
    if "error" in out:
        raise out["error"]
    return out["value"]


def summarize(results: list[PageResult]) -> tuple[str, int, int]:
    lines = []
    passed = total = 0
    width = max((len(r.url) for r in results), default=10)
    for r in results:
        passed += r.passed
        total += r.total
        flag = "" if r.harness == "OK" else f"  harness {r.harness}: {r.message}"
        lines.append(f"{r.url:<{width}}  {r.passed:5d}/{r.total:<5d}{flag}")
    pct = 100.0 * passed / total if total else 0.0
    lines.append(f"{'TOTAL':<{width}}  {passed:5d}/{total:<5d}  ({pct:.2f}% of subtests pass)")
    return "\n".join(lines), passed, total


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="webnn-bridge wpt", description=__doc__.split("\n\n")[0])
    p.add_argument("wpt_root", type=Path, help="path of a web-platform-tests checkout")
    p.add_argument("--suite", action="append", help=f"folder under the root (repeatable; default {DEFAULT_SUITES})")
    p.add_argument("--filter", help="only test files whose path matches this glob or substring")
    p.add_argument("--variant", action="append", default=None,
                   help="only variants naming this (e.g. cpu; repeatable; default cpu; 'all' for every variant)")
    p.add_argument("--global", dest="globals_", action="append", default=None,
                   help="window and/or dedicatedworker (default both, as the files declare)")
    p.add_argument("-j", "--jobs", type=int, default=2, help="pages run at once (default 2)")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds per page before giving up (default 600)")
    p.add_argument("--timeout-multiplier", type=float, default=1.0,
                   help="testharness timeout_multiplier (default 1: 10 s a file, 60 s for timeout=long)")
    p.add_argument("--json", type=Path, help="write every subtest result to this file")
    p.add_argument("--failures", action="store_true", help="print each failing subtest and its message")
    p.add_argument("--devices", metavar="PROFILE.json", help="run the host on a simulated inventory")
    p.add_argument("--strict-spec", action="store_true",
                   help="the host's --strict-spec: spec HEAD's buffer rules where shipping Chromium is more lenient")
    p.add_argument("--browser", choices=["chromium", "firefox", "webkit"], default="chromium",
                   help="chromium (Playwright, -j pages at once), firefox (firefox-esr over WebDriver BiDi) or "
                        "webkit (WebKitGTK's WebKitWebDriver under Xvfb), one page at a time (default chromium)")
    p.add_argument("--chromium", metavar="PATH", default="/usr/bin/chromium",
                   help="the Chromium that runs the shim with --browser chromium (default %(default)s)")
    p.add_argument("--native-chromium", metavar="PATH",
                   help="run the pages without the shim in this Chromium with native WebNN (to compare)")
    args = p.parse_args(argv)

    root = args.wpt_root
    if args.browser != "chromium":
        from webnn_bridge.bridge.testing.browsers import missing

        if args.native_chromium:
            print("webnn-bridge wpt: --native-chromium runs Chromium; leave out --browser", file=sys.stderr)
            return 2
        why = missing(args.browser)
        if why:
            print(f"webnn-bridge wpt: {why}", file=sys.stderr)
            return 2
    elif why := playwright_missing("wpt"):
        print(why, file=sys.stderr)
        return 2
    if not (root / "resources" / "testharness.js").is_file():
        print(f"webnn-bridge wpt: {root}/resources/testharness.js is missing: not a wpt checkout", file=sys.stderr)
        return 2
    try:
        files = discover(root, args.suite or DEFAULT_SUITES, args.filter)
    except FileNotFoundError as e:
        print(f"webnn-bridge wpt: {e}", file=sys.stderr)
        return 2
    variants = None if args.variant == ["all"] else (args.variant or ["cpu"])
    globals_ = args.globals_ or ["window", "dedicatedworker"]
    urls = [u for f in files for u in f.pages(variants, globals_)]
    if not urls:
        print("webnn-bridge wpt: no test pages matched", file=sys.stderr)
        return 2

    from webnn_bridge.bridge.embed import RunningHost
    from webnn_bridge.bridge.server import HostConfig

    config = HostConfig(port=0, strict_spec=args.strict_spec)
    if args.devices:
        from webnn_bridge.bridge.host_ml import ml_factory

        config.ml_factory = ml_factory(args.devices, None)
    # the pages' origin is only known once the wpt server listens; the host allows it explicitly
    wpt = WptServer(root, "", {"timeout_multiplier": args.timeout_multiplier})
    config.allow_origins = [wpt.origin]
    host = None if args.native_chromium else RunningHost(config)
    wpt.shim_url = f"{host.url}/webnn-shim.js" if host else ""
    where = f"native WebNN in {args.native_chromium}" if host is None else f"host {host.url}"
    print(f"wpt root {root.resolve()}, {len(urls)} pages in {args.browser}, {where}, pages from {wpt.origin}",
          flush=True)

    def progress(r: PageResult):
        print(f"  {r.passed:5d}/{r.total:<5d} {r.harness:8} {r.seconds:6.1f}s  {r.url}", flush=True)

    t0 = time.monotonic()
    try:
        if args.browser != "chromium":
            results = run_pages_driven(args.browser, urls, wpt.origin, deadline_s=args.timeout, on_result=progress)
        else:
            results = _run_in_thread(run_pages(urls, wpt.origin, jobs=args.jobs, deadline_s=args.timeout,
                                               chromium=args.native_chromium or args.chromium, on_result=progress,
                                               native=bool(args.native_chromium)))
    finally:
        if host is not None:
            host.stop()
        wpt.stop()
    table, passed, total = summarize(results)
    print()
    print(table)
    print(f"wall time {time.monotonic() - t0:.0f} s")
    if args.failures:
        for r in results:
            for t in r.subtests:
                if t["status"] != "PASS":
                    print(f"{t['status']:8} {r.url} :: {t['name']}\n         {t['message']}")
    if args.json:
        args.json.write_text(json.dumps([r.__dict__ for r in results], indent=1))
    return 0 if total and all(r.harness == "OK" for r in results) and passed == total else 1


if __name__ == "__main__":
    sys.exit(main())
