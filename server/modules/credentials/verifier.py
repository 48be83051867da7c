"""Offline credential verification: payload + trust data + clock -> verdict. Pure (no Flask,
no database); pwa/js/credentials/verify.js follows the same steps in the same order, and both are
held to tests/vectors/credentials/vectors.json.

Trust data is what a device holds after syncing GET /api/v1/trust/<municipality>:
    {"municipality": {"ibge_code", "slug", "name", "utc_offset_minutes"},
     "generated_at": ISO-8601 UTC, "max_age_seconds": freshness limit,
     "keys": [{"kid", "public_key" (base64url raw), "status": active|retired|revoked,
               "revoked_reason"}],
     "entries": [{"cursor", "kind": permit|credential|key, "ref", "status", "reason"}...],
     "status": {"permit": {status: [numbers]}, "credential": {status: [serial deltas]},
                "key": {status: [kid deltas]}}}   (format=grouped, instead of entries)
Entries are applied in cursor order; the last one for a (kind, ref) wins; `status` after them.

Order of checks (first match decides), see docs/credentials.md:
 1 malformed (empty, prefix, base45/base32, length, version) -> INVÁLIDO
 2 other municipality                                      -> INVÁLIDO
 3 unknown key id: fresh data -> INVÁLIDO (a forger picks one); stale data -> DESCONHECIDO
 4 bad signature                                           -> INVÁLIDO
 5 issuer key revoked                                      -> INVÁLIDO
 6 expiry date passed (signed, needs no status data)       -> VENCIDO
 7 credential revoked or superseded (final states)         -> INVÁLIDO
 8 device clock before the data / data older than limit    -> DESCONHECIDO
 9 permit cassado / suspenso / vencido / caducado / extinto -> CASSADO / SUSPENSO / VENCIDO / CADUCADO / INVÁLIDO
   (also when only the credential's entry carries that permit status: a crachá follows its permit)
10 permit or credential absent from the data               -> DESCONHECIDO
11 otherwise                                               -> VÁLIDO

Reason texts name the permit as the municipality's law does ("Alvará de autorização caducado",
"Permissão suspensa"): the trust data's municipality carries `permit_noun` and `permit_feminine`
(registry.vocabulary); `{P}`/`{p}` in a text is the noun (capitalised / as is) and `{o}` the
ending that agrees with it. Without them the words are the neutral "permissão".
"""
import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

from . import signing
from .codec import CodecError, split_payload

VALIDO, INVALIDO, SUSPENSO, CASSADO, VENCIDO, CADUCADO, DESCONHECIDO = (
    "VÁLIDO", "INVÁLIDO", "SUSPENSO", "CASSADO", "VENCIDO", "CADUCADO", "DESCONHECIDO")

REASONS = {
    "ok": (VALIDO, "Credencial autêntica, {p} ativ{o}."),
    "empty": (INVALIDO, "Conteúdo vazio."),
    "bad_prefix": (INVALIDO, "Este QR não é um crachá Motofiscal."),
    "bad_base45": (INVALIDO, "Conteúdo corrompido (caracteres inválidos)."),
    "bad_base32": (INVALIDO, "Conteúdo corrompido (caracteres inválidos)."),
    "bad_length": (INVALIDO, "Conteúdo corrompido ou incompleto."),
    "bad_body": (INVALIDO, "Conteúdo corrompido."),
    "unsupported_version": (INVALIDO, "Versão de crachá não suportada."),
    "other_municipality": (INVALIDO, "Credencial emitida por outro município."),
    "unknown_key": (INVALIDO, "Chave do emissor desconhecida com dados atualizados: crachá falsificado."),
    "unknown_key_stale": (DESCONHECIDO, "Chave do emissor desconhecida e dados desatualizados: sincronize o aparelho."),
    "bad_signature": (INVALIDO, "Assinatura inválida: crachá adulterado ou falsificado."),
    "key_revoked": (INVALIDO, "Chave do emissor revogada."),
    "expired": (VENCIDO, "Credencial vencida."),
    "clock_behind": (DESCONHECIDO, "Relógio do aparelho anterior aos dados: confira data e hora."),
    "stale_data": (DESCONHECIDO, "Dados desatualizados: sincronize o aparelho."),
    "permit_cassado": (CASSADO, "{P} cassad{o}."),
    "permit_suspenso": (SUSPENSO, "{P} suspens{o}."),
    "permit_vencido": (VENCIDO, "{P} vencid{o}."),
    "permit_caducado": (CADUCADO, "{P} caducad{o} (não renovad{o} no prazo)."),
    "permit_extinto": (INVALIDO, "{P} extint{o}."),
    "credential_revoked": (INVALIDO, "Credencial revogada."),
    "credential_superseded": (INVALIDO, "Credencial substituída por uma via mais recente."),
    "permit_unknown": (DESCONHECIDO, "{P} ausente dos dados do aparelho."),
    "credential_unknown": (DESCONHECIDO, "Credencial emitida após a última atualização dos dados."),
}

