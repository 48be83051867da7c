"""Credentials HTTP surface. Thin handlers: parse → check access → operation → render.

  GET  /api/v1/trust/<municipality>?cursor=N   keys + status-list delta for devices (ETag, 304)
  POST /bo/permits/<id>/credential              issue or re-issue (back office, CSRF)
  POST /bo/credentials/<id>/revoke              revoke (back office, CSRF)
  GET  /bo/credentials/<id>/<cracha.png|cracha.pdf|adesivos.pdf>   print files
  GET  /V/<code>                                public check page for citizens (LGPD-minimal): the
                                                crachá QR is HTTPS://HOST/V/<base32 code>
  GET  /v/<payload>                             the same page for the first format (MF1:…, URL-encoded)
  GET  /api/v1/keys, /api/v1/keys/<slug|IBGE>   issuer public keys, public and cacheable
"""
import base64
import hashlib
import io
import json
from datetime import datetime, timezone

from flask import (Blueprint, current_app, flash, g, redirect, render_template, request,
                   send_file, url_for)

from ...core.auth import STAFF_ROLES, api_auth, get_scoped_or_404, login_required
from ..registry.scope import check_municipality_slug
from ...core.errors import ApiError
from ...core.http import device_json, safe_redirect_target
from ...core.openapi import ERROR, NoContent, api_doc
from ...core.schemas import MunicipalitySlugPathSchema
from ...core.tenancy import crosses_municipalities
from ...extensions import db, limiter
from ..registry.models import Municipality, Permit
from ..registry.photos import read_operator_photo
from ..registry.vocabulary import vocabulary
from . import operations as ops
from .codec import PREFIX, CodecError, split_payload, url_prefix
from .models import Credential, IssuerKey
from .render import card_pdf_bytes, card_png_bytes, check_public_base_url, sticker_sheet_pdf_bytes
from .schemas import KeyIndexSchema, PublicKeysSchema, TrustDataSchema, TrustQuerySchema
from .verifier import INVALIDO, REASONS, prepare_trust, verify

bp = Blueprint("credentials", __name__)


@bp.record_once
def _check_public_base_url(state):
    """A PUBLIC_BASE_URL that would not route or not fit the QR stops the app at start, not at
    the first crachá printed."""
    try:
        check_public_base_url(state.app.config["PUBLIC_BASE_URL"])
    except ValueError as err:
        raise RuntimeError(f"PUBLIC_BASE_URL inválido: {err}") from None

REISSUE_REASONS = {"emissão": "Primeira emissão", "renovação": "Renovação", "troca de veículo": "Troca de veículo",
                   "extravio": "Extravio ou roubo do crachá", "dados alterados": "Dados alterados"}
REVOKE_REASONS = {"extravio": "Extravio ou roubo", "fraude": "Uso indevido ou fraude",
                  "desligamento": "Condutor desligado do serviço", "outro": "Outro motivo"}


@bp.app_context_processor
def _inject():
    return {"credential_reissue_reasons": REISSUE_REASONS, "credential_revoke_reasons": REVOKE_REASONS,
            "latest_credential": ops.latest_credential, "credential_effective_status": ops.effective_status,
            "credential_effective_labels": ops.EFFECTIVE_LABELS, "credential_effective_badge": ops.EFFECTIVE_BADGE,
            "credential_effective_label": ops.effective_label}


# --- devices ----------------------------------------------------------------------------------

@bp.get("/api/v1/trust/<slug>")
@api_auth("fiscal", "admin", "backoffice")
@api_doc(summary="Chaves e lista de status dos crachás: tudo o que mudou desde o cursor, numa resposta (ETag, gzip)",
         path=MunicipalitySlugPathSchema, query=TrustQuerySchema,
         responses={200: TrustDataSchema, 304: NoContent})
def trust(slug, query):
    muni = check_municipality_slug(slug)
    cursor, fmt = query["cursor"], query["format"]
    response = device_json(f"{ops.trust_state_tag(muni)}-{cursor}-{fmt}",
                           lambda: TrustDataSchema().dump(ops.trust_data(muni, cursor, fmt)))
    # A 304 too: the device may treat its data as current as of this response's Date.
    response.headers["Date"] = datetime.now(timezone.utc).strftime("%a, %d %b %Y %H:%M:%S GMT")
    return response


# --- back office ------------------------------------------------------------------------------

def _back(default):
    """Return to the page the form came from, same origin only."""
    return redirect(safe_redirect_target(request.form.get("next") or request.referrer, default))


