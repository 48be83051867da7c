"""The first-day screen of a municipality's administrator, and the bulk tools it links to:
crachás for many permits (one PDF of A4 sheets, with a report) and operator photos from one ZIP
named by CPF. Thin handlers: parse → check access → operation → render."""
import functools
import io

from flask import abort, flash, g, redirect, render_template, request, send_file, url_for

from ...core.auth import STAFF_ROLES, current_municipality_id, login_required
from ...core.errors import ApiError
from ...core.http import bounded_int
from ...core.routes import RouteTable
from ...extensions import db
from ..credentials import bulk
from ..credentials.operations import active_key, create_key
from ..credentials.render import cards_sheet_pdf_bytes
from ..registry.models import Municipality
from ..registry.photo_zip import MAX_ENTRIES, MAX_ZIP_BYTES, import_photo_zip
from ..registry.public_address import own_public_base_url, public_base_url
from .first_day import DONE, first_day_items, pending_required
from .operations import set_public_address

routes = RouteTable()


def _in_municipality(*roles):
    """login_required(*roles), inside one municipality (a platform administrator picks one first)."""
    def decorator(view):
        @login_required(*roles)
        @functools.wraps(view)
        def wrapped(*args, **kwargs):
            if current_municipality_id() is None:
                return redirect(url_for("backoffice.choose_municipality"))
            return view(*args, **kwargs)
        return wrapped
    return decorator


def _municipality():
    return db.session.get(Municipality, current_municipality_id())


# --- the first-day list ------------------------------------------------------------------------

def _page(errors=None, form=None, status=200):
    muni = _municipality()
    items = first_day_items(muni)
    return render_template("onboarding/first_day.html", items=items, pending=pending_required(items), done=DONE,
                           own_address=own_public_base_url(muni), address=public_base_url(muni),
                           key=active_key(muni), errors=errors or {}, form=form or {}), status


@routes.get("/bo/primeiro-dia")
@_in_municipality("admin")
def page():
    return _page()


@routes.post("/bo/primeiro-dia/endereco")
@_in_municipality("admin")
def set_address():
    try:
        value = set_public_address(_municipality(), request.form.get("public_base_url"), actor=g.user)
    except ApiError as err:
        db.session.rollback()
        if err.status != 422:
            raise
        return _page(errors=err.fields, form=request.form, status=422)
    flash(f"Endereço público salvo: {value}." if value else
          "Endereço próprio removido: crachás e notificações usam o endereço do servidor.")
    return redirect(url_for(".page", _anchor="endereco"))


@routes.post("/bo/primeiro-dia/chave")
@_in_municipality("admin")
def create_signing_key():
    try:
        key = create_key(_municipality(), actor=g.user)
    except ApiError as err:
        if err.status >= 500:
            raise
        flash(err.message)
    else:
        flash(f"Chave de assinatura {key.kid} criada.")
    return redirect(url_for(".page", _anchor="chave"))


# --- crachás in bulk ------------------------------------------------------------------------

@routes.get("/bo/crachas/lote")
@_in_municipality(*STAFF_ROLES)
def credential_batch_page():
    muni = _municipality()
    query = bulk.without_current_credential(muni.id)
    return render_template("onboarding/credential_batch.html", total=query.count(),
                           permits=query.limit(bulk.BATCH_MAX).all(), batch_max=bulk.BATCH_MAX,
                           has_key=active_key(muni) is not None)


@routes.post("/bo/crachas/lote")
@_in_municipality(*STAFF_ROLES)
def credential_batch_issue():
    muni = _municipality()
    if request.form.get("scope") == "selecionadas":
        ids = [bounded_int(v, 1) for v in request.form.getlist("permit_id")]
        if None in ids:
            raise ApiError(422, "validation_error", "Dados inválidos.", {"permit_id": ["Permissão inválida."]})
    else:
        ids = None
    try:
        entry = bulk.issue_batch(muni, ids, actor=g.user)
    except ApiError as err:
        db.session.rollback()
        if err.status != 422:
            raise
        flash(" ".join(m for msgs in (err.fields or {}).values() for m in msgs) or err.message)
        return redirect(url_for(".credential_batch_page"))
    return redirect(url_for(".credential_batch_report", batch_id=entry.id), 303)


def _batch_or_404(batch_id):
    entry = bulk.batch_of(current_municipality_id(), batch_id)
    if entry is None:
        abort(404)
    return entry


@routes.get("/bo/crachas/lote/<int(max=2147483647):batch_id>")
@_in_municipality(*STAFF_ROLES)
def credential_batch_report(batch_id):
    entry = _batch_or_404(batch_id)
    credentials = bulk.batch_credentials(current_municipality_id(), entry)
    return render_template("onboarding/credential_batch_report.html", entry=entry, credentials=credentials,
                           skipped=(entry.after or {}).get("skipped") or [],
                           remaining=bulk.without_current_credential(current_municipality_id()).count())


@routes.get("/bo/crachas/lote/<int(max=2147483647):batch_id>/crachas.pdf")
@_in_municipality(*STAFF_ROLES)
def credential_batch_pdf(batch_id):
    entry = _batch_or_404(batch_id)
    cards, _ = bulk.printable(bulk.batch_credentials(current_municipality_id(), entry))
    if not cards:
        raise ApiError(409, "credential_not_valid", "Nenhum crachá deste lote continua válido: nada a imprimir.")
    response = send_file(io.BytesIO(cards_sheet_pdf_bytes(cards, f"Crachás — lote {entry.id}")),
                         mimetype="application/pdf", download_name=f"crachas-lote-{entry.id}.pdf")
    response.headers["Cache-Control"] = "private, no-store"  # personal data
    return response


# --- operator photos in bulk ---------------------------------------------------------------------

@routes.get("/bo/operadores/fotos/lote")
@_in_municipality(*STAFF_ROLES)
def photo_batch_page():
    return render_template("onboarding/photo_batch.html", report=None, errors={},
                           max_mb=MAX_ZIP_BYTES // (1024 * 1024), max_entries=MAX_ENTRIES)


@routes.post("/bo/operadores/fotos/lote")
@_in_municipality(*STAFF_ROLES)
def photo_batch_upload():
    upload = request.files.get("zip")
    context = {"max_mb": MAX_ZIP_BYTES // (1024 * 1024), "max_entries": MAX_ENTRIES}
    try:
        # Read one byte past the cap: a larger file is refused without holding all of it.
        data = upload.stream.read(MAX_ZIP_BYTES + 1) if upload else b""
        report = import_photo_zip(_municipality(), data, actor=g.user)
    except ApiError as err:
        db.session.rollback()
        if err.status >= 500:
            raise
        return render_template("onboarding/photo_batch.html", report=None, errors=err.fields or {"zip": [err.message]},
                               **context), err.status
    return render_template("onboarding/photo_batch.html", report=report, errors={}, **context)
