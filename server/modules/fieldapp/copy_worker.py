"""The operator's copy worker (pwa/copy-sw.js, served as /app/copy-sw.js with scope /a/): which
files the copy page needs offline, and its version.

No Flask imports. The files are what the page's HTML links (/static/…, /app/…) and, for an
/app/ module, its static import graph (the Python twin of pwa/scripts/module-graph.mjs), plus
the module credentials/verify.js imports with import() where WebCrypto lacks Ed25519. The
version hashes the page's bytes, those files and the worker's source, so a change to any of
them makes a new worker, which browsers install on their next update check.
"""
import hashlib
import json
import posixpath
import re
from pathlib import Path

WORKER_SOURCE = "copy-sw.js"
VERSION_TOKEN = '"__COPY_VERSION__"'
FILES_TOKEN = '["__COPY_FILES__"]'
PAGE_URL = "/a/"
APP_PREFIX = "/app/"
# import()ed on demand by js/credentials/verify.js (Ed25519 without WebCrypto's): needed offline too.
DYNAMIC_MODULES = ["vendor/@noble/ed25519/index.js"]
# Same pattern as pwa/scripts/module-graph.mjs: import/export … from '…' and bare import '…'.
IMPORT = re.compile(r"""(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*['"]([^'"]+)['"]""")
# What the page loads (a <link>'s href, a src), not where it leads (an <a>'s href).
LINKED = re.compile(r'<link\b[^>]*?\shref="(/[^"#?]+)"|\ssrc="(/[^"#?]+)"')


def static_graph(root: Path, entry: str) -> list[str]:
    """`entry` (a path relative to pwa/) and every module it statically imports, sorted."""
    seen: set[str] = set()
    todo = [entry]
    while todo:
        rel = todo.pop()
        if rel in seen:
            continue
        seen.add(rel)
        text = re.sub(r"^\s*//.*$", "", (root / rel).read_text(encoding="utf-8"), flags=re.M)
        for match in IMPORT.finditer(text):
            spec = match.group(1) or match.group(2)
            if spec.startswith("."):
                todo.append(posixpath.normpath(posixpath.join(posixpath.dirname(rel), spec)))
    return sorted(seen)


def page_files(page_html: str, root: Path) -> list[str]:
    """URLs the copy page needs: itself, what it links, and the /app/ modules' graphs."""
    urls = {PAGE_URL}
    for url in (a or b for a, b in LINKED.findall(page_html)):
        if url.startswith(APP_PREFIX):
            for rel in static_graph(root, url[len(APP_PREFIX):]):
                urls.add(APP_PREFIX + rel)
        else:
            urls.add(url)
    urls.update(APP_PREFIX + rel for rel in DYNAMIC_MODULES)
    return sorted(urls)


def build_copy_worker(root: Path, page_html: str, read_static) -> dict:
    """{"version", "files", "sw"}. `read_static(url)` gives the bytes of a non-/app/ URL the page
    links (the back office's CSS and icon)."""
    root = Path(root)
    files = page_files(page_html, root)
    digest = hashlib.sha256(page_html.encode("utf-8") + b"\0")
    template = (root / WORKER_SOURCE).read_text(encoding="utf-8")
    digest.update(template.encode("utf-8") + b"\0")
    for url in files:
        if url == PAGE_URL:
            continue
        data = (root / url[len(APP_PREFIX):]).read_bytes() if url.startswith(APP_PREFIX) else read_static(url)
        digest.update(url.encode() + b"\0" + data + b"\0")
    version = digest.hexdigest()[:12]
    if VERSION_TOKEN not in template or FILES_TOKEN not in template:
        raise RuntimeError("pwa/copy-sw.js lost its version/files placeholders")
    sw = template.replace(VERSION_TOKEN, json.dumps(version)).replace(FILES_TOKEN, json.dumps(files))
    return {"version": version, "files": files, "sw": sw}
