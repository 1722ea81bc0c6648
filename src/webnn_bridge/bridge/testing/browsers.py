"""Firefox and WebKitGTK for the tests and the pytest plugin, without Playwright's own builds.

Chromium stays on Playwright. The two others are driven by what Debian ships, spoken directly:

- **Firefox** (Debian ``firefox-esr``) through **WebDriver BiDi**: JSON over a websocket that Firefox
  itself opens with ``--remote-debugging-port``; no geckodriver, nothing downloaded, and the client is
  the ``websockets`` package the host already depends on. BiDi pushes console messages and page errors
  (``log.entryAdded``) as they happen.
- **WebKitGTK** (Debian ``webkit2gtk-driver``: ``WebKitWebDriver`` and ``MiniBrowser``) through the
  classic **WebDriver HTTP API** (urllib), under an Xvfb display this module starts (one per process).
  WebKitWebDriver speaks no BiDi, so console output is caught by a hook the adapter installs in each
  page after it loads (messages logged while the page loads are not seen).

Both give the subset of Playwright's *sync* API the project's tests and the plugin's users need:
``browser.new_context(ignore_https_errors=...)``, ``browser.new_page()``, ``context.new_page()``,
``page.goto/evaluate/wait_for_function/wait_for_timeout/inner_text/on('console'|'pageerror')/url/
set_default_timeout/close``. ``page.evaluate`` takes an expression or a function source (called with
the one argument), awaits promises, and returns JSON-like values (NaN, infinities, -0, BigInt and
typed arrays included), as Playwright does.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

FIREFOX = "/usr/bin/firefox-esr"
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER_CANDIDATES = [
    "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
    "/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
    "/usr/lib/x86_64-linux-gnu/webkitgtk-6.0/MiniBrowser",
    "/usr/lib/aarch64-linux-gnu/webkitgtk-6.0/MiniBrowser",
]
XVFB = "/usr/bin/Xvfb"
ENGINES = ("chromium", "firefox", "webkit")


class Error(Exception):
    """A page-side exception, a navigation failure or a timeout (Playwright's ``Error``)."""


class TimeoutError(Error):  # noqa: A001 (Playwright's name)
    pass


def minibrowser() -> str | None:
    return next((p for p in MINIBROWSER_CANDIDATES if os.path.exists(p)), None)


def missing(engine: str, chromium: str = "/usr/bin/chromium") -> str | None:
    """Why ``engine`` cannot run on this machine (a sentence naming what to install), or None."""
    if engine == "chromium":
        return None if os.path.exists(chromium) else f"no Chromium at {chromium} (apt-get install chromium)"
    if engine == "firefox":
        return None if os.path.exists(FIREFOX) else f"no Firefox at {FIREFOX} (apt-get install firefox-esr)"
    if engine == "webkit":
        need = [p for p, ok in ((WEBKIT_DRIVER, os.path.exists(WEBKIT_DRIVER)), ("MiniBrowser", minibrowser()))
                if not ok]
        if need:
            return f"no {' / '.join(need)} (apt-get install webkit2gtk-driver)"
        if not os.environ.get("DISPLAY") and not os.path.exists(XVFB):
            return "no X display and no Xvfb (apt-get install xvfb)"
        return None
    return f"unknown browser {engine!r} (one of {', '.join(ENGINES)})"


# ---------------------------------------------------------------------------------------------------
# the page-side half of evaluate(): shared by both drivers; values cross as JSON text

_RUNNER = r"""async function (src, argJson) {
  const tag = (k, v) => ({__wb: k, v});
  const arg = argJson === undefined ? undefined : JSON.parse(argJson, (k, v) => {
    if (v && typeof v === 'object' && '__wb' in v) {
      return {NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0, undefined: undefined}[v.__wb];
    }
    return v;
  });
  let value;
  try {
    value = (0, eval)('(' + src + '\n)');
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    value = (0, eval)(src);
  }
  if (typeof value === 'function') value = value(arg);
  value = await value;
  const enc = (x) => {
    if (x === undefined) return tag('undefined');
    if (typeof x === 'number') {
      if (Number.isNaN(x)) return tag('NaN');
      if (x === Infinity) return tag('Infinity');
      if (x === -Infinity) return tag('-Infinity');
      if (Object.is(x, -0)) return tag('-0');
      return x;
    }
    if (typeof x === 'bigint') return tag('bigint', x.toString());
    if (x === null || typeof x !== 'object') return typeof x === 'function' || typeof x === 'symbol' ? tag('undefined') : x;
    if (ArrayBuffer.isView(x) && !(x instanceof DataView)) return Array.from(x, enc);
    if (Array.isArray(x)) return x.map(enc);
    if (x instanceof Error) return tag('error', x.name + ': ' + x.message);
    if (x instanceof Date) return x.toISOString();
    if (x instanceof Node) return {};
    const out = {};
    for (const k of Object.keys(x)) out[k] = enc(x[k]);
    return out;
  };
  return JSON.stringify(enc(value));
}"""


def _decode(text: str):
    def hook(d: dict):
        if "__wb" in d and len(d) <= 2:
            k = d["__wb"]
            return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf, "-0": -0.0,
                    "undefined": None, "bigint": int(d.get("v") or 0), "error": d.get("v")}.get(k, d)
        return d

    return json.loads(text, object_hook=hook)


