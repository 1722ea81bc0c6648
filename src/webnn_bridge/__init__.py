"""webnn-bridge: the W3C WebNN API in any browser, a JS shim (``js_shim``) talking to a Python host
(``bridge``). The layers, from the top down, are CONTRIBUTING.md's "Where things live"."""
