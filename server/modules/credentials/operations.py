"""Crachás: issuing and revoking them, what one is worth now, the trust data devices sync, and
the files printed. Keys are issuer_keys.py's and the status list status_list.py's; their
functions are named from here too, as before the split (callers in other features use them).
"""
from datetime import timezone
from pathlib import Path

from flask import current_app
from sqlalchemy import func
from sqlalchemy.exc import IntegrityError

from ...core.audit import record
from ...core.auth import utcnow
from ...core.clock import as_utc, local_now, local_today
from ...core.errors import ApiError
from ...extensions import db
from ..registry.models import Municipality, Permit
from ..registry.photos import read_operator_photo
from ..registry.public_address import public_base_url
from ..registry.vocabulary import vocabulary
from . import keys as keystore
from . import signing
from .codec import Body, CodecError, check_permit_number, encode_body, make_url_payload, split_payload
from .issuer_keys import MAX_KID, active_key, create_key, revoke_key, rotate_key  # noqa: F401 (named from here)
from .models import Credential, IssuerKey, StatusListEntry
from .render import CardData, card_pdf_bytes, card_png_bytes, sticker_sheet_pdf_bytes
from .status_list import (  # noqa: F401 (named from here)
    append_status,
    append_statuses,
    backfill_status_list,
    credential_list_status,
    on_permit_status_changed,
)


def municipality_by_slug(slug) -> Municipality:
    muni = Municipality.query.filter_by(slug=slug).first()
    if muni is None:
        raise ApiError(404, "not_found", f"Município '{slug}' não encontrado.")
    return muni


# What a crachá is worth now: its own state, then its permit's, then its printed expiry. The back
# office, the public page and the status list all read this, so they never disagree.
EFFECTIVE_LABELS = {
    "active": "Ativo", "revoked": "Revogado", "superseded": "Substituído", "expired": "Vencido",
    "suspenso": "Sem validade: permissão suspensa", "cassado": "Sem validade: permissão cassada",
    "vencido": "Sem validade: permissão vencida", "caducado": "Sem validade: permissão caducada",
    "extinto": "Sem validade: permissão extinta",
}


def effective_label(status, municipality=None):
    """EFFECTIVE_LABELS with the permit named as the municipality's law does ("Sem validade:
    alvará de autorização suspenso" in Sapezal)."""
    if status in ("active", "revoked", "superseded", "expired") or municipality is None:
        return EFFECTIVE_LABELS.get(status, status)
    words = vocabulary(municipality)
    return f"Sem validade: {words.permit} {words.status(status).lower()}"


EFFECTIVE_BADGE = {"active": "ativo", "revoked": "cassado", "superseded": "cassado", "expired": "vencido",
                   "suspenso": "suspenso", "cassado": "cassado", "vencido": "vencido", "caducado": "caducado",
                   "extinto": "extinto"}


def effective_status(credential, today=None) -> str:
    if credential.status != "active":
        return credential.status
    permit_status = credential_list_status(credential.permit.status)
    if permit_status != "active":
        return permit_status
    return "expired" if credential.expires_on < (today or local_today()) else "active"


# --- credentials ------------------------------------------------------------------------------

def issue_credential(permit, actor=None, reason="emissão", attempts=3) -> Credential:
    """Sign a new credential for the permit and its driver. Any earlier active credential of the
    permit (renewal, vehicle change, lost crachá) becomes superseded in the same transaction.

    Serials are max+1 per municipality; two issues racing for the same serial make the loser's
    INSERT fail on the unique constraint, and it simply takes the next serial. Only that INSERT
    runs in a SAVEPOINT, so a lost race takes back the one row, never what the caller staged
    before (the permit just issued or renewed in the same request); a refusal stages nothing."""
    municipality, key = _issuer_of(permit)
    db.session.flush()  # the caller's own changes go before the savepoint: their errors are theirs
    for attempt in range(attempts):
        credential = _signed_credential(permit, municipality, key)
        try:
            with db.session.begin_nested():
                db.session.add(credential)
                db.session.flush()
        except IntegrityError:
            if attempt == attempts - 1:
                raise ApiError(409, "busy", "Outro crachá foi emitido ao mesmo tempo; tente novamente.") from None
            continue
        _record_issue(permit, credential, key, reason, actor)
        db.session.flush()
        return credential


