"""Developer tools, outside the runtime: the WPT runner (``webnn-bridge wpt``, wpt.py), the
differential oracle against native Chromium WebNN (``webnn-bridge oracle``, oracle.py + oracle.js),
the differential graph fuzzer across backends (``webnn-bridge fuzz``, fuzz.py), the code
generators (``webnn-bridge codegen``, codegen/: every generated file of the repository, the op rules'
translator codegen/jsgen.py among them) and the capability sweep's cases (sweep_cases.py; the contexts
and case lists in sweep_run.py), which tests/test_capability_sweep.py and codegen's backend tables share.

They drive a browser against an in-process host, so they import the runtime (bridge, ops); the
runtime packages never import them (tests/test_packaging.py checks). bridge/cli.py reaches them
only through ``webnn_bridge.devtools.<tool>.main``, loaded when the subcommand runs, and says so in
one line if this package is not installed.
"""

from __future__ import annotations

import importlib.util


def playwright_missing(tool: str) -> str | None:
    """The one-line reason ``webnn-bridge <tool>`` cannot drive Chromium (Playwright, the ``devtools``
    extra, is not installed), or None."""
    if importlib.util.find_spec("playwright") is not None:
        return None
    return f"webnn-bridge {tool}: Chromium runs through Playwright, which is not installed " \
           "(pip install 'webnn-bridge[devtools]')"
