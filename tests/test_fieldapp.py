"""The field app shell served at /app/: service worker headers and version, CSP, manifest."""
import json
import re
import shutil
from html.parser import HTMLParser
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image

from server import create_app
from server.modules.fieldapp.shell import build_shell, shell_version, shipped_files

ROOT = Path(__file__).resolve().parent.parent
PWA = ROOT / "pwa"


def _copy_pwa(dest: Path) -> Path:
    shutil.copytree(PWA, dest, ignore=shutil.ignore_patterns("node_modules"))
    return dest


@pytest.fixture
def pwa_copy(tmp_path):
    """A private copy of pwa/ that a test may change."""
    return _copy_pwa(tmp_path / "pwa")


@pytest.fixture
def shell_client(pwa_copy, tmp_path):
    # The shell touches no table: an in-memory database is enough for the real app factory.
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://",
                      "SECRET_KEY": "test", "FIELDAPP_ROOT": str(pwa_copy)})
    app.instance_path = str(tmp_path)
    return app.test_client()


def test_vendor_modules_installed():
    # Set-up (`cd pwa && npm ci && node scripts/vendor.mjs`) must have run: the crachá QR needs it.
    assert (PWA / "vendor" / "qrcode-generator" / "qrcode.mjs").is_file()


def test_service_worker_headers_and_injected_version(shell_client):
    response = shell_client.get("/app/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.headers["Service-Worker-Allowed"] == "/app/"
    body = response.get_data(as_text=True)
    assert "__SHELL_VERSION__" not in body and "__SHELL_FILES__" not in body
    version = re.search(r'const VERSION = "([0-9a-f]{12})";', body).group(1)
    assert version == response.headers["X-Shell-Version"]
    files = json.loads(re.search(r"const SHELL_FILES = (\[.*?\]);", body).group(1))
    assert "./" in files and "js/app.js" in files and "manifest.webmanifest" in files
    assert "index.html" not in files  # cached once, under the scope URL navigations fall back to
    assert not any(f.startswith(("node_modules/", "scripts/")) or f in ("sw.js", "package.json")
                   for f in files)


def test_every_precached_file_is_served(shell_client):
    files = json.loads(re.search(r"const SHELL_FILES = (\[.*?\]);",
                                 shell_client.get("/app/sw.js").get_data(as_text=True)).group(1))
    for rel in files:
        response = shell_client.get(f"/app/{'' if rel == './' else rel}")
        assert response.status_code == 200, rel
        assert response.headers["Cache-Control"] == "no-cache", rel
        if rel.endswith((".js", ".mjs")):
            assert response.mimetype == "text/javascript", rel


def test_strict_csp_on_the_shell(shell_client):
    for path in ("/app/", "/app/js/app.js", "/app/sw.js"):
        csp = shell_client.get(path).headers["Content-Security-Policy"]
        directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
        assert directives["script-src"] == "'self'", path
        assert directives["worker-src"] == "'self'", path
        assert directives["default-src"] == "'self'", path
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, path


def test_only_the_qr_worker_may_compile_webassembly(shell_client):
    # zxing-wasm in js/fiscal/qr-worker.js; the page and every other script keep the strict policy.
    csp = shell_client.get("/app/js/fiscal/qr-worker.js").headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["script-src"] == "'self' 'wasm-unsafe-eval'"
    assert "unsafe-inline" not in csp and "'unsafe-eval'" not in csp
    for path in ("/app/", "/app/js/ui/fiscal-scan.js", "/app/vendor/zxing-wasm/reader.js"):
        assert "wasm-unsafe-eval" not in shell_client.get(path).headers["Content-Security-Policy"], path


class _ScriptFinder(HTMLParser):
    def __init__(self):
        super().__init__()
        self.inline_scripts = 0
        self.inline_styles = 0
        self.in_script = False
        self.srcs = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script":
            self.in_script = "src" not in attrs
            if "src" in attrs:
                self.srcs.append(attrs["src"])
        if tag == "style" or "style" in attrs or any(k.startswith("on") for k in attrs):
            self.inline_styles += 1

    def handle_endtag(self, tag):
        if tag == "script":
            self.in_script = False

    def handle_data(self, data):
        if self.in_script and data.strip():
            self.inline_scripts += 1


def test_index_has_no_inline_code(shell_client):
    finder = _ScriptFinder()
    finder.feed(shell_client.get("/app/").get_data(as_text=True))
    # db-early.js: IndexedDB opens while app.js's graph loads (its own test in tests/js).
    assert finder.srcs == ["js/data/db-early.js", "js/app.js"]
    assert finder.inline_scripts == 0
    assert finder.inline_styles == 0  # style-src 'self' would block them


def test_build_files_are_not_served(shell_client, pwa_copy):
    (pwa_copy / "node_modules" / "x").mkdir(parents=True)
    (pwa_copy / "node_modules" / "x" / "index.js").write_text("secret")
    for path in ("/app/package.json", "/app/package-lock.json", "/app/scripts/vendor.mjs",
                 "/app/node_modules/x/index.js", "/app/../pyproject.toml"):
        assert shell_client.get(path).status_code == 404, path


def test_app_without_slash_redirects(shell_client):
    response = shell_client.get("/app")
    assert response.status_code in (301, 308)
    assert response.headers["Location"].endswith("/app/")


def test_manifest_is_valid_and_icons_match(shell_client):
    response = shell_client.get("/app/manifest.webmanifest")
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.get_data(as_text=True))
    assert manifest["lang"] == "pt-BR"
    assert manifest["start_url"].startswith(manifest["scope"]) and manifest["scope"] == "/app/"
    assert manifest["display"] == "standalone"
    purposes = set()
    for icon in manifest["icons"]:
        image_response = shell_client.get(f"/app/{icon['src']}")
        assert image_response.status_code == 200, icon["src"]
        image = Image.open(BytesIO(image_response.data))
        assert image.format == "PNG"
        assert f"{image.width}x{image.height}" == icon["sizes"], icon["src"]
        purposes.add(icon["purpose"])
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["purpose"] == "any"}
    assert {"192x192", "512x512"} <= sizes  # what browsers require to offer installation
    assert "maskable" in purposes


