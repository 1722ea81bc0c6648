"""`webnn-bridge serve --strict-spec` reaches the page: the hello reply says strictSpec (the shim
then follows spec HEAD where shipping Chromium is more lenient; README "Compatibility with
shipping Chromium")."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .wire import Wire


@pytest.mark.parametrize("flag", [True, False])
def test_serve_strict_spec_is_in_the_hello_reply(tmp_path, flag):
    cmd = [sys.executable, "-m", "webnn_bridge.bridge.cli", "serve", "--port", "0", "--no-cache"]
    proc = subprocess.Popen(cmd + (["--strict-spec"] if flag else []), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        url = proc.stdout.readline().split("serving on ")[1].strip()
        with Wire(url) as ws:
            reply = ws.hello
        assert reply["re"] == 1 and reply["ok"]["strictSpec"] is flag
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
