"""The public check of a notificação's QR: signature by the municipality's key, then the stored
content against the signed hash. Shows the essentials only: no name, CPF or address (LGPD)."""
import hashlib
import json

from ..credentials.models import IssuerKey
from ..registry.models import Municipality
from . import notification as codec
from .process_models import AutoNotification

FORGED = "Documento adulterado ou falso: a assinatura da Prefeitura não confere."


def _fail(reason_pt, municipality=None):
    return {"authentic": False, "reason_pt": reason_pt, "municipality": municipality, "content": None}


def check_code(code) -> dict:
    if not isinstance(code, str) or not code:
        return _fail("Código ausente: aponte a câmera para o QR da notificação.")
    try:
        body_bytes, body, signature = codec.decode_code(code)
    except codec.NotificationCodeError:
        return _fail("Código danificado ou adulterado: não é uma notificação válida.")
    municipality = Municipality.query.filter_by(ibge_code=f"{body.ibge_code:07d}").first()
    if municipality is None:
        return _fail(FORGED)
    key = IssuerKey.query.filter_by(municipality_id=municipality.id, kid=body.kid).first()
    if key is None or not codec.verify_signature(key.public_key, body_bytes, signature):
        return _fail(FORGED, municipality)
    if key.status == "revoked":
        return _fail("A chave que assinou este documento foi revogada: procure a Prefeitura.", municipality)
    note = AutoNotification.query.filter_by(municipality_id=municipality.id, serial=body.serial).first()
    if note is None:
        return _fail("Assinatura válida, mas a notificação não consta nos registros: procure a Prefeitura.",
                     municipality)
    digest = hashlib.sha256(note.content.encode("utf-8")).digest()[:16]
    if digest != body.content_digest or note.issued_at is None:
        return _fail("Documento adulterado: o conteúdo registrado difere do assinado. Procure a Prefeitura.",
                     municipality)
    content = json.loads(note.content)
    return {"authentic": True, "reason_pt": "Documento autêntico, assinado pela Prefeitura.",
            "municipality": municipality, "content": content, "number": note.number,
            "served_on": note.served_on}
