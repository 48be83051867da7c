"""One JSON error envelope under /api/v1; friendly HTML pages elsewhere. Never a 500 for client input.

Envelope: {"error": {"code": str, "message": str (pt-BR), "fields": {field: [reason, ...]}}}
"""
from flask import jsonify, redirect, render_template, request, url_for
from marshmallow import ValidationError
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import HTTPException

from ..extensions import db
from .schemas import ErrorSchema  # the schema the OpenAPI document shows for every 4xx

MESSAGES_PT = {
    400: "Requisição inválida.",
    401: "Autenticação necessária.",
    403: "Acesso negado.",
    404: "Não encontrado.",
    405: "Método não permitido.",
    409: "Conflito com o estado atual.",
    413: "Conteúdo grande demais.",
    415: "Tipo de conteúdo não suportado.",
    422: "Dados inválidos.",
    429: "Muitas tentativas. Aguarde um pouco e tente novamente.",
    500: "Erro interno. A equipe foi avisada.",
    503: "Servidor ocupado. Tente de novo em instantes.",
}

# Lock waits the database gave up on: PostgreSQL's deadlock, serialization failure and lock
# timeout, and SQLite's "database is locked" once its busy timeout has passed (one writer at a
# time). The request rolled back whole; the same request a moment later may well succeed. A
# phone told 503 waits and sends again in order; told 500, it would search its batch for a record
# to blame (pwa/js/fiscal/outbox.js).
BUSY_SQLSTATES = frozenset({"40P01", "40001", "55P03"})
RETRY_AFTER_BUSY_S = 5


def database_busy(err) -> bool:
    """Whether `err` is the database refusing to wait any longer for a lock (see BUSY_SQLSTATES)."""
    if not isinstance(err, DBAPIError):
        return False
    orig = err.orig
    if getattr(orig, "sqlstate", None) in BUSY_SQLSTATES:
        return True
    return type(orig).__module__.startswith("sqlite3") and "locked" in str(orig)


class ApiError(Exception):
    """An error the client can act on: raised anywhere, rendered as the envelope (or an HTML page)."""

    def __init__(self, status=400, code="bad_request", message=None, fields=None):
        super().__init__(message or code)
        self.status = status
        self.code = code
        self.message = message or MESSAGES_PT.get(status, "Erro.")
        self.fields = fields or {}


def wants_json() -> bool:
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def api_error_response(err):
    """The answer to an ApiError (also for blueprint handlers that only enrich some errors)."""
    if err.code == "no_municipality" and not wants_json():
        # The platform admin opened a page before choosing a municipality: send them to choose.
        return redirect(url_for("backoffice.choose_municipality"))
    return _render(err.status, err.code, err.message, err.fields)


def envelope(status, code, message, fields=None):
    body = ErrorSchema().dump({"error": {"code": code, "message": message, "fields": fields or {}}})
    return jsonify(body), status


def flatten_fields(messages) -> dict:
    """Marshmallow nests messages for nested schemas; flatten to dotted field names."""
    out = {}

    def walk(prefix, value):
        if isinstance(value, dict):
            for key, sub in value.items():
                walk(f"{prefix}.{key}" if prefix else str(key), sub)
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            out[prefix or "_schema"] = list(value)
        else:
            out[prefix or "_schema"] = [str(value)]

    walk("", messages)
    return out


def _render(status, code, message, fields=None):
    if wants_json():
        return envelope(status, code, message, fields)
    return render_template("error.html", status=status, message=message, fields=fields or {}), status


def init_app(app):
    app.register_error_handler(ApiError, api_error_response)

    @app.errorhandler(ValidationError)
    def _validation_error(err):
        return _render(422, "validation_error", MESSAGES_PT[422], flatten_fields(err.messages))

    @app.errorhandler(HTTPException)
    def _http_error(err):
        code = (err.name or "error").lower().replace(" ", "_")
        body, status = _render(err.code, code, MESSAGES_PT.get(err.code, err.description or "Erro."))
        # Keep what the exception says about itself: Allow on a 405 (RFC 9110), Retry-After…
        headers = [(k, v) for k, v in err.get_headers() if k.lower() != "content-type"]
        return body, status, headers

    @app.errorhandler(Exception)
    def _unexpected(err):
        busy = database_busy(err)
        if busy:
            app.logger.warning("Database busy, answered 503: %s", err.orig)
        else:
            app.logger.exception("Unhandled error")
        status, code = (503, "busy") if busy else (500, "internal_error")
        headers = {"Retry-After": str(RETRY_AFTER_BUSY_S)} if busy else {}
        # After a database error the request's transaction is failed (or its connection gone):
        # every query of the page (the layout reads the user's municipality) would fail again and
        # the error page itself would end as an empty 500. Roll back first; if the database is
        # unreachable altogether, a page that needs none.
        _roll_back()
        try:
            body, status = _render(status, code, MESSAGES_PT[status])
        except Exception:
            app.logger.exception("The error page failed too")
            _roll_back()
            if wants_json():
                body, status = envelope(status, code, MESSAGES_PT[status])
            else:
                body, headers = plain_page(status), {**headers, "Content-Type": "text/html; charset=utf-8"}
        return body, status, headers


def plain_page(status):
    """An error page that needs neither the database nor a template."""
    return (f"<!doctype html><html lang=\"pt-BR\"><meta charset=\"utf-8\"><title>Erro {status}</title>"
            f"<h1>Erro {status}</h1><p>{MESSAGES_PT[status]}</p><p><a href=\"/bo/\">Voltar ao início</a></p></html>")


def _roll_back():
    try:
        db.session.rollback()
    except Exception:  # a connection that cannot even roll back: drop the session altogether
        db.session.remove()
