"""The field app's shell and the back office's static files go out compressed (br, gzip), with
strong ETags of the bytes sent, 304 on If-None-Match and Vary: Accept-Encoding: through the test
client here and through a real gunicorn server (tests/test_two_servers.py does the latter)."""
import gzip
import hashlib

import brotli
import pytest

from server import create_app

from compression_checks import SHELL_URLS, assert_shell_compression


@pytest.fixture
def client(tmp_path):
    # Shell and static files touch no table: an in-memory database is enough for the real factory.
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "test"})
    app.instance_path = str(tmp_path)
    return app.test_client()


def _get(client, url, accept=None, etag=None):
    headers = {}
    if accept is not None:
        headers["Accept-Encoding"] = accept
    if etag:
        headers["If-None-Match"] = etag
    response = client.get(url, headers=headers)
    return response.status_code, dict(response.headers), response.get_data()


@pytest.mark.parametrize("url", SHELL_URLS)
def test_each_encoding_is_sent_with_its_own_strong_etag_and_revalidates(client, url):
    assert_shell_compression(lambda accept=None, etag=None: _get(client, url, accept, etag))


def test_the_client_preferences_are_honoured(client):
    identity = _get(client, "/app/js/app.js", "identity")[2]
    status, headers, body = _get(client, "/app/js/app.js", "gzip;q=1, br;q=0.5")
    assert headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == identity
    status, headers, body = _get(client, "/app/js/app.js", "br;q=0, gzip;q=0")
    assert "Content-Encoding" not in headers and body == identity
    status, headers, body = _get(client, "/app/js/app.js", "*")
    assert headers["Content-Encoding"] == "br" and brotli.decompress(body) == identity


def test_already_compressed_images_are_sent_as_they_are(client):
    status, headers, body = _get(client, "/app/icons/icon-192.png", "gzip, br")
    assert status == 200 and "Content-Encoding" not in headers
    assert headers["ETag"] == f'"{hashlib.sha256(body).hexdigest()[:32]}"'


def test_another_encoding_etag_does_not_match(client):
    # A cache holding the gzip bytes must not be told its copy is the Brotli one.
    gzip_etag = _get(client, "/app/js/app.js", "gzip")[1]["ETag"]
    status, headers, body = _get(client, "/app/js/app.js", "br", etag=gzip_etag)
    assert status == 200 and headers["Content-Encoding"] == "br" and body


def test_files_outside_the_shell_stay_hidden(client):
    for path in ("/app/package.json", "/app/scripts/vendor.mjs", "/app/vendor/.installed", "/app/js/",
                 "/app/node_modules/pdf-lib/package.json", "/app/js/../package.json", "/app/README.md"):
        assert client.get(path, headers={"Accept-Encoding": "br"}).status_code == 404, path
    assert client.get("/static/../config.py").status_code == 404
    assert client.get("/static/nao-existe.css", headers={"Accept-Encoding": "gzip"}).status_code == 404


def test_every_shipped_file_is_served_and_nothing_else_is_taken_for_one():
    from server.modules.fieldapp.blueprint import DEFAULT_ROOT
    from server.modules.fieldapp.shell import is_shipped, shipped_files
    shipped = set(shipped_files(DEFAULT_ROOT))
    assert all(is_shipped(DEFAULT_ROOT, rel) for rel in shipped)
    assert not is_shipped(DEFAULT_ROOT, "/etc/passwd") and not is_shipped(DEFAULT_ROOT, "js/../../README.md")
    others = [p.relative_to(DEFAULT_ROOT).as_posix() for p in DEFAULT_ROOT.glob("*") if p.is_file()]
    others += [p.relative_to(DEFAULT_ROOT).as_posix() for p in (DEFAULT_ROOT / "scripts").glob("*")]
    assert not any(is_shipped(DEFAULT_ROOT, rel) for rel in others if rel not in shipped)
    assert any(rel not in shipped for rel in others)  # the check above looked at something
