"""Thin handlers: parse (schema) → check access → operation → dump (schema).

  PUT  /api/v1/devices/me/key                device signing key (fiscal, device token)
  GET  /api/v1/autos/numbers                 this device's numbers and their status
  POST /api/v1/autos/numbers                 reserve a block
  POST /api/v1/autos/numbers/void            void an unused number
  POST /api/v1/sync/push                     batch of signed records
  PUT|HEAD /api/v1/sync/photos/<sha256>      evidence photo, addressed by its hash
  GET  /api/v1/field/data?cursor=N           field data: snapshot, then deltas (ETag, gzip)
  GET  /api/v1/field/photos/<operator_id>    operator thumbnail, ≤ 8 KB JPEG
  GET  /a/#<signed copy>                     the operator's copy, verified in the browser
  GET  /api/v1/public/municipalities/<ibge>/device-keys   enrolled device keys (public, cached)
(The operator's autos, /a/<public_token> and /api/v1/public/autos/<public_token> are autos'
routes: autos/public_views.py.)
"""
import hashlib
import struct

from flask import current_app, g, render_template, request

from ...core.auth import api_auth, get_scoped_or_404, require_municipality_id
from ...core.errors import ApiError
from ...core.http import device_json, public_json
from ...core.openapi import ERROR, Binary, NoContent, api_doc
from ...core.tenancy import crosses_municipalities
from ...core.routes import RouteTable
from ...extensions import db, limiter
from ..registry.models import Municipality, Operator
from . import field_data as fd
from . import operations as ops
from . import numbers as auto_numbers
from . import photos
from .public_keys import device_keys
from .schemas import (PHOTO_PACK_MAX, DeviceKeyResponseSchema, DeviceKeySchema, FieldDataQuerySchema,
                      FieldDataResponseSchema, NumberBlockResponseSchema, NumberRequestSchema,
                      NumbersListResponseSchema, OperatorPhotoPathSchema, PhotoPackQuerySchema,
                      PhotoPathSchema, PhotoResponseSchema, PublicDeviceKeysSchema,
                      PublicIbgePathSchema, PushResponseSchema, PushSchema,
                      VoidNumberSchema, VoidResponseSchema)
from .thumbnails import PHOTO_PACK_TYPE, thumbnail

routes = RouteTable()


def current_device():
    """The enrolled phone behind this token (sync needs one), in the user's municipality."""
    token = g.get("api_token")
    device = token.device if token is not None else None
    if device is None or device.municipality_id != g.user.municipality_id:
        raise ApiError(403, "device_required", "Entre pelo aplicativo do fiscal neste aparelho para sincronizar.")
    return device


# --- device key and numbers -------------------------------------------------------------------

@routes.put("/api/v1/devices/me/key")
@api_auth("fiscal")
@api_doc(summary="Registrar a chave de assinatura do aparelho", tags=["sync"], body=DeviceKeySchema,
         description="Ed25519, 32 bytes em base64url. A mesma chave de novo: 200; outra chave: 409.",
         responses={200: DeviceKeyResponseSchema, 409: ERROR})
def device_key(body):
    device = current_device()
    fingerprint = ops.register_key(device, body["public_key"])
    return {"device_id": device.id, "key_fingerprint": fingerprint}


@routes.get("/api/v1/autos/numbers")
@api_auth("fiscal")
@api_doc(summary="Números de auto deste aparelho e sua situação", tags=["sync"],
         responses={200: NumbersListResponseSchema})
def list_numbers():
    device = current_device()
    rows = auto_numbers.device_numbers(device)
    return ({"numbers": [
        {"number": r.number, "status": r.status, "block_id": r.block_id, "record_id": r.record_id,
         "void_reason": r.void_reason} for r in rows]})


@routes.post("/api/v1/autos/numbers")
@api_auth("fiscal")
@api_doc(summary="Reservar um bloco de números de auto", tags=["sync"], body=NumberRequestSchema,
         description="Série por município e ano; números nunca reutilizados, reservados a este aparelho.",
         responses={201: NumberBlockResponseSchema})
def reserve_numbers(body):
    device = current_device()
    block, numbers = auto_numbers.reserve_numbers(device, g.user, body["count"])
    return {"block_id": block.id, "numbers": numbers}, 201


