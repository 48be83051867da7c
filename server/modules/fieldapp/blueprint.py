"""Serves the field app at /app/: shell files, the service worker with its version injected.

Every file is sent with `Cache-Control: no-cache` (revalidate by ETag): the service worker's
versioned cache is what makes the app fast and offline, and the HTTP cache must never hand it a
stale file while it builds a new shell. Files go out compressed (core/compressed.py: br or gzip,
ETag of the bytes sent, 304 on If-None-Match).
"""
from pathlib import Path

from flask import Blueprint, abort, current_app, render_template, request

from ...core.compressed import send_compressed, send_file_compressed
from ...core.security import CSP
from .copy_worker import PAGE_URL, build_copy_worker
from .shell import build_shell, is_shipped

bp = Blueprint("fieldapp", __name__, url_prefix="/app")

DEFAULT_ROOT = Path(__file__).resolve().parents[3] / "pwa"
# Explicit types: module scripts are refused under a wrong MIME type, and Python's mimetypes
# table varies between machines (.mjs and .webmanifest are often missing).
MIME_TYPES = {
    ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
    ".webmanifest": "application/manifest+json", ".json": "application/json",
    ".png": "image/png", ".svg": "image/svg+xml", ".ico": "image/x-icon",
    ".woff2": "font/woff2", ".wasm": "application/wasm",
}


# The scanner's QR worker alone may compile WebAssembly (the zxing-wasm decoder):
# 'wasm-unsafe-eval' permits WebAssembly.compile/instantiate only, never JavaScript eval. A
# dedicated worker runs under its own script's CSP, so the page keeps the strict policy.
WASM_WORKER = "/app/js/fiscal/qr-worker.js"
WASM_WORKER_CSP = CSP.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'", 1)


def pwa_root() -> Path:
    # FIELDAPP_ROOT lets tests serve a copy of pwa/ they can modify (e.g. to publish an update).
    return Path(current_app.config.get("FIELDAPP_ROOT") or DEFAULT_ROOT)


@bp.after_request
def _headers(response):
    # Same policy as the rest of the app, set here explicitly so /app/ never depends on order.
    response.headers["Content-Security-Policy"] = WASM_WORKER_CSP if request.path == WASM_WORKER else CSP
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/")
def index():
    return _send("index.html")


@bp.get("/sw.js")
def service_worker():
    shell = build_shell(pwa_root())
    response = send_compressed(shell["sw"].encode("utf-8"), MIME_TYPES[".js"])
    response.headers["Service-Worker-Allowed"] = "/app/"
    response.headers["X-Shell-Version"] = shell["version"]
    return response


@bp.get("/copy-sw.js")
def copy_worker():
    """The operator's copy worker, registered by the operator's app with scope /a/: keeps the copy
    page and the municipality's device keys, so a fiscal's signed copy verifies offline."""
    # The page as an anonymous visitor gets it (a fresh app context: no user of this request).
    with current_app.app_context(), current_app.test_request_context(PAGE_URL):
        page = render_template("fieldsync/auto_copy.html")
    worker = build_copy_worker(pwa_root(), page, _static_bytes)
    response = send_compressed(worker["sw"].encode("utf-8"), MIME_TYPES[".js"])
    response.headers["Service-Worker-Allowed"] = PAGE_URL
    response.headers["X-Copy-Version"] = worker["version"]
    return response


def _static_bytes(url):
    prefix = current_app.static_url_path + "/"
    if not url.startswith(prefix):
        raise RuntimeError(f"the copy page links {url}, which the copy worker cannot keep")
    return (Path(current_app.static_folder) / url[len(prefix):]).read_bytes()


@bp.get("/<path:filename>")
def shell_file(filename):
    return _send(filename)


def _send(filename):
    root = pwa_root()
    if not is_shipped(root, filename):
        abort(404)  # never expose package.json, node_modules/, scripts/…
    mimetype = MIME_TYPES.get(Path(filename).suffix.lower(), "application/octet-stream")
    return send_file_compressed(root, filename, mimetype)
