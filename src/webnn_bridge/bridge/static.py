"""Static files for ``--app``: a plain function from (root, method, path, request headers) to
(status, headers, body), called off the event loop by server.py.

HTTP features: GET and HEAD, a redirect from a directory without its trailing slash, ETag with
If-None-Match (304), one byte range (206 / 416, If-Range), Last-Modified. HTML pages get the shim
tag injected (their ETag and ranges are those of the injected body). Range requests read only the
requested bytes of a file.
"""

from __future__ import annotations

import email.utils
import mimetypes
import posixpath
import re
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from . import shim

_RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")
_TEXT_TYPES = ("application/javascript", "application/json", "image/svg+xml")


@dataclass
class Reply:
    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""


def not_found() -> Reply:
    return Reply(404, {"Content-Type": "text/plain; charset=utf-8"}, b"not found\n")


def resolve(root: Path, path: str) -> Path | None:
    """The file or directory that URL path ``path`` names under ``root`` (lexical containment: no
    '..' escapes; links placed inside the app directory are followed); None when outside."""
    rel = posixpath.normpath("/" + urllib.parse.unquote(path)).lstrip("/")
    if rel.startswith("..") or "\0" in rel:
        return None
    return root / rel if rel not in ("", ".") else root


def content_type(target: Path) -> str:
    ctype = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
    if target.suffix == ".mjs":
        ctype = "text/javascript"
    if ctype.startswith("text/") or ctype in _TEXT_TYPES:
        ctype += "; charset=utf-8"
    return ctype


def byte_range(header: str | None, size: int) -> tuple[int, int] | None | str:
    """One ``bytes=`` range as (start, end exclusive); None for no (or an ignored multi-) range;
    "unsatisfiable" when it lies outside the representation."""
    if not header:
        return None
    m = _RANGE.match(header.strip())
    if not m or m.group(1) == m.group(2) == "":
        return None  # malformed or multiple ranges: RFC 9110 lets a server ignore Range
    first, last = m.group(1), m.group(2)
    if first == "":
        n = int(last)
        return (max(size - n, 0), size) if n > 0 and size > 0 else "unsatisfiable"
    start = int(first)
    end = min(int(last) + 1, size) if last else size
    if start >= size or end <= start:
        return "unsatisfiable"
    return start, end


def _etag(target: Path, html: bool) -> tuple[str, float]:
    st = target.stat()
    # HTML bodies change with the shim tag; the marker keeps their ETags apart from raw files'
    return f'"{st.st_mtime_ns:x}-{st.st_size:x}{"-s" if html else ""}"', st.st_mtime


def etag_matches(header: str | None, etag: str) -> bool:
    if not header:
        return False
    tags = [t.strip().removeprefix("W/") for t in header.split(",")]
    return "*" in tags or etag in tags


def _read(target: Path, rng: tuple[int, int] | None) -> bytes:
    if rng is None:
        return target.read_bytes()
    with target.open("rb") as f:
        f.seek(rng[0])
        return f.read(rng[1] - rng[0])


def serve_file(root: Path, method: str, path: str, query: str, headers: Mapping[str, str], shim_src: str) -> Reply:
    """The reply for a GET or HEAD of ``path`` in the app directory ``root``."""
    target = resolve(root.absolute(), path)
    if target is None:
        return not_found()
    if target.is_dir():
        if not path.endswith("/"):
            # relative URLs of the directory's index resolve against the slash form
            location = urllib.parse.quote(path, safe="/%") + "/" + (f"?{query}" if query else "")
            return Reply(301, {"Location": location, "Content-Type": "text/plain; charset=utf-8"}, b"moved\n")
        target = target / "index.html"
    if not target.is_file():
        return not_found()
    ctype = content_type(target)
    html = ctype.startswith("text/html")
    etag, mtime = _etag(target, html)
    base = {"ETag": etag, "Last-Modified": email.utils.formatdate(mtime, usegmt=True), "Accept-Ranges": "bytes",
            "Cache-Control": "no-cache"}
    if etag_matches(headers.get("If-None-Match"), etag):
        return Reply(304, base)
    base["Content-Type"] = ctype
    # HTML is small and transformed whole; other files are read only as far as a range asks
    body = shim.inject(target.read_bytes().decode("utf-8", "replace"), shim_src).encode() if html else None
    size = len(body) if body is not None else target.stat().st_size
    if_range = headers.get("If-Range")
    rng = byte_range(headers.get("Range"), size) if if_range in (None, etag) else None
    if rng == "unsatisfiable":
        return Reply(416, {**base, "Content-Range": f"bytes */{size}"})
    status = 200
    if rng is not None:
        status = 206
        base["Content-Range"] = f"bytes {rng[0]}-{rng[1] - 1}/{size}"
    length = size if rng is None else rng[1] - rng[0]
    base["Content-Length"] = str(length)
    if method == "HEAD":
        return Reply(status, base)
    if body is not None:
        return Reply(status, base, body if rng is None else body[rng[0] : rng[1]])
    return Reply(status, base, _read(target, rng))