def _issuer_of(permit):
    """(municipality, its active key) for a permit that may have a crachá; ApiError otherwise."""
    if permit.status != "ativo":
        raise ApiError(409, "permit_not_active", "Só se emite crachá para permissão ativa.")
    if permit.valid_until < local_today():
        raise ApiError(409, "permit_expired", "A validade da permissão já terminou.")
    try:
        check_permit_number(permit.number)
    except ValueError as err:
        raise ApiError(422, "validation_error", "Número de permissão não cabe no crachá.",
                       {"number": [str(err)]}) from None
    municipality = db.session.get(Municipality, permit.municipality_id)
    key = active_key(municipality)
    if key is None:
        raise ApiError(409, "no_active_key", "O município não tem chave ativa: crie uma (flask keys create).")
    return municipality, key


def _signed_credential(permit, municipality, key) -> Credential:
    """The next serial's crachá, signed; not yet in the session."""
    serial = (db.session.query(func.max(Credential.serial))
              .filter_by(municipality_id=municipality.id).scalar() or 0) + 1
    body = Body(kid=key.kid, ibge_code=int(municipality.ibge_code), serial=serial,
                expires_on=permit.valid_until, permit_number=permit.number)
    body_bytes = encode_body(body)
    payload = make_url_payload(body_bytes, signing.sign(keystore.load_private_key(key), body_bytes),
                               public_base_url(municipality))
    driver = permit.main_driver
    return Credential(municipality_id=municipality.id, serial=serial, permit_id=permit.id,
                      operator_id=driver.id if driver else None, issuer_key_id=key.id,
                      permit_number=permit.number, issued_at=utcnow(), expires_on=permit.valid_until,
                      payload=payload, status="active")


def _record_issue(permit, credential, key, reason, actor):
    """The earlier active crachás superseded, the status list and the audit, for one issued."""
    municipality_id = credential.municipality_id
    previous = Credential.query.filter(Credential.permit_id == permit.id, Credential.status == "active",
                                       Credential.id != credential.id).all()
    for old in previous:
        old.status, old.revoked_reason, old.revoked_at = "superseded", reason, utcnow()
        old.superseded_by_id = credential.id
        append_status(municipality_id, "credential", old.serial, "superseded", reason)
        record("credential_supersede", "credential", old.id, {"status": "active"}, {"status": "superseded"},
               reason=reason, municipality_id=municipality_id, actor=actor)
    append_status(municipality_id, "credential", credential.serial, "active")
    record("credential_issue", "credential", credential.id, None,
           {"serial": credential.serial, "permit": permit.number, "kid": key.kid,
            "expires_on": credential.expires_on.isoformat()},
           reason=reason, municipality_id=municipality_id, actor=actor)


def revoke_credential(credential, reason, actor=None) -> Credential:
    if not reason:
        raise ApiError(422, "validation_error", "Informe o motivo.", {"reason": ["Obrigatório."]})
    if credential.status != "active":
        raise ApiError(409, "not_active", "A credencial não está ativa.")
    credential.status, credential.revoked_reason, credential.revoked_at = "revoked", reason, utcnow()
    append_status(credential.municipality_id, "credential", credential.serial, "revoked", reason)
    record("credential_revoke", "credential", credential.id, {"status": "active"}, {"status": "revoked"},
           reason=reason, municipality_id=credential.municipality_id, actor=actor)
    db.session.flush()
    return credential


def latest_credential(permit) -> Credential | None:
    return Credential.query.filter_by(permit_id=permit.id).order_by(Credential.id.desc()).first()


def find_permit(municipality, number) -> Permit:
    permit = Permit.query.filter_by(municipality_id=municipality.id, number=number).first()
    if permit is None:
        raise ApiError(404, "not_found", f"Permissão {number} não encontrada.")
    return permit


