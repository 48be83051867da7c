"""What every compressed shell answer must hold, whoever serves it (test client or gunicorn).

`get(accept=None, etag=None)` → (status, headers dict, body bytes as sent on the wire).
"""
import gzip
import hashlib

import brotli

# The shell page, our modules, the service worker, vendor modules, the decoder, CSS, back-office static.
SHELL_URLS = ["/app/", "/app/js/app.js", "/app/sw.js", "/app/vendor/pdf-lib/pdf-lib.esm.min.js",
              "/app/vendor/zxing-wasm/zxing_reader.wasm", "/app/css/app.css", "/static/backoffice.css"]
DECODE = {"br": brotli.decompress, "gzip": gzip.decompress}


def _etag_of(body: bytes) -> str:
    return f'"{hashlib.sha256(body).hexdigest()[:32]}"'


def assert_shell_compression(get):
    status, headers, identity = get(accept="identity")
    assert status == 200 and identity
    assert "Content-Encoding" not in headers
    assert "accept-encoding" in headers["Vary"].lower()
    assert headers["ETag"] == _etag_of(identity)
    etags = {headers["ETag"]}
    for encoding in ("br", "gzip"):
        status, headers, body = get(accept=encoding if encoding == "gzip" else "gzip, br")
        assert status == 200
        assert headers["Content-Encoding"] == encoding
        assert "accept-encoding" in headers["Vary"].lower()
        assert DECODE[encoding](body) == identity
        assert len(body) < len(identity)
        assert int(headers["Content-Length"]) == len(body)
        # Strong (no W/), of the bytes sent, one per encoding.
        assert headers["ETag"] == _etag_of(body)
        etags.add(headers["ETag"])
        status, again, empty = get(accept=encoding if encoding == "gzip" else "gzip, br", etag=headers["ETag"])
        assert status == 304 and empty == b""
        assert again["ETag"] == headers["ETag"]
        assert "accept-encoding" in again["Vary"].lower()
    assert len(etags) == 3
