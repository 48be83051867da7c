"""Operator access: accounts and single-use first-access codes, activation, the crachá view.

The back office calls create_operator_access(); the field app calls activate() and then reads
badge_for(). Codes are stored hashed (sha256, as API tokens), are single use (claimed with a
conditional UPDATE, so two phones racing with one code cannot both win) and expire.
"""
import secrets
from datetime import timedelta

from sqlalchemy import or_, update

from ...core.audit import record
from ...core.auth import hash_token, utcnow
from ...core.clock import local_today
from ...core.errors import ApiError
from ...extensions import db
from ..accounts.identity import issue_api_token
from ..accounts.models import FirstAccessCode, User
from ..accounts.operations import revoke_tokens
from ..credentials.models import Credential
from ..issuance.alerts import permit_alerts as alerts
from ..registry.models import PERMIT_KINDS, PERMIT_STATUS_LABELS, Municipality, Permit, permit_drivers

# No 0/O, 1/I/L, 5/S, 2/Z: the code is read from paper and typed with gloves on.
CODE_ALPHABET = "346789ABCDEFGHJKMNPQRTUVWXY"
# 16 symbols of 27: log2(27) × 16 ≈ 76 bits (27^16 ≈ 7.9e22 codes). Even 10,000 codes alive at
# once against a botnet guessing 10 million codes a minute (every address at its own limit) give
# one hit in about 1.5 million years, and a code lives 7 days: guessing is hopeless without any
# lock shared by a municipality's operators, so none exists (issue 20; core/ratelimit.py limits
# activation per address and per code only). The code travels in the QR/link of the back
# office's code page; typed, it is four groups of four.
CODE_LENGTH = 16
CODE_GROUP = 4
CODE_TTL_HOURS = 24 * 7


def normalize_code(text: str) -> str:
    return "".join(ch for ch in (text or "").upper() if ch.isalnum())


def new_code() -> str:
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return "-".join(raw[i:i + CODE_GROUP] for i in range(0, CODE_LENGTH, CODE_GROUP))


def ensure_operator_user(operator):
    """The operator's account (role operator), created on first need. No password: codes only."""
    user = User.query.filter_by(operator_id=operator.id).first()
    if user is None:
        user = User(username=f"operador.{operator.municipality_id}.{operator.id}", name=operator.name,
                    role="operator", municipality_id=operator.municipality_id, operator_id=operator.id)
        db.session.add(user)
        db.session.flush()
    return user


def create_operator_access(operator, ttl_hours=CODE_TTL_HOURS):
    """Account + a fresh first-access code (earlier unused codes stop working, and so does the
    token of the phone activated with an earlier code: a new code is asked for when the phone
    is lost or changed). Returns the code text, to be handed to the operator once; only its
    hash is kept."""
    user = ensure_operator_user(operator)
    now = utcnow()
    ended = revoke_tokens(user_id=user.id)
    db.session.execute(update(FirstAccessCode)
                       .where(FirstAccessCode.user_id == user.id, FirstAccessCode.used_at.is_(None))
                       .values(expires_at=now)
                       .execution_options(synchronize_session=False))
    text = new_code()
    db.session.add(FirstAccessCode(user_id=user.id, code_hash=hash_token(normalize_code(text)),
                                   created_at=now, expires_at=now + timedelta(hours=ttl_hours)))
    record("first_access_code_issued", "user", user.id, after={"tokens_revoked": ended},
           municipality_id=user.municipality_id)
    db.session.flush()
    return text


INVALID_CODE = "Código inválido, expirado ou já utilizado. Peça um novo código ao setor de cadastro."


