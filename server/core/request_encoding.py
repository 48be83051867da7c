"""Request bodies sent gzip-compressed (`Content-Encoding: gzip`), as the field app sends its pushes:
a day's 554 KB of records is 24 KB of gzip, ≈ 6 s instead of 132 s over 3G (issue 40).

A WSGI middleware inflates the body before Flask sees it, so every check at the door (NUL and
surrogates, JSON depth, schemas) reads the same bytes as for a plain body. Bounded like a plain
body: the inflated bytes may not exceed MAX_CONTENT_LENGTH (a small gzip can declare gigabytes:
inflation stops at the limit and the request is refused with 413, having held at most the limit
in memory). Only JSON bodies may be compressed (photos are JPEG already); any other encoding, or
a gzip that does not inflate, is refused (415, 400) by `refuse_bad_encoding` before any view.
"""
import io
import zlib

from flask import request
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wsgi import get_input_stream

from .errors import ApiError

_PROBLEM = "motofiscal.body_encoding_problem"
CHUNK = 64 * 1024


class GzipRequestBody:
    def __init__(self, app):
        self.app = app
        self.wsgi_app = app.wsgi_app

    def __call__(self, environ, start_response):
        encoding = environ.get("HTTP_CONTENT_ENCODING", "").strip().lower()
        if encoding and encoding != "identity":
            environ[_PROBLEM] = self._inflate(environ, encoding)
        return self.wsgi_app(environ, start_response)

    def _inflate(self, environ, encoding):
        """None when the body now holds the inflated bytes, else (status, code, message) and an
        empty body."""
        problem = self._inflated(environ, encoding)
        if problem:
            environ["wsgi.input"], environ["CONTENT_LENGTH"] = io.BytesIO(b""), "0"
        return problem

    def _inflated(self, environ, encoding):
        limit = int(self.app.config.get("MAX_CONTENT_LENGTH") or 16 * 1024 * 1024)
        if encoding != "gzip":
            return 415, "unsupported_encoding", f"Codificação do corpo não aceita: {encoding[:20]} (use gzip)."
        if not environ.get("CONTENT_TYPE", "").split(";")[0].strip().lower() == "application/json":
            return 415, "unsupported_encoding", "Só corpos JSON podem ser enviados comprimidos (gzip)."
        declared = environ.get("CONTENT_LENGTH") or ""
        if declared.isdigit() and int(declared) > limit:
            return 413, "too_large", "Corpo grande demais."
        source = get_input_stream(environ, max_content_length=limit)  # never past Content-Length
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        out, size, read = io.BytesIO(), 0, 0
        try:
            while True:
                chunk = source.read(CHUNK)
                if not chunk:
                    break
                read += len(chunk)
                if read > limit:
                    return 413, "too_large", "Corpo grande demais."
                data = inflater.decompress(chunk, limit + 1 - size)
                size += len(data)
                out.write(data)
                if size > limit or inflater.unconsumed_tail:
                    return 413, "too_large", "Corpo grande demais depois de descomprimido."
            tail = inflater.flush()
        except zlib.error:
            return 400, "invalid_encoding", "Corpo gzip inválido."
        except RequestEntityTooLarge:
            return 413, "too_large", "Corpo grande demais."
        size += len(tail)
        out.write(tail)
        if size > limit:
            return 413, "too_large", "Corpo grande demais depois de descomprimido."
        if not inflater.eof:
            return 400, "invalid_encoding", "Corpo gzip incompleto."
        environ["wsgi.input"] = io.BytesIO(out.getvalue())
        environ["CONTENT_LENGTH"] = str(size)
        environ.pop("HTTP_CONTENT_ENCODING", None)
        return None


def refuse_bad_encoding():
    """before_request: a body that could not be inflated, or is not allowed compressed."""

    problem = request.environ.get(_PROBLEM)
    if problem:
        status, code, message = problem
        raise ApiError(status, code, message, {"Content-Encoding": [message]})


def init_app(app):
    app.wsgi_app = GzipRequestBody(app)
    # First of the request hooks: the door's checks (core/security.py) read the inflated body.
    app.before_request_funcs.setdefault(None, []).insert(0, refuse_bad_encoding)
