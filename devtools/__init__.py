"""Developer tools, outside the runtime: the WPT runner (``webnn-bridge wpt``, wpt.py) and the
differential oracle against native Chromium WebNN (``webnn-bridge oracle``, oracle.py + oracle.js).

They drive a browser against an in-process host, so they import the runtime (bridge, ops); the
runtime packages never import them (tests/test_packaging.py checks). bridge/cli.py reaches them
only through ``webnn_bridge.devtools.<tool>.main``, loaded when the subcommand runs, and says so in
one line if this package is not installed.
"""