# --- trust data for devices -------------------------------------------------------------------

def iso_utc(dt):
    return as_utc(dt).astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


_iso = iso_utc


def trust_keys(municipality):
    """Every key the municipality ever had (at most 255 of 43 characters): with fresh data, a key
    id missing from this list is one a forger made up, and the verdict is INVÁLIDO (issue 8)."""
    keys = IssuerKey.query.filter_by(municipality_id=municipality.id).order_by(IssuerKey.kid).all()
    return [{"kid": k.kid, "public_key": k.public_key, "status": k.status, "revoked_reason": k.revoked_reason}
            for k in keys]


def trust_state_tag(municipality) -> str:
    """ETag base: changes whenever an entry or a key changes."""
    last = db.session.query(func.max(StatusListEntry.id)).filter_by(municipality_id=municipality.id).scalar() or 0
    return f"{municipality.id}-{last}-{local_today().isoformat()}"


def trust_head(municipality) -> dict:
    """What every answer carries besides the statuses: the municipality, the server's clock, the
    freshness limit and every key."""
    return {
        "municipality": {"ibge_code": int(municipality.ibge_code), "slug": municipality.slug,
                         "name": municipality.name,
                         # The same calendar as the server's (core.clock), so a crachá expires
                         # on the same local day on the phone and on the server.
                         "utc_offset_minutes": int(municipality.setting(
                             "utc_offset_minutes", local_now().utcoffset().total_seconds() // 60)),
                         # The law's word for the permit, for the verdict texts (verifier docstring).
                         "permit_noun": vocabulary(municipality).permit,
                         "permit_feminine": vocabulary(municipality).feminine},
        "generated_at": _iso(utcnow()),
        "max_age_seconds": int(current_app.config.get("TRUST_DATA_MAX_AGE_HOURS", 72)) * 3600,
        "keys": trust_keys(municipality),
    }


def latest_entries(municipality_id, cursor=0):
    """The last entry of each (kind, ref) among those after the cursor, in cursor order: the whole
    change since the cursor, each permit, crachá and key once in its current state. Complete by
    construction (no pages): entry ids are drawn in commit order (append_status), so nothing
    after the cursor is left for a later answer, and a device is whole after one request."""
    last = (db.session.query(func.max(StatusListEntry.id).label("id"))
            .filter(StatusListEntry.municipality_id == municipality_id, StatusListEntry.id > cursor)
            .group_by(StatusListEntry.kind, StatusListEntry.ref).subquery())
    e = StatusListEntry
    # Columns, not entities: 20,000 ORM objects cost more than the query itself.
    return (db.session.query(e.id, e.kind, e.ref, e.status, e.reason, e.changed_at)
            .join(last, last.c.id == e.id).order_by(e.id).all())


def grouped_statuses(entries) -> dict:
    """{"permit": {status: [numbers, sorted]}, "credential": {status: [serials as deltas]},
    "key": {status: [kids as deltas]}}: ~5x less gzip than one object per entry (10,000 permits:
    94 -> ~23 KB, bench/field_data.py), and what the verifier reads is all there."""
    groups = {"permit": {}, "credential": {}, "key": {}}
    for e in entries:
        groups[e.kind].setdefault(e.status, []).append(e.ref)
    out = {"permit": {status: sorted(refs) for status, refs in groups["permit"].items()}}
    for kind in ("credential", "key"):
        out[kind] = {}
        for status, refs in groups[kind].items():
            numbers, previous, deltas = sorted(int(r) for r in refs), 0, []
            for n in numbers:
                deltas.append(n - previous)
                previous = n
            out[kind][status] = deltas
    return out


def trust_data(municipality, cursor=0, fmt="entries", with_entries=True) -> dict:
    """The trust data a device merges after its cursor (0: all of it). `entries`: one object per
    (kind, ref); `grouped`: refs grouped by status (grouped_statuses), the field app's. Never paged:
    `more` stays in the answer, always false, for the shells that still read it."""
    data = trust_head(municipality)
    entries = latest_entries(municipality.id, cursor) if with_entries else []
    data["next_cursor"] = entries[-1].id if entries else cursor
    data["more"] = False
    if fmt == "grouped":
        data["entries"] = []
        data["status"] = grouped_statuses(entries)
    else:
        data["entries"] = [{"cursor": e.id, "kind": e.kind, "ref": e.ref, "status": e.status, "reason": e.reason,
                            "changed_at": _iso(e.changed_at)} for e in entries]
    return data


def payload_municipality(payload):
    """(municipality, body) that a payload names, or (None, body-or-None) when it is malformed or
    names a municipality this server does not serve."""
    try:
        body = split_payload(payload)[1]
    except CodecError:
        return None, None
    return municipality_by_ibge(body.ibge_code), body


def municipality_by_ibge(ibge_code: int) -> Municipality | None:
    """The payload carries the 7-digit IBGE code as an integer; the registry keeps it as text."""
    return Municipality.query.filter_by(ibge_code=f"{ibge_code:07d}").first()


def trust_for_payload(municipality, body) -> dict:
    """Trust data reduced to what one payload needs, read from the registry itself (the permit's
    and the crachá's current state), so the public page and the CLI always follow the permit:
    two indexed queries instead of the municipality's whole history."""
    data = trust_data(municipality, with_entries=False)
    credential = Credential.query.filter_by(municipality_id=municipality.id, serial=body.serial).first()
    if credential is not None and credential.permit_number == body.permit_number:
        permit = credential.permit  # the permit it was issued for, even if renumbered since
        data["entries"].append({"cursor": 2, "kind": "credential", "ref": str(body.serial),
                                "status": credential.status if credential.status != "active"
                                else credential_list_status(permit.status)})
    else:
        permit = Permit.query.filter_by(municipality_id=municipality.id, number=body.permit_number).first()
    if permit is not None:
        data["entries"].append({"cursor": 1, "kind": "permit", "ref": body.permit_number, "status": permit.status})
    return data


# --- printing ---------------------------------------------------------------------------------

def card_data(credential) -> CardData:
    permit, operator = credential.permit, credential.operator
    municipality = db.session.get(Municipality, credential.municipality_id)
    blood = operator.blood_type if operator is not None and municipality.setting("badge_blood_type") else None
    return CardData(
        municipality_name=municipality.name, uf=municipality.uf, permit_number=credential.permit_number,
        operator_name=operator.name if operator else permit.holder_name,
        plate=permit.vehicle.plate if permit.vehicle else "—",
        ponto=permit.ponto.name if permit.ponto else "—",
        permit_label=vocabulary(municipality).permit.upper(),
        valid_until=credential.expires_on, serial=credential.serial, payload=credential.payload,
        issued_on=as_utc(credential.issued_at).date(), blood_type=blood, photo=read_operator_photo(operator),
        legal_basis=municipality.setting("badge_legal_basis"),
        company=(permit.holder_company.trade_name or permit.holder_company.legal_name)
        if permit.holder_company else None)


def write_files(credential, out_dir) -> dict:
    """Payload text, crachá PNG and PDF, vest sticker sheet; returns {kind: path}."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    card = card_data(credential)
    stem = f"cracha-{credential.serial:06d}"
    files = {"payload": out / f"{stem}.txt", "png": out / f"{stem}.png", "pdf": out / f"{stem}.pdf",
             "stickers": out / f"{stem}-adesivos.pdf"}
    files["payload"].write_text(credential.payload + "\n")
    files["png"].write_bytes(card_png_bytes(card))
    files["pdf"].write_bytes(card_pdf_bytes(card))
    files["stickers"].write_bytes(sticker_sheet_pdf_bytes(card))
    return files


def current_payload(permit) -> str | None:
    """QR payload of the permit's active crachá (for the operator's digital crachá), or None."""
    credential = Credential.query.filter_by(permit_id=permit.id, status="active").order_by(
        Credential.id.desc()).first()
    return credential.payload if credential else None