def _encode_arg(value) -> str:
    def enc(x):
        if isinstance(x, float) and not math.isfinite(x):
            return {"__wb": "NaN" if math.isnan(x) else ("Infinity" if x > 0 else "-Infinity")}
        if isinstance(x, float) and x == 0 and math.copysign(1, x) < 0:
            return {"__wb": "-0"}
        if isinstance(x, dict):
            return {str(k): enc(v) for k, v in x.items()}
        if isinstance(x, list | tuple):
            return [enc(v) for v in x]
        return x

    return json.dumps(enc(value))


@dataclass
class ConsoleMessage:
    """Playwright's ConsoleMessage, as far as tests read it."""

    type: str
    text: str

    def __str__(self) -> str:
        return self.text


_CONSOLE_TYPES = {"warn": "warning", "log": "log", "info": "info", "error": "error", "debug": "debug",
                  "trace": "trace", "dir": "dir", "table": "table", "assert": "assert"}


_STATUS_AGAIN = "fetch(location.href, {method: 'HEAD', cache: 'no-store'}).then((r) => r.status, () => null)"


class Response:
    def __init__(self, url: str, status: int | None):
        self.url = url
        self.status = status

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


class Page:
    """The Playwright sync Page subset; ``_tab`` is the driver's handle of one tab or window."""

    def __init__(self, context: BrowserContext, tab):
        self.context = context
        self._tab = tab
        self._handlers: dict[str, list] = {"console": [], "pageerror": [], "close": []}
        self._timeout_ms = 30_000
        self._closed = False
        tab.page = self

    # events -----------------------------------------------------------------------------------
    def on(self, event: str, handler) -> None:
        self._handlers.setdefault(event, []).append(handler)

    def remove_listener(self, event: str, handler) -> None:
        if handler in self._handlers.get(event, []):
            self._handlers[event].remove(handler)

    def _emit(self, event: str, arg) -> None:
        for h in list(self._handlers.get(event, [])):
            h(arg)

    def _console(self, level: str, text: str) -> None:
        if level == "pageerror":
            self._emit("pageerror", Error(text))
        else:
            self._emit("console", ConsoleMessage(_CONSOLE_TYPES.get(level, level), text))

    # navigation and scripts -------------------------------------------------------------------
    def set_default_timeout(self, ms: float) -> None:
        self._timeout_ms = ms

    def set_default_navigation_timeout(self, ms: float) -> None:
        self._timeout_ms = ms

    def goto(self, url: str, *, timeout: float | None = None, wait_until: str = "load", **_) -> Response:
        self._tab.drain()
        self._tab.navigate(url, (timeout or self._timeout_ms) / 1000)
        self._tab.after_load()
        status = self._tab.call("performance.getEntriesByType('navigation')[0]?.responseStatus", None)
        if not status and self.url.startswith(("http:", "https:")):
            # WebKitGTK's navigation timing has no responseStatus: ask the final URL again from the page
            status = self._tab.call(_STATUS_AGAIN, None)
        return Response(self.url, status if status else None)

    def evaluate(self, expression: str, arg=None):
        try:
            return self._tab.call(expression, arg)
        finally:
            self._tab.drain()

    @property
    def url(self) -> str:
        return self._tab.call("location.href", None)

    def content(self) -> str:
        return self.evaluate("document.documentElement.outerHTML")

    def title(self) -> str:
        return self.evaluate("document.title")

    def wait_for_timeout(self, ms: float) -> None:
        time.sleep(ms / 1000)
        self._tab.drain()

    def wait_for_function(self, expression: str, *, arg=None, timeout: float | None = None, polling=100):
        deadline = time.monotonic() + (timeout if timeout is not None else self._timeout_ms) / 1000
        interval = polling / 1000 if isinstance(polling, int | float) else 0.1
        while True:
            value = self.evaluate(expression, arg)
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"page.wait_for_function: timeout waiting for {expression!r}")
            time.sleep(interval)

    def wait_for_selector(self, selector: str, *, timeout: float | None = None):
        return self.wait_for_function("(s) => !!document.querySelector(s)", arg=selector, timeout=timeout)

    def inner_text(self, selector: str, *, timeout: float | None = None) -> str:
        self.wait_for_selector(selector, timeout=timeout)
        return self.evaluate("(s) => document.querySelector(s).innerText", selector)

    def text_content(self, selector: str, *, timeout: float | None = None) -> str:
        self.wait_for_selector(selector, timeout=timeout)
        return self.evaluate("(s) => document.querySelector(s).textContent", selector)

    def is_closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._tab.close()
        self._emit("close", self)
        self.context._pages.remove(self)
        if self.context._owned_by_page:
            self.context.close()