@routes.post("/api/v1/autos/numbers/void")
@api_auth("fiscal")
@api_doc(summary="Inutilizar um número não usado", tags=["sync"], body=VoidNumberSchema,
         responses={200: VoidResponseSchema, 404: ERROR, 409: ERROR})
def void_number(body):
    device = current_device()
    row = auto_numbers.void_number(device, body["number"].strip(), body["reason"].strip())
    return {"number": row.number, "status": row.status, "void_reason": row.void_reason}


# --- push and photos --------------------------------------------------------------------------

# Schema instances, not classes: the push is the hot path, and marshmallow deep-copies every
# field when a schema is instantiated (load and dump keep no state on the instance).
@routes.post("/api/v1/sync/push")
@api_auth("fiscal")
@api_doc(summary="Enviar registros assinados (lote de até 100)", tags=["sync"], body=PushSchema(),
         description="Um resultado por registro, na ordem enviada: accepted, duplicate, conflict ou "
                     "rejected (com errors por campo). Cada item é julgado sozinho: o que não segue "
                     "components.schemas.PushRecord (e o corpo, o <Tipo>RecordBody do seu kind: datas "
                     "1970–2099 UTC, ids inteiros de 32 bits) volta rejected e o resto do lote é guardado. "
                     "O corpo pode vir comprimido (Content-Encoding: gzip; descomprimido, o mesmo limite "
                     "de tamanho). Ver docs/sync-api.md.",
         responses={200: PushResponseSchema()})
def push(body):
    device = current_device()
    return {"results": ops.push(device, g.user, body["records"])}


push.nul_refused_per_item = "records"  # core/security.py: a NUL refuses its record, not the batch


@routes.route("/api/v1/sync/photos/<sha256>", methods=["HEAD"])
@api_auth("fiscal")
# The same path schema as PUT: a hash in upper case is refused by both (422), never read as
# another spelling of a lower-case one by one and refused by the other (issue 20).
@api_doc(summary="A foto já está no servidor?", tags=["sync"], path=PhotoPathSchema,
         responses={200: NoContent, 404: NoContent, 422: NoContent})
def photo_head(sha256):
    device = current_device()
    found = photos.has_photo(device.municipality_id, sha256)
    return "", 200 if found else 404


@routes.put("/api/v1/sync/photos/<sha256>")
@api_auth("fiscal")
@api_doc(summary="Enviar uma foto de evidência (endereçada pelo SHA-256)", tags=["sync"], path=PhotoPathSchema,
         raw_body=tuple(photos.TYPES),
         description="Corpo: os bytes da foto, Content-Type image/jpeg ou image/png. 201 nova, 200 já existia "
                     "(HEAD na mesma URL: 200/404). 422: hash ou imagem inválidos; 413: acima do limite.",
         responses={200: PhotoResponseSchema, 201: PhotoResponseSchema, 413: ERROR, 415: ERROR, 422: ERROR})
def photo_put(sha256):
    device = current_device()
    data = photos.read_limited(request.stream, request.content_length)
    created, row = photos.store_photo(device, sha256, request.mimetype, data)
    return {"sha256": row.sha256, "size": row.size, "created": created}, 201 if created else 200


# --- field data -------------------------------------------------------------------------------

@routes.get("/api/v1/field/data")
@api_auth("fiscal", "backoffice", "admin")
@api_doc(summary="Dados de campo: instantâneo (cursor 0) e depois só as mudanças", tags=["sync"],
         query=FieldDataQuerySchema,
         description="ETag forte por codificação (gzip ou não), 304 quando nada mudou, Vary: Accept-Encoding.",
         responses={200: FieldDataResponseSchema, 304: NoContent, 409: ERROR})
def field_data(query):
    municipality = db.session.get(Municipality, require_municipality_id())
    cursor = query["cursor"]
    version, changed_at, rules, rules_etag = fd.current_state(municipality)
    fmt = query["format"]
    base = fd.data_tag(municipality, version, cursor, rules_etag, fmt)
    return device_json(base, lambda: fd.field_data(municipality, cursor, version, changed_at, rules, fmt))


