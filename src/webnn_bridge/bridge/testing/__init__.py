"""What tests and tools drive a host with, above it: nothing else in bridge/ imports this package.

- pytest_plugin.py  the pytest11 plugin (``webnn_app`` and the browser fixtures, the markers)
- browsers.py       Firefox and WebKit behind a synchronous, Playwright-like page API (WebDriver BiDi)
- wire_client.py    the shim's wire messages without a browser (tests, benchmarks, scripts)
"""
