"""Files that ship with the code, sent compressed (Brotli or gzip) with strong ETags.

Used for the field app's shell (/app/: page, modules, vendor/ modules, the WebAssembly decoder)
and the back office's static files: a phone on 3G downloads the shell once and small (the 2.2 MB
shell is ≈0.8 MB in Brotli, docs/benchmarks/shell-compression.md), and for the one API answer
that holds no secret and echoes nothing of the request: the composed rules (GET
/api/v1/rules/<slug>, public law and settings). Never for pages or other API answers: those may
hold a CSRF token or a credential beside text an attacker can make the page repeat, and
compressing them over HTTPS leaks such secrets byte by byte (BREACH).

- Encoding from the request's Accept-Encoding with its q-values (werkzeug's parser): br, then
  gzip, then the bytes as they are; `Vary: Accept-Encoding` on every answer.
- Each encoding is computed once per process and file version (memo keyed by the SHA-256 of the
  file's bytes): Brotli at quality 9 (quality 11 gains ~10 % more for 40× the time: 8 s for the
  0.9 MB decoder), gzip at level 9 with no timestamp, so every app server produces the same
  bytes for the same file.
- The ETag is the SHA-256 of the bytes sent: different for br, gzip and identity, and the same
  on every app server (an mtime-based ETag differs between two checkouts, and a load balancer
  would then turn every revalidation into a full download). If-None-Match → 304.
"""
import gzip
import hashlib
import mimetypes
import threading
from pathlib import Path

import brotli
from flask import Response, abort, request
from werkzeug.security import safe_join

ENCODINGS = ("br", "gzip")  # in order of preference when the client accepts both equally
BROTLI_QUALITY = 9
GZIP_LEVEL = 9
MIN_SIZE = 256  # below this the encoding headers cost more than they save
# Types worth compressing (PNG, WOFF2 and JPEG are compressed already).
COMPRESSIBLE = {"text/html", "text/css", "text/javascript", "application/javascript", "application/json",
                "application/manifest+json", "image/svg+xml", "image/x-icon", "application/wasm"}
MEMO_LIMIT = 512  # encoded variants kept per process (the shell has ~120 files)

_variants: dict = {}
_files: dict = {}
_lock = threading.Lock()


def _etag(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:32]


def _encode(data: bytes, encoding: str) -> bytes:
    if encoding == "br":
        return brotli.compress(data, quality=BROTLI_QUALITY)
    return gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0)


def _variant(data: bytes, digest: str, encoding: str | None) -> tuple[bytes, str]:
    """(bytes to send, their ETag) for this encoding, memoized by the identity bytes' digest."""
    if encoding is None:
        return data, digest
    key = (digest, encoding)
    found = _variants.get(key)
    if found is None:
        body = _encode(data, encoding)
        found = (body, _etag(body))
        with _lock:
            if len(_variants) >= MEMO_LIMIT:
                _variants.clear()  # a new shell replaced the old one; start over
            _variants[key] = found
    return found


def _chosen_encoding(mimetype: str, size: int) -> str | None:
    if size < MIN_SIZE or mimetype.split(";")[0].strip() not in COMPRESSIBLE:
        return None
    return request.accept_encodings.best_match(ENCODINGS)


def send_compressed(data: bytes, mimetype: str, digest: str | None = None) -> Response:
    """A conditional response with `data` in the best encoding the client accepts."""
    digest = digest or _etag(data)
    encoding = _chosen_encoding(mimetype, len(data))
    body, etag = _variant(data, digest, encoding)
    response = Response(body, content_type=mimetype)
    if encoding:
        response.headers["Content-Encoding"] = encoding
    response.vary.add("Accept-Encoding")
    response.set_etag(etag)
    return response.make_conditional(request)


def read_file(path: Path) -> tuple[bytes, str]:
    """(bytes, digest) of a file, read again only when its size or mtime changes."""
    stat = path.stat()
    key = (stat.st_mtime_ns, stat.st_size)
    found = _files.get(path)
    if found is None or found[0] != key:
        data = path.read_bytes()
        found = (key, data, _etag(data))
        with _lock:
            _files[path] = found
    return found[1], found[2]


def send_file_compressed(root: Path, filename: str, mimetype: str) -> Response:
    """`root/filename` compressed (404 when outside root or missing)."""
    joined = safe_join(str(root), filename)
    if joined is None or not Path(joined).is_file():
        abort(404)
    data, digest = read_file(Path(joined))
    return send_compressed(data, mimetype, digest)


def init_app(app):
    """The back office's static files (/static/…) through the same path, revalidated by ETag."""
    root = Path(app.static_folder)

    def static(filename):
        mimetype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        if mimetype.startswith("text/"):
            mimetype += "; charset=utf-8"
        response = send_file_compressed(root, filename, mimetype)
        response.headers["Cache-Control"] = "no-cache"
        return response

    app.view_functions["static"] = static