PERMIT_STATUS_REASON = {
    "cassado": "permit_cassado",
    "suspenso": "permit_suspenso",
    "vencido": "permit_vencido",
    "caducado": "permit_caducado",
    "extinto": "permit_extinto",
}
CREDENTIAL_STATUS_REASON = {"revoked": "credential_revoked", "superseded": "credential_superseded"}


@dataclass
class Trust:
    """Trust data indexed for lookups; build once per sync with prepare_trust()."""
    ibge_code: int
    utc_offset: timedelta
    generated_at: datetime
    max_age_seconds: int
    keys: dict = field(default_factory=dict)  # kid -> {"key": Ed25519PublicKey, "status", "reason"}
    permits: dict = field(default_factory=dict)  # permit number -> status
    credentials: dict = field(default_factory=dict)  # serial (str) -> status
    permit_noun: str = "permissão"  # the law's word for the permit (registry.vocabulary)
    permit_feminine: bool = True


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(timezone.utc)


def grouped_entries(status: dict):
    """(kind, ref, status) of a `status` object (format=grouped): permit numbers as they are,
    crachá serials and kids as the differences from the previous one in the list."""
    for kind, by_status in status.items():
        for state, refs in by_status.items():
            previous = 0
            for ref in refs:
                if kind == "permit":
                    yield kind, str(ref), state
                else:
                    previous += int(ref)
                    yield kind, str(previous), state


def prepare_trust(data: dict) -> Trust:
    muni = data["municipality"]
    trust = Trust(
        ibge_code=int(muni["ibge_code"]),
        utc_offset=timedelta(minutes=int(muni.get("utc_offset_minutes", -240))),
        generated_at=parse_time(data["generated_at"]),
        max_age_seconds=int(data["max_age_seconds"]),
        permit_noun=muni.get("permit_noun") or "permissão",
        permit_feminine=bool(muni.get("permit_feminine", True)),
    )
    for key in data.get("keys", []):
        trust.keys[int(key["kid"])] = {
            "key": signing.load_public(signing.b64url_decode(key["public_key"])),
            "status": key["status"],
            "reason": key.get("revoked_reason"),
        }
    entries = [(e["kind"], str(e["ref"]), e["status"])
               for e in sorted(data.get("entries", []), key=lambda e: e.get("cursor", 0))]
    for kind, ref, status in entries + list(grouped_entries(data.get("status") or {})):
        if kind == "permit":
            trust.permits[ref] = status
        elif kind == "credential":
            trust.credentials[ref] = status
        elif kind == "key" and int(ref) in trust.keys:
            trust.keys[int(ref)]["status"] = status
    return trust


def _verdict(code: str, age: int, body=None) -> dict:
    verdict, reason_pt = REASONS[code]
    return {
        "verdict": verdict,
        "reason_code": code,
        "reason_pt": reason_pt,
        "data_age_seconds": age,
        "credential": body.as_dict() if body else None,
    }


def worded(text: str, noun: str = "permissão", feminine: bool = True) -> str:
    """A reason text with the permit named as the law names it (see the module docstring)."""
    return (text.replace("{P}", noun[:1].upper() + noun[1:]).replace("{p}", noun)
            .replace("{o}", "a" if feminine else "o"))


def verify(payload: str, trust: Trust, now: datetime) -> dict:
    result = _decide(payload, trust, now)
    result["reason_pt"] = worded(result["reason_pt"], trust.permit_noun, trust.permit_feminine)
    return result


def _decide(payload: str, trust: Trust, now: datetime) -> dict:
    age = math.floor((now - trust.generated_at).total_seconds())
    try:
        body_bytes, body, signature = split_payload(payload)
    except CodecError as err:
        return _verdict(err.code, age)
    if body.ibge_code != trust.ibge_code:
        return _verdict("other_municipality", age, body)
    key = trust.keys.get(body.kid)
    if key is None:
        # Fresh data lists every key the municipality ever used: an unknown one is made up.
        # The fields are unverified either way, so they are not shown (as for a bad signature).
        fresh = 0 <= age <= trust.max_age_seconds
        return _verdict("unknown_key" if fresh else "unknown_key_stale", age)
    if not signing.verify(key["key"], signature, body_bytes):
        return _verdict("bad_signature", age)  # unsigned fields are not shown
    if key["status"] == "revoked":
        return _verdict("key_revoked", age, body)
    if (now + trust.utc_offset).date() > body.expires_on:
        return _verdict("expired", age, body)
    credential_status = trust.credentials.get(str(body.serial))
    if credential_status in CREDENTIAL_STATUS_REASON:
        return _verdict(CREDENTIAL_STATUS_REASON[credential_status], age, body)
    if age < 0:
        return _verdict("clock_behind", age, body)
    if age > trust.max_age_seconds:
        return _verdict("stale_data", age, body)
    permit_status = trust.permits.get(body.permit_number)
    if permit_status in PERMIT_STATUS_REASON:
        return _verdict(PERMIT_STATUS_REASON[permit_status], age, body)
    if credential_status in PERMIT_STATUS_REASON:
        return _verdict(PERMIT_STATUS_REASON[credential_status], age, body)
    if permit_status != "ativo":
        return _verdict("permit_unknown", age, body)
    if credential_status != "active":
        return _verdict("credential_unknown", age, body)
    return _verdict("ok", age, body)