class BrowserContext:
    """Firefox: a BiDi user context (isolated cookies and storage, as a Playwright context). WebKit:
    windows of the WebDriver session for its ``ignore_https_errors`` value, which WebKit contexts
    share (WebKitWebDriver runs one session per process: no isolation between them)."""

    def __init__(self, browser, handle, ignore_https_errors: bool, owned_by_page: bool = False):
        self.browser = browser
        self._handle = handle
        self.ignore_https_errors = ignore_https_errors
        self._pages: list[Page] = []
        self._owned_by_page = owned_by_page
        self._closed = False

    @property
    def pages(self) -> list[Page]:
        return list(self._pages)

    def new_page(self) -> Page:
        page = Page(self, self.browser._new_tab(self._handle))
        self._pages.append(page)
        return page

    def new_cdp_session(self, page):
        raise Error(f"{self.browser.name} has no Chrome DevTools Protocol (CDP): a Chromium-only API")

    def add_init_script(self, script: str) -> None:
        """Runs ``script`` in every page of this context that loads from now on, before the page's
        own scripts (Playwright's method). The script runs as a function body: its top-level
        declarations stay its own, as the shim's do (wrap it in an IIFE for Playwright's global
        scope). Firefox: a BiDi preload script of this user context; WebKit cannot (Error)."""
        self.browser._add_init_script(self._handle, script)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for p in list(self._pages):
            p._closed = True
            p._tab.close()
        self._pages.clear()
        self.browser._contexts.remove(self)
        self.browser._close_context(self._handle)


class _Browser:
    name = ""

    def __init__(self):
        self._contexts: list[BrowserContext] = []

    @property
    def contexts(self) -> list[BrowserContext]:
        return list(self._contexts)

    def new_context(self, *, ignore_https_errors: bool = False, **_) -> BrowserContext:
        ctx = BrowserContext(self, self._new_context(ignore_https_errors), ignore_https_errors)
        self._contexts.append(ctx)
        return ctx

    def new_page(self, **kw) -> Page:
        ctx = self.new_context(**kw)
        ctx._owned_by_page = True
        return ctx.new_page()

    def is_connected(self) -> bool:
        return self._proc.poll() is None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _reap_at_exit(proc: subprocess.Popen) -> None:
    """A browser the caller forgot to close (or a test process interrupted) does not outlive it."""
    import atexit

    atexit.register(_stop, proc)


