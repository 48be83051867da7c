"""The operator's online defence and appeal (issue 37), and the back office's look at what came:

  HEAD|PUT /api/v1/operator/attachments/<sha256>   an attachment (photo or PDF), by its hash
  POST     /api/v1/operator/filings                the phone's outbox of filings (idempotent per id)
  GET      /autos/<case_id>/anexos/<sha256>        an attachment of a filing of the case (staff)

Thin handlers over operator_filings.py. Endpoints autos.*."""
from flask import g, request

from ...core.auth import STAFF_ROLES, api_auth, get_scoped_or_404, login_required
from ...core.errors import ApiError
from ...core.openapi import ERROR, NoContent, api_doc
from ...core.routes import RouteTable
from ...core.storage import stored_response
from ..fieldsync.schemas import SHA256_RE
from . import operator_filings as filings
from .filing_schemas import (AttachmentPathSchema, AttachmentResponseSchema, FilingPushResponseSchema,
                             FilingPushSchema)
from .models import AutoCase
from .process_models import ATTACHMENT_TYPES, AutoAppeal, FilingAttachment

routes = RouteTable()


@routes.route("/api/v1/operator/attachments/<sha256>", methods=["HEAD"])
@api_auth("operator")
@api_doc(summary="O anexo já está no servidor?", tags=["operator"], path=AttachmentPathSchema,
         responses={200: NoContent, 404: NoContent, 422: NoContent})
def attachment_head(sha256):
    return "", 200 if filings.has_attachment(g.user.municipality_id, sha256) else 404


@routes.put("/api/v1/operator/attachments/<sha256>")
@api_auth("operator")
@api_doc(summary="Enviar um anexo de defesa ou recurso (endereçado pelo SHA-256)", tags=["operator"],
         path=AttachmentPathSchema, raw_body=tuple(ATTACHMENT_TYPES),
         description="Corpo: os bytes; Content-Type image/jpeg, image/png ou application/pdf. Fotos passam pelas "
                     "mesmas verificações das fotos de evidência; PDF sem conteúdo ativo. 201 novo, 200 já existia.",
         responses={200: AttachmentResponseSchema, 201: AttachmentResponseSchema, 413: ERROR, 415: ERROR, 422: ERROR})
def attachment_put(sha256):
    data = filings.read_limited(request.stream, request.content_length, request.mimetype)
    created, row = filings.store_attachment(g.user, sha256, request.mimetype, data)
    return {"sha256": row.sha256, "size": row.size, "created": created}, 201 if created else 200


@routes.post("/api/v1/operator/filings")
@api_auth("operator")
@api_doc(summary="Protocolar defesas e recursos escritos no aplicativo (lote)", tags=["operator"],
         body=FilingPushSchema(),
         description="Um resultado por pedido: accepted (com o recibo: protocolo, hora, tempestividade), "
                     "duplicate (o mesmo id e conteúdo de novo: o mesmo recibo), conflict (o mesmo id com outro "
                     "conteúdo: nada muda) ou rejected (com errors por campo). missing_photos: anexos a enviar.",
         responses={200: FilingPushResponseSchema()})
def filings_push(body):
    return {"results": filings.push(g.user, body["records"])}


filings_push.nul_refused_per_item = "records"  # core/security.py: a NUL refuses its filing, not the batch


@routes.get("/autos/<int:case_id>/anexos/<sha256>")
@login_required(*STAFF_ROLES)
def attachment_file(case_id, sha256):
    """A filing's attachment, only when a filing of this case cites it; downloaded, never rendered
    in the back office's origin (Content-Disposition: attachment, sandboxed)."""
    case = get_scoped_or_404(AutoCase, case_id)
    if not SHA256_RE.match(sha256):
        raise ApiError(404, "not_found")
    cited = any(sha256 in {a.get("sha256") for a in (appeal.attachments or [])}
                for appeal in AutoAppeal.query.filter_by(case_id=case.id, municipality_id=case.municipality_id))
    row = FilingAttachment.query.filter_by(municipality_id=case.municipality_id, sha256=sha256).first()
    if not cited or row is None:
        raise ApiError(404, "not_found")
    response = stored_response("filings", filings.storage_key(sha256, row.content_type), row.content_type,
                               "private, no-store")
    if response is None:
        raise ApiError(404, "not_found")
    extension = filings.ATTACHMENT_TYPES[row.content_type]
    response.headers["Content-Disposition"] = f'attachment; filename="anexo-{sha256[:12]}.{extension}"'
    response.headers["Content-Security-Policy"] = "sandbox; default-src 'none'"
    return response
