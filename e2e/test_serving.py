"""Serving apps through the host, in every browser: standards mode kept, directory redirects, and the
landing page's self-test."""

from __future__ import annotations

import pytest

from .conftest import start_host

NO_HEAD_PAGE = """<!doctype html><meta charset="utf-8"><title>no head</title>
<script>window.report = {mode: document.compatMode, ml: typeof navigator.ml,
  firstScript: document.scripts[0].getAttribute('src')};</script><img src="pic.svg">"""
SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'


@pytest.fixture
def app(tmp_path):
    (tmp_path / "notepad").mkdir()
    (tmp_path / "notepad" / "index.html").write_text(NO_HEAD_PAGE)
    (tmp_path / "notepad" / "pic.svg").write_text(SVG)
    h = start_host(app_dir=tmp_path)
    yield h
    h.stop()


def test_page_without_head_stays_in_standards_mode(app, page):
    page.goto(f"{app.url}/notepad/")
    r = page.evaluate("window.report")
    assert r == {"mode": "CSS1Compat", "ml": "object", "firstScript": "/webnn-shim.js"}


def test_directory_without_slash_redirects_so_relative_urls_resolve(app, page):
    resp = page.goto(f"{app.url}/notepad")
    assert page.url == f"{app.url}/notepad/" and resp.status == 200
    assert page.evaluate("document.images[0].complete && document.images[0].naturalWidth") == 1


def test_landing_page_self_test_passes(app, page):
    page.goto(f"{app.url}/")
    page.wait_for_function("document.getElementById('selftest').className !== ''", timeout=30000)
    text = page.inner_text("#selftest")
    assert text.startswith("passed: ") and "[1, 1, 1, 4]" in text, text
    assert app.url in page.inner_text("pre")
    # a clean console for a first visit (no request of the page fails: not even a favicon's)
    assert not [m for m in page.console_messages if m.startswith(("error", "pageerror"))], page.console_messages
