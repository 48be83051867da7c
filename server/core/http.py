"""Request helpers shared by every view: the JSON body, bounded integer arguments, safe redirects.

Each turns a client's mistake into a clear 4xx naming the field, never a 500:
- json_body(): nesting deeper than MAX_JSON_DEPTH (the parser would hit Python's recursion
  limit at ~1,000 levels), lone UTF-16 surrogates ("\\ud800", which no database or hash can
  encode) and NaN/Infinity (not JSON, though Python reads them) are refused before any view
  sees the data;
- safe_redirect_target(): the one check for every `next` parameter and referrer we follow.
public_json() is the one shape of an unauthenticated JSON answer (fieldsync's device keys, autos'
public auto status); device_json() the one shape of the large data a device downloads and polls
(field data, crachás' trust data): compact, gzip when accepted, a strong ETag per encoding, 304.
"""
import gzip
import json
import math
import re
from urllib.parse import urlsplit

from flask import current_app, request

from .errors import ApiError

MAX_JSON_DEPTH = 32
SURROGATE = re.compile("[\ud800-\udfff]")
SURROGATE_MESSAGE = "Contém um caractere inválido (surrogate UTF-16 isolado)."
NUMBER_MESSAGE = "Número inválido: NaN e infinito não são números."
MAX_INT = 2**31 - 1  # ids and cursors are 32-bit integers on every database we run on
_UNSET = object()
_CACHE_KEY = "motofiscal.json_body"


def _check_tree(data):
    """Walk the parsed JSON without recursion: depth bound and no lone surrogates anywhere."""
    stack = [(data, 1, "")]
    while stack:
        value, depth, path = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > MAX_JSON_DEPTH:
                raise ApiError(400, "invalid_json",
                               f"JSON aninhado demais (máximo {MAX_JSON_DEPTH} níveis).")
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, sub in items:
                name = f"{path}.{key}" if path else str(key)
                if isinstance(key, str) and SURROGATE.search(key):
                    raise ApiError(400, "invalid_character", "Dados inválidos.", {name: [SURROGATE_MESSAGE]})
                stack.append((sub, depth + 1, name))
        elif isinstance(value, str) and SURROGATE.search(value):
            raise ApiError(400, "invalid_character", "Dados inválidos.", {path or "_schema": [SURROGATE_MESSAGE]})
        elif isinstance(value, float) and not math.isfinite(value):
            # Python reads NaN, Infinity and 1e999 although JSON (RFC 8259) has no such numbers.
            raise ApiError(400, "invalid_number", "Dados inválidos.", {path or "_schema": [NUMBER_MESSAGE]})


def parsed_json():
    """The request body parsed as JSON and checked (cached per request); None when it is not
    JSON at all. Raises ApiError for JSON that is too deep or carries lone surrogates."""
    # Cached in the WSGI environ: it belongs to this request (`g` may outlive it in tests).
    cached = request.environ.get(_CACHE_KEY, _UNSET)
    if cached is not _UNSET:
        return cached
    data = None
    raw = request.get_data(cache=True)
    if raw:
        try:
            data = json.loads(raw)
        except RecursionError:
            raise ApiError(400, "invalid_json",
                           f"JSON aninhado demais (máximo {MAX_JSON_DEPTH} níveis).") from None
        except ValueError:  # includes UnicodeDecodeError and JSONDecodeError
            data = None
    _check_tree(data)
    request.environ[_CACHE_KEY] = data
    return data


def json_body():
    """The request's JSON object, or a 400 envelope that says so (never a 500)."""
    data = parsed_json()
    if not isinstance(data, dict):
        raise ApiError(400, "invalid_json", "Envie um objeto JSON no corpo da requisição.")
    return data


def bounded_int(raw, minimum=0, maximum=MAX_INT):
    """`raw` (text) as an integer within [minimum, maximum], else None. What a database can hold:
    werkzeug's `type=int` happily returns 2**63, which overflows SQLite and PostgreSQL alike."""
    text = (raw or "").strip() if isinstance(raw, str) else ""
    if not re.fullmatch(r"[+-]?\d{1,12}", text) or not minimum <= int(text) <= maximum:
        return None
    return int(text)


# Browsers drop tab, CR and LF anywhere in a URL and read "\" as "/": "/\t/evil" becomes
# "//evil", a link to another site. Any such character makes a target unsafe.
_UNSAFE_CHARS = re.compile(r"[\x00-\x20\x7f\\]")


def safe_redirect_target(target, default):
    """`target` if it stays on this site (a path, or an absolute URL of this very host turned
    into its path), else `default`. Used for every `next` parameter and referrer we follow."""
    if not target or not isinstance(target, str) or _UNSAFE_CHARS.search(target):
        return default
    try:
        parts = urlsplit(target)
    except ValueError:
        return default
    if parts.scheme or parts.netloc:
        if parts.scheme not in ("http", "https") or parts.netloc != request.host:
            return default
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        parts = urlsplit(target)
    if not target.startswith("/") or target.startswith("//") or parts.netloc:
        return default
    return target


def public_json(data, cache_control):
    """A public (unauthenticated) JSON answer: compact, never indexed, never sent on as a referrer."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    response = current_app.response_class(body, mimetype="application/json")
    response.headers["Cache-Control"] = cache_control
    response.headers["X-Robots-Tag"] = "noindex"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def device_json(etag_base, produce):
    """A private JSON answer for a device's download: 304 when the device holds this state
    (`If-None-Match` with this representation's ETag or the base one), else `produce()` dumped
    compactly, gzip-compressed when the device accepts it. Such data holds no secret and echoes
    nothing of the request, so compressing it leaks nothing (BREACH, core/compressed.py).

    One strong validator per representation (the gzip bytes and the plain bytes differ); mtime 0
    and level 9 make every server send the same bytes (level 9 costs ~0.1 s more on a
    10,000-permit snapshot and saves ~2 %: first downloads travel over weak signal)."""
    gzipped = request.accept_encodings["gzip"] > 0
    etag = etag_base + ("-gz" if gzipped else "")
    if request.if_none_match.contains(etag) or request.if_none_match.contains(etag_base):
        response = current_app.response_class(status=304)
    else:
        # No spaces after separators, UTF-8 as is: ~7 KB less gzip on 10,000 permits (issue 24).
        data = current_app.json.dumps(produce(), separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        if gzipped:
            data = gzip.compress(data, compresslevel=9, mtime=0)
        response = current_app.response_class(data, mimetype="application/json")
        if gzipped:
            response.headers["Content-Encoding"] = "gzip"
    response.set_etag(etag)
    response.headers["Vary"] = "Accept-Encoding, Authorization"
    response.headers["Cache-Control"] = "private, no-cache"
    return response