def _stop(proc: subprocess.Popen | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


# ---------------------------------------------------------------------------------------------------
# Firefox: WebDriver BiDi over Firefox's own websocket

_FIREFOX_PREFS = {
    # what the remote agent's recommended prefs leave out: no first-run pages, updates, telemetry or
    # background network traffic in a test profile, and no slow-script dialog on long evaluations
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.page": 0,
    "browser.startup.homepage_override.mstone": "ignore",
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.disabledForTesting": True,
    "app.update.auto": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "browser.safebrowsing.blockedURIs.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "extensions.update.enabled": False,
    "dom.max_script_run_time": 0,
    "dom.max_chrome_script_run_time": 0,
    "remote.active-protocols": 1,
    # every tab of a test runs as the foreground one does (Playwright launches Chromium without
    # background throttling too): no 1 s minimum for the timers of a tab that is not selected
    "dom.min_background_timeout_value": 4,
    "dom.min_background_timeout_value_without_budget_throttling": 4,
    "dom.timeout.enable_budget_timer_throttling": False,
}


class _BidiTab:
    def __init__(self, browser: FirefoxBrowser, context_id: str):
        self.browser = browser
        self.id = context_id
        self.page: Page | None = None

    def navigate(self, url: str, timeout_s: float) -> None:
        try:
            self.browser._send("browsingContext.navigate", {"context": self.id, "url": url, "wait": "complete"},
                               timeout_s)
        except TimeoutError:
            raise TimeoutError(f"page.goto: timeout {timeout_s * 1000:.0f}ms exceeded navigating to {url}") from None
        except Error as e:
            raise Error(f"page.goto: {e} ({url})") from None

    def after_load(self) -> None:
        pass

    def drain(self) -> None:
        pass  # BiDi pushes console messages as events

    def call(self, src: str, arg):
        args = [{"type": "string", "value": src}]
        if arg is not None:
            args.append({"type": "string", "value": _encode_arg(arg)})
        r = self.browser._send("script.callFunction", {
            "functionDeclaration": _RUNNER, "arguments": args, "target": {"context": self.id},
            "awaitPromise": True, "resultOwnership": "none"}, None)
        if r.get("type") == "exception":
            d = r.get("exceptionDetails", {})
            raise Error(d.get("text") or json.dumps(d)[:500])
        return _decode(r["result"]["value"])

    def close(self) -> None:
        self.browser._tabs.pop(self.id, None)
        try:
            self.browser._send("browsingContext.close", {"context": self.id}, 30)
        except Error:
            pass


class FirefoxBrowser(_Browser):
    """Firefox (Debian firefox-esr), headless, driven over WebDriver BiDi."""

    name = "firefox"

    def __init__(self, executable: str = FIREFOX, *, headless: bool = True, launch_timeout: float = 60.0):
        super().__init__()
        from websockets.sync.client import connect

        self._profile = tempfile.mkdtemp(prefix="webnn-firefox-")
        Path(self._profile, "user.js").write_text(
            "".join(f'user_pref("{k}", {json.dumps(v)});\n' for k, v in _FIREFOX_PREFS.items()))
        args = [executable, "--no-remote", "--profile", self._profile, "--remote-debugging-port=0"]
        if headless:
            args.insert(1, "--headless")
        env = dict(os.environ, MOZ_CRASHREPORTER_DISABLE="1")
        self._proc = subprocess.Popen(args + ["about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                      env=env, text=True)
        _reap_at_exit(self._proc)
        self._stderr: list[str] = []
        ws_url = self._await_listening(launch_timeout)
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self._ws = contextlib.ExitStack().enter_context(
            connect(f"{ws_url}/session", max_size=None, open_timeout=launch_timeout, ping_interval=None))
        self._next = 0
        self._lock = threading.Lock()
        self._pending: dict[int, list] = {}
        self._tabs: dict[str, _BidiTab] = {}
        self._reader = threading.Thread(target=self._read, daemon=True, name="firefox-bidi")
        self._reader.start()
        caps = self._send("session.new", {"capabilities": {"alwaysMatch": {
            "acceptInsecureCerts": False, "unhandledPromptBehavior": {"default": "dismiss"}}}}, launch_timeout)
        self.version = caps.get("capabilities", {}).get("browserVersion", "")
        self._send("session.subscribe", {"events": ["log.entryAdded"]}, 30)
        self._default_contexts = [c["context"] for c in self._send("browsingContext.getTree", {}, 30)["contexts"]]

    def _await_listening(self, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        found: list[str] = []

        def scan():
            for line in self._proc.stderr:
                self._stderr.append(line)
                m = re.search(r"WebDriver BiDi listening on (ws://\S+)", line)
                if m:
                    found.append(m.group(1))
                    return

        t = threading.Thread(target=scan, daemon=True)
        t.start()
        t.join(max(0.0, deadline - time.monotonic()))
        if not found:
            _stop(self._proc)
            raise Error(f"Firefox did not open its WebDriver BiDi port in {timeout:.0f} s: "
                        + "".join(self._stderr[-20:]))
        return found[0]

    def _drain_stderr(self):
        for line in self._proc.stderr:
            self._stderr = (self._stderr + [line])[-200:]

    def _read(self):
        from websockets.exceptions import ConnectionClosed

        try:
            while True:
                msg = json.loads(self._ws.recv())
                if "id" in msg and msg.get("type") in ("success", "error") and msg["id"] in self._pending:
                    slot = self._pending.pop(msg["id"])
                    slot.append(msg)
                    slot[0].set()
                elif msg.get("type") == "event":
                    self._event(msg["method"], msg.get("params", {}))
        except (ConnectionClosed, OSError):
            pass
        finally:
            for slot in list(self._pending.values()):
                slot.append({"type": "error", "error": "disconnected", "message": "Firefox went away"})
                slot[0].set()

    def _event(self, method: str, p: dict) -> None:
        if method != "log.entryAdded":
            return
        tab = self._tabs.get((p.get("source") or {}).get("context", ""))
        if tab is None or tab.page is None:
            return
        if p.get("type") == "javascript":
            tab.page._console("pageerror", p.get("text", ""))
        else:
            tab.page._console(p.get("method") or p.get("level") or "log", p.get("text", ""))

    def _send(self, method: str, params: dict, timeout: float | None):
        with self._lock:
            self._next += 1
            cid = self._next
            slot: list = [threading.Event()]
            self._pending[cid] = slot
        self._ws.send(json.dumps({"id": cid, "method": method, "params": params}))
        if not slot[0].wait(timeout):
            self._pending.pop(cid, None)
            raise TimeoutError(f"{method}: no answer from Firefox in {timeout} s")
        msg = slot[1]
        if msg["type"] == "error":
            raise Error(f"{msg.get('error')}: {msg.get('message')}")
        return msg.get("result", {})

    def _new_context(self, ignore_https_errors: bool):
        # a user context per browser context; certificate errors are ignored per user context
        # (BiDi's browser.createUserContext acceptInsecureCerts; older Firefox refuses the parameter)
        params = {"acceptInsecureCerts": True} if ignore_https_errors else {}
        try:
            return self._send("browser.createUserContext", params, 30)["userContext"]
        except Error as e:
            if params:
                raise Error(f"this Firefox cannot ignore certificate errors per context: {e}") from None
            raise

    def _new_tab(self, user_context: str) -> _BidiTab:
        cid = self._send("browsingContext.create", {"type": "tab", "userContext": user_context}, 30)["context"]
        tab = _BidiTab(self, cid)
        self._tabs[cid] = tab
        return tab

    def _close_context(self, user_context: str) -> None:
        try:
            self._send("browser.removeUserContext", {"userContext": user_context}, 30)
        except Error:
            pass

    def _add_init_script(self, user_context: str, script: str) -> None:
        self._send("script.addPreloadScript",
                   {"functionDeclaration": "() => {\n" + script + "\n}", "userContexts": [user_context]}, 30)

    def close(self) -> None:
        for ctx in list(self._contexts):
            ctx.close()
        try:
            self._send("browser.close", {}, 10)
        except Error:
            pass
        try:
            self._ws.close()
        except Exception:  # noqa: BLE001 (already gone)
            pass
        _stop(self._proc)
        shutil.rmtree(self._profile, ignore_errors=True)


# ---------------------------------------------------------------------------------------------------
# WebKitGTK: WebKitWebDriver's classic WebDriver HTTP API, MiniBrowser under Xvfb

_XVFB: dict = {}
_XVFB_LOCK = threading.Lock()


def x_display() -> str:
    """$DISPLAY when there is one, else one Xvfb for this process (stopped at exit)."""
    if os.environ.get("DISPLAY"):
        return os.environ["DISPLAY"]
    with _XVFB_LOCK:
        if "display" not in _XVFB:
            r, w = os.pipe()
            proc = subprocess.Popen([XVFB, "-displayfd", str(w), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                                    pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            os.close(w)
            with os.fdopen(r) as f:
                num = f.readline().strip()
            if not num:
                _stop(proc)
                raise Error("Xvfb did not start")
            _XVFB.update(display=f":{num}", proc=proc)
            _reap_at_exit(proc)
        return _XVFB["display"]


_HOOK = r"""(() => {
  if (window.__wbLog) return true;
  const log = window.__wbLog = [];
  const str = (a) => { try { return typeof a === 'string' ? a : (a instanceof Error ? a.stack || String(a) : (typeof a === 'object' && a !== null ? JSON.stringify(a) : String(a))); } catch (e) { return String(a); } };
  for (const m of ['log', 'info', 'warn', 'error', 'debug', 'trace']) {
    const orig = console[m];
    console[m] = function (...a) { log.push([m, a.map(str).join(' ')]); return orig.apply(this, a); };
  }
  addEventListener('error', (e) => log.push(['pageerror', e.error ? (e.error.name + ': ' + e.error.message) : String(e.message)]));
  addEventListener('unhandledrejection', (e) => log.push(['pageerror', e.reason && e.reason.message ? (e.reason.name + ': ' + e.reason.message) : String(e.reason)]));
  return true;
})()"""

_DRAIN = "(() => { const l = window.__wbLog; return l ? l.splice(0, l.length) : []; })()"


class _WebDriverTab:
    def __init__(self, session: _WebDriverSession, handle: str):
        self.session = session
        self.handle = handle
        self.page: Page | None = None

    def _focus(self):
        if self.session.current != self.handle:
            self.session.cmd("POST", "/window", {"handle": self.handle})
            self.session.current = self.handle

    def navigate(self, url: str, timeout_s: float) -> None:
        self._focus()
        self.session.cmd("POST", "/timeouts", {"pageLoad": int(timeout_s * 1000)})
        try:
            self.session.cmd("POST", "/url", {"url": url}, timeout=timeout_s + 30)
        except Error as e:
            raise (TimeoutError if "timeout" in str(e) else Error)(f"page.goto: {e} ({url})") from None

    def after_load(self) -> None:
        self._focus()
        self.session.cmd("POST", "/execute/sync", {"script": f"return {_HOOK};", "args": []})

    def drain(self) -> None:
        if self.page is None or self.page._closed:
            return
        self._focus()
        try:
            entries = self.session.cmd("POST", "/execute/sync", {"script": f"return {_DRAIN};", "args": []})
        except Error:
            return
        for level, text in entries or []:
            self.page._console(level, text)

    def call(self, src: str, arg):
        self._focus()
        args = [src] if arg is None else [src, _encode_arg(arg)]
        script = ("const done = arguments[arguments.length - 1];"
                  f"({_RUNNER}).apply(null, Array.prototype.slice.call(arguments, 0, arguments.length - 1))"
                  ".then((v) => done({ok: v}), (e) => done({err: e instanceof Error ? e.name + ': ' + e.message"
                  " : String(e)}));")
        r = self.session.cmd("POST", "/execute/async", {"script": script, "args": args}, timeout=None)
        if "err" in r:
            raise Error(r["err"])
        return _decode(r["ok"])

    def close(self) -> None:
        self.session.tabs.pop(self.handle, None)
        try:
            self._focus()
            self.session.cmd("DELETE", "/window")
        except Error:
            pass
        self.session.current = None
        self.session.focus_home()


class _WebDriverSession:
    """One WebKitWebDriver process and its one session (the driver serves a single session)."""

    def __init__(self, driver: str, caps: dict, launch_timeout: float):
        port = _free_port()
        env = dict(os.environ, DISPLAY=x_display())
        self.proc = subprocess.Popen([driver, f"--port={port}"], env=env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        _reap_at_exit(self.proc)
        self.driver_url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + launch_timeout
        while True:
            try:
                _http("GET", f"{self.driver_url}/status", None, 5)
                break
            except Error:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    _stop(self.proc)
                    raise Error("WebKitWebDriver did not start") from None
                time.sleep(0.1)
        try:
            r = _http("POST", f"{self.driver_url}/session", {"capabilities": {"alwaysMatch": caps}}, launch_timeout)
        except Error:
            _stop(self.proc)
            raise
        self.id = r["sessionId"]
        self.caps = r.get("capabilities", {})
        self.current: str | None = self.cmd("GET", "/window")
        self.home = self.current  # the window the session opened with: stays open, new tabs open from it
        self.tabs: dict[str, _WebDriverTab] = {}
        self.cmd("POST", "/timeouts", {"script": None})

    def cmd(self, method: str, path: str, body: dict | None = None, timeout: float | None = 120):
        return _http(method, f"{self.driver_url}/session/{self.id}{path}", body, timeout)

    def focus_home(self) -> None:
        if self.current != self.home:
            self.cmd("POST", "/window", {"handle": self.home})
            self.current = self.home

    def close(self) -> None:
        try:
            _http("DELETE", f"{self.driver_url}/session/{self.id}", None, 30)
        except Error:
            pass
        _stop(self.proc)


def _http(method: str, url: str, body: dict | None, timeout: float | None):
    data = None if body is None and method != "POST" else json.dumps(body or {}).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return json.loads(r.read() or b"{}").get("value")
    except urllib.error.HTTPError as e:
        try:
            v = json.loads(e.read()).get("value", {})
        except ValueError:
            v = {}
        raise Error(f"{v.get('error', e.code)}: {v.get('message', '')}".strip()) from None
    except (urllib.error.URLError, OSError) as e:
        if isinstance(getattr(e, "reason", e), socket.timeout | TimeoutError):
            raise TimeoutError(f"WebKitWebDriver: no answer in {timeout} s ({method} {url})") from None
        raise Error(f"WebKitWebDriver: {e}") from None


class WebKitBrowser(_Browser):
    """WebKitGTK's MiniBrowser driven by WebKitWebDriver (classic WebDriver), under Xvfb.

    A WebDriver session accepts or refuses invalid certificates for all its windows, and
    WebKitWebDriver serves one session, so the adapter keeps one driver and session per
    ``ignore_https_errors`` value, started when first asked for; a context's pages are windows of it."""

    name = "webkit"

    def __init__(self, driver: str = WEBKIT_DRIVER, binary: str | None = None, *, launch_timeout: float = 60.0):
        super().__init__()
        self._driver = driver
        self._binary = binary or minibrowser()
        self._launch_timeout = launch_timeout
        if not self._binary:
            raise Error("no MiniBrowser (apt-get install webkit2gtk-driver)")
        self._sessions: dict[bool, _WebDriverSession] = {}
        self.version = self._session(False).caps.get("browserVersion", "")

    def _session(self, insecure: bool) -> _WebDriverSession:
        if insecure not in self._sessions:
            caps = {"browserName": "MiniBrowser", "acceptInsecureCerts": insecure,
                    "webkitgtk:browserOptions": {"binary": self._binary, "args": ["--automation"]}}
            self._sessions[insecure] = _WebDriverSession(self._driver, caps, self._launch_timeout)
        return self._sessions[insecure]

    def is_connected(self) -> bool:
        return self._sessions.get(False) is not None and self._sessions[False].proc.poll() is None

    def _new_context(self, ignore_https_errors: bool):
        return self._session(bool(ignore_https_errors))

    def _new_tab(self, session: _WebDriverSession) -> _WebDriverTab:
        if session.current is None:
            session.focus_home()
        handle = session.cmd("POST", "/window/new", {"type": "tab"})["handle"]
        tab = _WebDriverTab(session, handle)
        session.tabs[handle] = tab
        return tab

    def _close_context(self, session) -> None:
        pass  # its windows are closed; the session stays for the next context

    def _add_init_script(self, session, script: str) -> None:
        raise Error("WebKitWebDriver cannot run a script before a page's own (classic WebDriver has no "
                    "preload scripts): serve the page through the host (its --app) to test it in WebKit")

    def close(self) -> None:
        for ctx in list(self._contexts):
            ctx.close()
        for s in self._sessions.values():
            s.close()
        self._sessions.clear()


def launch(engine: str, *, chromium: str = "/usr/bin/chromium"):
    """A browser of ``engine`` (firefox or webkit) with the Playwright-like API above.
    Chromium is launched through Playwright by the caller."""
    if engine == "firefox":
        return FirefoxBrowser()
    if engine == "webkit":
        return WebKitBrowser()
    raise ValueError(f"launch(): {engine!r} is launched through Playwright, or unknown")
