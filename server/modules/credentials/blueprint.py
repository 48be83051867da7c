"""Credentials HTTP surface. Thin handlers: parse → check access → operation → render.

  GET  /api/v1/trust/<municipality>?cursor=N   keys + status-list delta for devices (ETag, 304)
  POST /bo/permits/<id>/credential              issue or re-issue (back office, CSRF)
  POST /bo/credentials/<id>/revoke              revoke (back office, CSRF)
  GET  /bo/credentials/<id>/<cracha.png|cracha.pdf|adesivos.pdf>   print files
  GET  /v/<payload>                             public check page for citizens (LGPD-minimal)
"""
import base64
import io
from datetime import datetime, timezone

from flask import (Blueprint, current_app, flash, g, jsonify, redirect, render_template, request,
                   send_file, url_for)

from ...core.auth import STAFF_ROLES, api_auth, check_municipality_slug, get_scoped_or_404, login_required
from ...core.errors import ApiError
from ...core.http import safe_redirect_target
from ...core.openapi import NoContent, api_doc
from ...core.schemas import MunicipalitySlugPathSchema
from ...extensions import limiter
from ..registry.models import PERMIT_STATUS_LABELS, Permit
from ..registry.photos import photos_root
from . import operations as ops
from .models import Credential
from .schemas import TrustDataSchema, TrustQuerySchema
from .render import card_pdf_bytes, card_png_bytes, sticker_sheet_pdf_bytes
from .verifier import prepare_trust, verify

bp = Blueprint("credentials", __name__)

REISSUE_REASONS = {"emissão": "Primeira emissão", "renovação": "Renovação", "troca de veículo": "Troca de veículo",
                   "extravio": "Extravio ou roubo do crachá", "dados alterados": "Dados alterados"}
REVOKE_REASONS = {"extravio": "Extravio ou roubo", "fraude": "Uso indevido ou fraude",
                  "desligamento": "Condutor desligado do serviço", "outro": "Outro motivo"}


@bp.app_context_processor
def _inject():
    return {"credential_reissue_reasons": REISSUE_REASONS, "credential_revoke_reasons": REVOKE_REASONS,
            "latest_credential": ops.latest_credential}


# --- devices ----------------------------------------------------------------------------------

@bp.get("/api/v1/trust/<slug>")
@api_auth("fiscal", "admin", "backoffice")
@api_doc(summary="Chaves e lista de status dos crachás (delta desde o cursor), com ETag",
         path=MunicipalitySlugPathSchema, query=TrustQuerySchema,
         responses={200: TrustDataSchema, 304: NoContent})
def trust(slug, query):
    muni = check_municipality_slug(slug)
    cursor = query["cursor"]
    etag = f"{ops.trust_state_tag(muni)}-{cursor}"
    if request.if_none_match.contains(etag):
        # Nothing changed: the device may treat its data as current as of this response's Date.
        response = current_app.response_class(status=304)
    else:
        response = jsonify(TrustDataSchema().dump(ops.trust_data(muni, cursor)))
    response.set_etag(etag)
    response.headers["Cache-Control"] = "private, no-cache"
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
    make, mimetype = PRINT_FILES[filename]
    response = send_file(io.BytesIO(make(ops.card_data(credential))), mimetype=mimetype,
                         download_name=f"{credential.serial:06d}-{filename}")
    response.headers["Cache-Control"] = "private, no-store"  # personal data
    return response


# --- citizens ---------------------------------------------------------------------------------

VERDICT_CLASS = {"VÁLIDO": "status-ativo", "VENCIDO": "status-vencido", "SUSPENSO": "status-suspenso",
                 "DESCONHECIDO": "status-vencido"}


def _photo_data_uri(operator):
    if operator is None or not operator.photo_path:
        return None
    path = photos_root() / operator.photo_path
    if not path.is_file():
        return None
    return "data:image/jpeg;base64," + base64.b64encode(path.read_bytes()).decode()


@bp.get("/v/<path:payload>")
@limiter.limit("60 per minute")
def public_check(payload):
    """What a citizen sees after scanning the crachá: only what identifies the service (name,
    photo, permit number, plate, status). Never CPF, address, blood type or other data (LGPD)."""
    muni, body = ops.payload_municipality(payload)
    result, credential = None, None
    if muni is not None:
        result = verify(payload, prepare_trust(ops.trust_for_payload(muni, body)), datetime.now(timezone.utc))
        if result["credential"] is not None and result["reason_code"] not in ("bad_signature", "unknown_key"):
            credential = Credential.query.filter_by(municipality_id=muni.id,
                                                    serial=result["credential"]["serial"]).first()
    else:
        result = {"verdict": "INVÁLIDO", "reason_pt": "Não é um crachá de um município atendido pelo Motofiscal."}
    shown = None
    if credential is not None and result["verdict"] != "INVÁLIDO":
        permit = credential.permit
        shown = {"name": credential.operator.name if credential.operator else permit.holder_name,
                 "photo": _photo_data_uri(credential.operator),
                 "permit_number": credential.permit_number,
                 "plate": permit.vehicle.plate if permit.vehicle else None,
                 "permit_status": PERMIT_STATUS_LABELS.get(permit.status, permit.status),
                 "valid_until": credential.expires_on}
    response = current_app.make_response(render_template(
        "credentials/public_check.html", result=result, shown=shown, municipality=muni,
        verdict_class=VERDICT_CLASS.get(result["verdict"], "status-cassado")))
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Robots-Tag"] = "noindex"
    return response