@bp.post("/bo/permits/<int:permit_id>/credential")
@login_required(*STAFF_ROLES)
def issue(permit_id):
    permit = get_scoped_or_404(Permit, permit_id)
    reason = request.form.get("reason", "emissão")
    if reason not in REISSUE_REASONS:
        raise ApiError(422, "validation_error", "Motivo inválido.", {"reason": ["Escolha um motivo da lista."]})
    try:
        credential = ops.issue_credential(permit, actor=g.user, reason=reason)
    except ApiError as err:
        if err.status >= 500:
            raise
        flash(err.message)
        return _back(url_for("backoffice.dashboard"))
    flash(f"Crachá série {credential.serial} emitido, válido até {credential.expires_on:%d/%m/%Y}.")
    return _back(url_for("backoffice.dashboard"))


@bp.post("/bo/credentials/<int:credential_id>/revoke")
@login_required(*STAFF_ROLES)
def revoke(credential_id):
    credential = get_scoped_or_404(Credential, credential_id)
    reason = request.form.get("reason", "")
    if reason not in REVOKE_REASONS:
        raise ApiError(422, "validation_error", "Motivo inválido.", {"reason": ["Escolha um motivo da lista."]})
    try:
        ops.revoke_credential(credential, reason, actor=g.user)
        flash(f"Crachá série {credential.serial} revogado.")
    except ApiError as err:
        flash(err.message)
    return _back(url_for("backoffice.dashboard"))


PRINT_FILES = {
    "cracha.png": (card_png_bytes, "image/png"),
    "cracha.pdf": (card_pdf_bytes, "application/pdf"),
    "adesivos.pdf": (sticker_sheet_pdf_bytes, "application/pdf"),
}


@bp.get("/bo/credentials/<int:credential_id>/<filename>")
@login_required(*STAFF_ROLES)
def print_file(credential_id, filename):
    credential = get_scoped_or_404(Credential, credential_id)
    if filename not in PRINT_FILES:
        raise ApiError(404, "not_found")
    status = ops.effective_status(credential)
    if status != "active":
        # A crachá follows its permit: nothing to print for a suspended or cassado one (issue 10).
        raise ApiError(409, "credential_not_valid",
                       f"Crachá série {credential.serial}: "
                       f"{ops.effective_label(status, db.session.get(Municipality, credential.municipality_id))}. "
                       "Não há o que imprimir.")
    make, mimetype = PRINT_FILES[filename]
    response = send_file(io.BytesIO(make(ops.card_data(credential))), mimetype=mimetype,
                         download_name=f"{credential.serial:06d}-{filename}")
    response.headers["Cache-Control"] = "private, no-store"  # personal data
    return response


# --- citizens ---------------------------------------------------------------------------------

VERDICT_CLASS = {"VÁLIDO": "status-ativo", "VENCIDO": "status-vencido", "CADUCADO": "status-vencido",
                 "SUSPENSO": "status-suspenso",
                 "DESCONHECIDO": "status-vencido"}
# A code that does not parse, or names no municipality we serve, was damaged or made up: a genuine
# crachá is always one of ours (issue 10: say so rather than "not of a served municipality").
DAMAGED = "O código do QR está danificado ou foi falsificado: não é um crachá válido."


def _photo_data_uri(operator):
    data = read_operator_photo(operator)
    if data is None:
        return None
    return "data:image/jpeg;base64," + base64.b64encode(data).decode()


@bp.get("/V/", defaults={"code": ""})
@bp.get("/V/<path:code>")
@limiter.limit("60 per minute")
def public_check_url(code):
    """The crachá QR: HTTPS://HOST/V/<code>. Camera apps keep the path's case; the page also
    takes a lower-cased code, since only the exact signed bytes can ever verify."""
    return _public_check(url_prefix(current_app.config["PUBLIC_BASE_URL"]) + code.upper())


@bp.get("/v/<path:payload>")
@limiter.limit("60 per minute")
def public_check(payload):
    """First-format links (/v/MF1:…, URL-encoded), and the URL form's code in lower case."""
    if not payload.startswith(PREFIX):
        payload = url_prefix(current_app.config["PUBLIC_BASE_URL"]) + payload.upper()
    return _public_check(payload)


