"""The host's landing page at ``/`` (when no app, or an app without index.html, is served): what
is running, the shim tag, the allowed origins, and a live self-test that runs a tiny graph through
the shim. It names no device, runtime or path."""

from __future__ import annotations

import html
from importlib import metadata

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>webnn-bridge</title><link rel="icon" href="data:,">
<script src="{shim_path}"></script>
<style>body{{font:15px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}}
code,pre{{background:#f3f3f3;padding:.1rem .3rem}} .ok{{color:#070}} .fail{{color:#a00}}</style>
</head><body>
<h1>webnn-bridge</h1>
<p>The host is running (version {version}). Pages reach the W3C WebNN API through the shim.</p>
<ul><li>open sessions: {sessions}</li><li>app: {app}</li></ul>
<h2>Use it from a page</h2>
<pre>{shim_tag}</pre>
<h2>Allowed origins</h2>
<ul>{origins}</ul>
<p>Other origins are refused; start the host with <code>--allow-origin ORIGIN</code> to add one.</p>
<h2>Self-test</h2>
<p id="selftest">running a tiny graph (relu(x) + 1) through the shim&hellip;</p>
<h2>Documentation</h2>
<ul><li><a href="https://www.w3.org/TR/webnn/">The WebNN specification</a></li>
<li>The project's README: the two commands, the CLI, context options, extensions, known limits.</li>
<li><code>webnn-bridge --help</code> lists the commands.</li></ul>
<script>
(async () => {{
  const out = document.getElementById('selftest');
  try {{
    const ctx = await navigator.ml.createContext();
    const b = new MLGraphBuilder(ctx);
    const x = b.input('x', {{dataType: 'float32', shape: [4]}});
    const g = await b.build({{y: b.add(b.relu(x), b.constant('float32', 1))}});
    const tx = await ctx.createTensor({{dataType: 'float32', shape: [4], writable: true}});
    const ty = await ctx.createTensor({{dataType: 'float32', shape: [4], readable: true}});
    ctx.writeTensor(tx, new Float32Array([-2, -1, 0, 3]));
    ctx.dispatch(g, {{x: tx}}, {{y: ty}});
    const y = Array.from(new Float32Array(await ctx.readTensor(ty)));
    const ok = JSON.stringify(y) === JSON.stringify([1, 1, 1, 4]);
    out.className = ok ? 'ok' : 'fail';
    out.textContent = (ok ? 'passed: ' : 'FAILED: ') + 'relu([-2, -1, 0, 3]) + 1 = [' + y.join(', ') + ']';
  }} catch (e) {{
    out.className = 'fail';
    out.textContent = 'FAILED: ' + e.name + ': ' + e.message;
  }}
}})();
</script>
</body></html>
"""


def version() -> str:
    try:
        return metadata.version("webnn-bridge")
    except metadata.PackageNotFoundError:
        return "source checkout"


def page(host_url: str, shim_path: str, origins: list[str], *, sessions: int, app: bool) -> bytes:
    tag = f'<script src="{host_url}{shim_path}"></script>'
    items = "".join(f"<li><code>{html.escape(o)}</code></li>" for o in sorted(origins))
    served = ("served from this origin, with the shim injected into its pages (no index.html at /)" if app
              else "none (start the host with --app DIR to serve one)")
    return _PAGE.format(shim_path=html.escape(shim_path), version=html.escape(version()), sessions=sessions,
                        app=served, shim_tag=html.escape(tag), origins=items).encode()