def activate(municipality_slug: str, code_text: str):
    """Trade a first-access code for an API token. Returns (token_text, ApiToken); the request commits
    the claim with the token, so a code is used up only by an activation that answered 200."""
    muni = Municipality.query.filter_by(slug=(municipality_slug or "").strip().lower()).first()
    code = FirstAccessCode.query.filter_by(code_hash=hash_token(normalize_code(code_text))).first()
    user = code.user if code is not None else None
    if (muni is None or user is None or user.municipality_id != muni.id
            or user.role != "operator" or not user.active):
        raise ApiError(422, "invalid_code", INVALID_CODE, {"code": [INVALID_CODE]})
    now = utcnow()
    claimed = db.session.execute(
        update(FirstAccessCode)
        .where(FirstAccessCode.id == code.id, FirstAccessCode.used_at.is_(None),
               FirstAccessCode.expires_at > now)
        .values(used_at=now)
        # Evaluated by the database alone (SQLite hands back naive datetimes to Python).
        .execution_options(synchronize_session=False))
    if claimed.rowcount != 1:  # nothing changed: the 422 keeps nothing (the refusal is counted by core.ratelimit)
        raise ApiError(422, "invalid_code", INVALID_CODE, {"code": [INVALID_CODE]})
    text, token = issue_api_token(user)
    user.last_login_at = now
    record("operator_activated", "user", user.id, actor=user, municipality_id=muni.id)
    db.session.flush()  # inside the view's crossing: row-level security judges the rows here
    return text, token


def permit_for(operator):
    """The permit shown on the crachá: held or driven by the operator; an active one first,
    then the one valid longest."""
    permits = (Permit.query
               .outerjoin(permit_drivers, permit_drivers.c.permit_id == Permit.id)
               .filter(Permit.municipality_id == operator.municipality_id,
                       or_(Permit.holder_operator_id == operator.id,
                           permit_drivers.c.operator_id == operator.id))
               .all())
    if not permits:
        return None
    return sorted(permits, key=lambda p: (p.status == "ativo", p.valid_until), reverse=True)[0]


def current_credential(permit, operator):
    """The permit's active crachá if it was issued to this operator (a company permit's crachá
    names one driver), else None: no crachá issued yet, revoked, or another driver's."""
    credential = (Credential.query.filter_by(permit_id=permit.id, status="active")
                  .order_by(Credential.id.desc()).first())
    if credential is None or credential.operator_id not in (None, operator.id):
        return None
    return credential


def autos_for(operator):
    """The operator's autos with appeal deadlines. Autos arrive with a later issue."""
    return []


def permit_alerts(permit, today):
    return alerts(permit, today)


def badge_for(user):
    """What the operator's phone keeps and shows. LGPD: no CPF, CNH, address, birth date or
    blood type — only what the crachá prints and a fiscal compares."""
    operator = user.operator
    if user.role != "operator" or operator is None:
        raise ApiError(403, "forbidden")
    muni = db.session.get(Municipality, operator.municipality_id)
    permit = permit_for(operator)
    # The phone shows a scannable QR only while the permit is ativo: a suspended or revoked
    # operator must not carry a digital crachá that looks valid (the printed one still verifies
    # as SUSPENSO/CASSADO for a fiscal, from the status list).
    credential = current_credential(permit, operator) if permit and permit.status == "ativo" else None
    return {
        "name": operator.name,
        "photo_url": "/api/v1/operator/photo" if operator.photo_path else None,
        # ibge: the phone keeps this municipality's device keys, to verify a fiscal's signed copy offline.
        "municipality": {"slug": muni.slug, "name": muni.name, "uf": muni.uf, "ibge": muni.ibge_code},
        "holder_company": (operator.company.trade_name or operator.company.legal_name)
        if operator.company else None,
        "permit_number": permit.number if permit else None,
        "permit_kind": permit.kind if permit else None,
        "permit_kind_label": PERMIT_KINDS.get(permit.kind) if permit else None,
        "plate": permit.vehicle.plate if permit and permit.vehicle else None,
        "status": permit.status if permit else None,
        "status_label": PERMIT_STATUS_LABELS.get(permit.status) if permit else None,
        "valid_until": permit.valid_until if permit else None,
        "credential_payload": credential.payload if credential else None,
        "credential_serial": credential.serial if credential else None,
        "autos": autos_for(operator),
        "alerts": permit_alerts(permit, local_today()) if permit else [],
    }