@crosses_municipalities("public look-up: the signed crachá code names its municipality")
def _public_check(payload):
    """What a citizen sees after scanning the crachá: only what identifies the service (name,
    photo, permit number, plate, status). Never CPF, address, blood type or other data (LGPD)."""
    result, credential, detail, muni = None, None, None, None
    try:
        body = split_payload(payload)[1]
        muni = ops.municipality_by_ibge(body.ibge_code)
        if muni is None:
            detail = "Nenhum município que usa o Motofiscal emitiu este código."
    except CodecError as err:
        detail = REASONS[err.code][1]
    if muni is not None:
        result = verify(payload, prepare_trust(ops.trust_for_payload(muni, body)), datetime.now(timezone.utc))
        if result["credential"] is not None:
            credential = Credential.query.filter_by(municipality_id=muni.id,
                                                    serial=result["credential"]["serial"]).first()
    else:
        result = {"verdict": INVALIDO, "reason_pt": DAMAGED}
    shown = None
    if credential is not None and result["verdict"] != INVALIDO:
        permit = credential.permit
        status = ops.effective_status(credential)
        shown = {"name": credential.operator.name if credential.operator else permit.holder_name,
                 "photo": _photo_data_uri(credential.operator),
                 "permit_number": credential.permit_number,
                 "plate": permit.vehicle.plate if permit.vehicle else None,
                 # The law's words (issue 34, item 4): "Alvará de autorização nº", "Situação do alvará".
                 "permit_label": vocabulary(muni).permit_title,
                 "permit_of": f"{vocabulary(muni).agree('do', 'da')} {vocabulary(muni).permit}",
                 "permit_status": vocabulary(muni).status(permit.status),
                 "credential_status": ops.effective_label(status, muni),
                 "credential_badge": ops.EFFECTIVE_BADGE[status],
                 "valid": result["verdict"] == "VÁLIDO",
                 "valid_until": credential.expires_on}
    response = current_app.make_response(render_template(
        "credentials/public_check.html", result=result, shown=shown, municipality=muni, detail=detail,
        verdict_class=VERDICT_CLASS.get(result["verdict"], "status-cassado")))
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Robots-Tag"] = "noindex"
    return response


# --- public keys (issue 8): anyone can verify a crachá offline with these ----------------------

KEYS_MAX_AGE = 600  # seconds; a revocation reaches caches within ten minutes


def _cacheable_json(data):
    """Public JSON with a strong ETag (hash of the exact bytes) and 304 on If-None-Match."""
    body = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
    etag = hashlib.sha256(body).hexdigest()[:32]
    if request.if_none_match.contains(etag):
        response = current_app.response_class(status=304)
    else:
        response = current_app.response_class(body, mimetype="application/json")
    response.set_etag(etag)
    response.headers["Cache-Control"] = f"public, max-age={KEYS_MAX_AGE}"
    response.headers["Access-Control-Allow-Origin"] = "*"  # public data: browser verifiers welcome
    return response


def _municipality_ref(muni):
    return {"ibge_code": int(muni.ibge_code), "slug": muni.slug, "name": muni.name, "uf": muni.uf}


@bp.get("/api/v1/keys")
@limiter.limit("120 per minute")
@api_doc(summary="Chaves públicas: índice por município", responses={200: KeyIndexSchema, 304: NoContent, 429: ERROR})
@crosses_municipalities("public look-up: every municipality's public keys (public by design)")
def public_key_index():
    """Every municipality served, by IBGE code (the payload's bytes 2-4), with its keys' address."""
    munis = Municipality.query.order_by(Municipality.ibge_code).all()
    return _cacheable_json(KeyIndexSchema().dump({"municipalities": [
        {**_municipality_ref(m), "keys_url": url_for("credentials.public_keys", ref=m.slug)} for m in munis]}))


@bp.get("/api/v1/keys/<ref>")
@limiter.limit("120 per minute")
@api_doc(summary="Chaves públicas do município (slug ou código IBGE)",
         responses={200: PublicKeysSchema, 304: NoContent, 429: ERROR})
@crosses_municipalities("public look-up: a municipality's public keys (public by design)")
def public_keys(ref):
    """A municipality's current and past issuer public keys, by slug or 7-digit IBGE code."""
    if ref.isascii() and ref.isdigit() and len(ref) <= 7:
        muni = ops.municipality_by_ibge(int(ref))
    else:
        muni = Municipality.query.filter_by(slug=ref).first()
    if muni is None:
        raise ApiError(404, "not_found", "Município não atendido.")
    keys = IssuerKey.query.filter_by(municipality_id=muni.id).order_by(IssuerKey.kid).all()
    return _cacheable_json(PublicKeysSchema().dump({
        "municipality": _municipality_ref(muni),
        "algorithm": "Ed25519",
        "keys": [{"kid": k.kid, "public_key": k.public_key, "status": k.status,
                  "valid_from": ops.iso_utc(k.created_at),
                  # Signs nothing after this; still verifies what it signed (unless revoked).
                  "valid_until": ops.iso_utc(k.revoked_at or k.retired_at) if (k.revoked_at or k.retired_at) else None}
                 for k in keys]}))