@routes.get("/api/v1/field/photos")
@api_auth("fiscal", "backoffice", "admin")
@api_doc(summary="Miniaturas de vários operadores numa resposta (pacote binário)", tags=["sync"],
         query=PhotoPackQuerySchema,
         description="Para cada operador pedido que tem foto, em ordem: id (4 bytes, big-endian), tamanho "
                     "(4 bytes) e o JPEG (≤ 8 KB). Quem não tem foto fica de fora. Um celular novo pede as "
                     "miniaturas de 200 em 200, não uma requisição por operador (issue 40).",
         responses={200: Binary(PHOTO_PACK_TYPE), 409: ERROR, 422: ERROR})
def operator_thumbnail_pack(query):
    asked = query["ids"].split(",")
    ids = list(dict.fromkeys(int(i) for i in asked))
    if len(asked) > PHOTO_PACK_MAX:
        raise ApiError(422, "validation_error", "Ids demais.", {"ids": [f"No máximo {PHOTO_PACK_MAX} ids."]})
    rows = (db.session.query(Operator.id, Operator.photo_path)
            .filter(Operator.municipality_id == require_municipality_id(), Operator.id.in_(ids),
                    Operator.photo_path.isnot(None)).all())
    paths = dict(rows)
    parts = []
    for operator_id in ids:
        data = thumbnail(paths[operator_id]) if operator_id in paths else None
        if data is not None:
            parts.append(struct.pack(">II", operator_id, len(data)) + data)
    response = current_app.response_class(b"".join(parts), mimetype=PHOTO_PACK_TYPE)
    response.headers["Cache-Control"] = "private, no-store"
    return response


@routes.get("/api/v1/field/photos/<int:operator_id>")
@api_auth("fiscal", "backoffice", "admin")
@api_doc(summary="Miniatura da foto do operador (JPEG ≤ 8 KB)", tags=["sync"], path=OperatorPhotoPathSchema,
         responses={200: Binary("image/jpeg"), 304: NoContent, 409: ERROR})
def operator_thumbnail(operator_id):
    operator = get_scoped_or_404(Operator, operator_id)
    if not operator.photo_path:
        raise ApiError(404, "not_found")
    etag = hashlib.sha256(operator.photo_path.encode()).hexdigest()[:20]
    if request.if_none_match.contains(etag):
        response = current_app.response_class(status=304)
    else:
        data = thumbnail(operator.photo_path)
        if data is None:
            raise ApiError(404, "not_found")
        response = current_app.response_class(data, mimetype="image/jpeg")
    response.set_etag(etag)
    response.headers["Cache-Control"] = "private, no-cache"  # revalidate: 304 while the photo is the same
    return response


# --- the operator's signed copy ----------------------------------------------------------------
# The operator's autos and the public auto page (/a/<token>) read the auto's case and process:
# they are autos' routes (autos/public_views.py), autos being above fieldsync.

@routes.get("/a/")
@limiter.limit("60 per minute")
def copy_page():
    """The operator's signed copy: the auto travels in the fragment (never sent here); the static
    module autocopy/page.js decodes it and verifies the device signature in the browser."""
    response = current_app.make_response(render_template("fieldsync/auto_copy.html"))
    response.headers["Cache-Control"] = "public, max-age=3600"  # the same bytes for every copy
    response.headers["X-Robots-Tag"] = "noindex"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@routes.get("/api/v1/public/municipalities/<ibge>/device-keys")
@limiter.limit("120 per minute")
@api_doc(summary="Chaves públicas dos aparelhos dos fiscais do município", tags=["public"],
         path=PublicIbgePathSchema, responses={200: PublicDeviceKeysSchema, 404: ERROR, 429: ERROR},
         description="Sem autenticação: verifica a cópia assinada do autuado (/a/#…). Só id, chave e situação.")
@crosses_municipalities("public look-up: a municipality's device public keys (public by design)")
def public_device_keys(ibge):
    data = device_keys(ibge)
    if data is None:
        raise ApiError(404, "not_found", "Município não encontrado.")
    # A key is registered before the device signs anything: a short public cache is enough.
    return public_json(data, "public, max-age=300")