def test_shell_version_changes_when_a_file_changes(pwa_copy):
    before = shell_version(pwa_copy)
    assert shell_version(pwa_copy) == before  # stable while nothing changes
    css = pwa_copy / "css" / "app.css"
    css.write_text(css.read_text() + "\n/* changed */\n")
    after_css = shell_version(pwa_copy)
    assert after_css != before
    (pwa_copy / "vendor" / "new-module.mjs").write_text("export default 1;\n")
    after_vendor = shell_version(pwa_copy)
    assert after_vendor != after_css  # a new third-party file is part of the shell too
    assert "vendor/new-module.mjs" in build_shell(pwa_copy)["files"]


def test_served_service_worker_follows_file_changes(shell_client, pwa_copy):
    first = shell_client.get("/app/sw.js").headers["X-Shell-Version"]
    (pwa_copy / "js" / "app.js").write_text((pwa_copy / "js" / "app.js").read_text() + "\n// v2\n")
    second = shell_client.get("/app/sw.js").headers["X-Shell-Version"]
    assert first != second


def test_shipped_files_skip_build_inputs(pwa_copy):
    files = shipped_files(pwa_copy)
    assert "index.html" in files and "js/sw-bridge.js" in files
    assert not any(f.startswith(("scripts/", "node_modules/", ".")) for f in files)
    assert "package.json" not in files and "sw.js" not in files and "README.md" not in files


IMPORT_RE = re.compile(r"""(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}/[^'"]+)['"]|import\(\s*['"](\.{1,2}/[^'"]+)['"]\s*\)""")


def test_every_relative_import_is_precached():
    # A module imported but missing from the shell would break the app offline only.
    shipped = set(shipped_files(PWA))
    for rel in shipped:
        if not rel.endswith((".js", ".mjs")) or rel.startswith("vendor/"):
            continue
        source = (PWA / rel).read_text(encoding="utf-8")
        for match in IMPORT_RE.finditer(source):
            target = (Path(rel).parent / (match.group(1) or match.group(2))).as_posix()
            resolved = _normalize(target)
            assert resolved in shipped, f"{rel} imports {resolved}, which is not shipped"


def _normalize(path: str) -> str:
    parts = []
    for part in path.split("/"):
        if part == "..":
            parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return "/".join(parts)


# --- the operator's copy worker (/app/copy-sw.js, scope /a/: issue 34, item 5) ------------------

def _copy_worker(client):
    response = client.get("/app/copy-sw.js")
    body = response.get_data(as_text=True)
    files = json.loads(re.search(r"const FILES = (\[.*?\]);", body).group(1))
    return response, body, files


def test_copy_worker_keeps_the_copy_page_and_everything_it_loads(shell_client):
    response, body, files = _copy_worker(shell_client)
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert response.headers["Service-Worker-Allowed"] == "/a/"  # a script under /app/ for the scope /a/
    assert response.headers["Cache-Control"] == "no-cache"
    assert "__COPY_VERSION__" not in body and "__COPY_FILES__" not in body
    assert re.search(r'const VERSION = "([0-9a-f]{12})";', body).group(1) == response.headers["X-Copy-Version"]
    page = shell_client.get("/a/").get_data(as_text=True)
    # What the page links (its stylesheet, icon and module) and the module's whole import graph,
    # read here from the sources with the test's own pattern.
    linked = re.findall(r'(?:<link [^>]*href|<script [^>]*src)="(/[^"]+)"', page)
    assert linked and set(linked) <= set(files)
    graph, todo = set(), ["js/autocopy/page.js"]
    while todo:
        rel = todo.pop()
        if rel not in graph:
            graph.add(rel)
            for match in IMPORT_RE.finditer((PWA / rel).read_text(encoding="utf-8")):
                if match.group(1):
                    todo.append(_normalize((Path(rel).parent / match.group(1)).as_posix()))
    assert {f"/app/{rel}" for rel in graph} | {"/a/", "/app/vendor/@noble/ed25519/index.js"} | set(linked) == set(files)
    for url in files:  # each one is served, so the worker's install cannot fail on a missing file
        assert shell_client.get(url).status_code == 200, url
    assert "/a/" in files and "/bo/" not in files  # a link the page leads to is not loaded by it


def test_copy_worker_version_follows_the_page_files(shell_client, pwa_copy):
    first = _copy_worker(shell_client)[0].headers["X-Copy-Version"]
    assert _copy_worker(shell_client)[0].headers["X-Copy-Version"] == first  # stable while nothing changes
    codec = pwa_copy / "js" / "autocopy" / "codec.js"
    codec.write_text(codec.read_text() + "\n// changed\n")
    second = _copy_worker(shell_client)[0].headers["X-Copy-Version"]
    assert second != first
    app = pwa_copy / "js" / "app.js"  # not the copy page's: same copy worker
    app.write_text(app.read_text() + "\n// changed\n")
    assert _copy_worker(shell_client)[0].headers["X-Copy-Version"] == second


def test_copy_worker_is_not_part_of_the_app_shell(shell_client):
    assert "copy-sw.js" not in shipped_files(PWA)
    assert '"copy-sw.js"' not in shell_client.get("/app/sw.js").get_data(as_text=True)
