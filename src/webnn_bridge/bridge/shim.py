"""Assembling the served shim script and injecting its tag into app pages."""

from __future__ import annotations

import functools
import hashlib
import json
import re

from webnn_bridge.idl import idl_model
from webnn_bridge.js_shim import GENERATED, PRELUDE, RULES, RUNTIME


@functools.lru_cache(maxsize=1)
def _parts() -> tuple[str, ...]:
    # the IDL model (idl/model.json, the one copy the host also loads), then the JS parts
    idl = "const IDL = " + json.dumps(idl_model(), separators=(",", ":")) + ";"
    return (idl, *(p.read_text() for p in (GENERATED, PRELUDE, RULES, RUNTIME)))


def shim_source(host_origin: str) -> str:
    """One classic script (works with <script src> and importScripts) bound to this host."""
    return (
        "// webnn-bridge shim: installs navigator.ml and the WebNN interfaces.\n"
        "(function () {\n'use strict';\n"
        f"const HOST_ORIGIN = {json.dumps(host_origin)};\n"
        + "\n".join(_parts())
        + "\n"
        "})();\n"
    )


@functools.lru_cache(maxsize=8)
def shim_body(host_origin: str) -> tuple[bytes, str]:
    """The served script's bytes and their ETag (a digest of them)."""
    body = shim_source(host_origin).encode()
    return body, '"' + hashlib.blake2b(body, digest_size=16).hexdigest() + '"'


_HEAD = re.compile(r"<head(\s[^>]*)?>", re.IGNORECASE)
_HTML = re.compile(r"<html(\s[^>]*)?>", re.IGNORECASE)
# what may precede <html>: a BOM, whitespace, comments and the doctype
_PROLOG = re.compile(r"\ufeff?(?:\s+|<!--.*?-->|<!doctype[^>]*>)*", re.IGNORECASE | re.DOTALL)


def inject(html: str, src: str) -> str:
    """Put the shim tag first in <head> so it runs before any page script. It never goes before
    the doctype (that would put the page in quirks mode): without <head> or <html> it follows the
    prolog (doctype and comments), where the parser opens <head> implicitly."""
    tag = f'<script src="{src}"></script>'
    start = _PROLOG.match(html).end()
    for pattern in (_HEAD, _HTML):
        m = pattern.search(html, start)
        if m:
            return html[: m.end()] + tag + html[m.end() :]
    return html[:start] + tag + html[start:]
