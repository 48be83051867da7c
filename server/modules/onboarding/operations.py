"""Starting a real municipality without the demo: the municipality with its law pack, its first
issuer key and the pontos its law names, then its first administrator. Audited; staged only (the
page's request or the `flask municipality create` command commits it all, or none of it)."""
import re
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from marshmallow import ValidationError

from ...core.audit import record, snapshot
from ...core.errors import ApiError, flatten_fields
from ...core.validation import fold
from ...extensions import db
from ...rules.compose import read_packs
from ..accounts.operations import create_user
from ..accounts.schemas import UserCreateSchema
from ..credentials.operations import create_key
from ..credentials.render import check_public_base_url
from ..registry.changes import mark_changed
from ..registry.legal import create_legal_pontos
from ..registry.models import Municipality
from ..registry.public_address import SETTING, own_public_base_url
from ..rules.service import FEDERAL_PACK

# The value chosen when the municipality's law has no pack yet: it runs on the federal layer alone.
NO_PACK = "nenhum"
UFS = ("AC AL AP AM BA CE DF ES GO MA MT MS MG PA PB PR PE PI RJ RN RS RO RR SC SP SE TO").split()
# What a law without `registry` in its pack calls the permit, and who holds it.
DEFAULT_REGISTRY = {"permit_label": "Alvará de autorização", "holder": "person"}


def municipal_packs(include_synthetic=False):
    """{pack id: municipality slug the pack is written for} of every municipal law pack on disk
    (amendment packs are part of the law they amend). Synthetic examples (a fictional
    municipality's law, `synthetic: true`) only when asked: never offered as a real municipality."""
    return {p["id"]: p["municipality"] for _, p in read_packs()
            if p.get("kind") == "municipal" and not p.get("amends") and (include_synthetic or not p.get("synthetic"))}


def pack_registry(pack_id):
    """The pack's `registry` words (permit label, holder), as the law names them."""
    pack = next((p for _, p in read_packs() if p.get("id") == pack_id), {})
    return {**DEFAULT_REGISTRY, **{k: v for k, v in (pack.get("registry") or {}).items() if k in DEFAULT_REGISTRY}}, \
        bool(pack.get("synthetic"))


def _error(field, message, status=422):
    return ApiError(status, "validation_error", "Dados inválidos.", {field: [message]})


def slug_for(name):
    return re.sub(r"[^a-z0-9]+", "-", fold(name)).strip("-")[:40]


def create_municipality(ibge_code, name, uf, pack, time_zone, public_base_url, actor=None, allow_synthetic=False):
    """Validate, create the municipality, its legal pontos and its first issuer key, in one go. A
    synthetic example's pack (a fictional municipality) only with `allow_synthetic`: it is then
    marked as an example everywhere it appears (settings["synthetic_example"])."""
    ibge_code, name, uf = (ibge_code or "").strip(), (name or "").strip(), (uf or "").strip().upper()
    if not re.fullmatch(r"\d{7}", ibge_code):
        raise _error("ibge_code", "O código IBGE tem 7 dígitos.")
    if len(name) < 2 or len(name) > 120:
        raise _error("name", "Informe o nome do município (2 a 120 caracteres).")
    if uf not in UFS:
        raise _error("uf", "UF inválida (sigla de 2 letras, ex.: MT).")
    try:
        ZoneInfo(time_zone or "")
    except (ZoneInfoNotFoundError, ValueError):
        raise _error("time_zone", "Fuso horário desconhecido (ex.: America/Cuiaba).") from None
    public_base_url = checked_public_address(public_base_url)
    packs = municipal_packs(include_synthetic=allow_synthetic)
    if pack in municipal_packs(include_synthetic=True) and pack not in packs:
        raise _error("pack", "Este pacote é um exemplo sintético (município fictício), não a lei de um município "
                             "real: só é criado com a opção explícita --allow-synthetic-example.")
    if pack == NO_PACK:
        slug, regimes = slug_for(name), [FEDERAL_PACK]
        if slug in packs.values():
            raise _error("pack", "Há um pacote de regras para este município: escolha-o.")
    elif pack in packs:
        slug, regimes = packs[pack], [FEDERAL_PACK, pack]
    else:
        raise _error("pack", "Pacote de regras desconhecido.")
    if Municipality.query.filter_by(ibge_code=ibge_code).first() is not None:
        raise _error("ibge_code", "Já existe um município com este código IBGE.", 409)
    if not slug or Municipality.query.filter_by(slug=slug).first() is not None:
        raise _error("name", "Já existe um município com este nome.", 409)
    words, synthetic = pack_registry(pack) if pack != NO_PACK else (dict(DEFAULT_REGISTRY), False)
    settings = dict(words)
    if synthetic:
        settings["synthetic_example"] = True
    # Recorded with the municipality; the running server's TIMEZONE is the one used (one deployment
    # per municipality: `flask municipality create` warns when they differ). The public address is
    # the municipality's own (registry.public_address): its crachás and notificações print it.
    settings.update(time_zone=time_zone, public_base_url=public_base_url)
    muni = Municipality(slug=slug, ibge_code=ibge_code, name=name, uf=uf, regimes=regimes, settings=settings)
    db.session.add(muni)
    db.session.flush()
    create_legal_pontos(muni)
    db.session.flush()
    record("create", "municipality", muni.id, None, snapshot(muni), municipality_id=muni.id, actor=actor)
    create_key(muni, actor=actor)  # flushes what is staged here too
    return muni


def checked_public_address(value) -> str:
    """A municipality's "Endereço público" as stored: https://host[:porta], no path, short enough
    for its longest crachá to fit the QR (the same check PUBLIC_BASE_URL passes at start-up)."""
    value = (value or "").strip().rstrip("/")
    try:
        check_public_base_url(value)
    except ValueError:
        raise _error("public_base_url", "Endereço público inválido: https://host[:porta], sem caminho, "
                                        "com no máximo ~54 caracteres no nome do host.") from None
    return value


def set_public_address(municipality, value, actor=None):
    """Set (or, with an empty value, clear: the server's PUBLIC_BASE_URL is used) the address
    printed in the municipality's crachás and notificações from now on. Audited."""
    new = checked_public_address(value) if (value or "").strip() else None
    before = own_public_base_url(municipality)
    settings = dict(municipality.settings or {})
    if new is None:
        settings.pop(SETTING, None)
    else:
        settings[SETTING] = new
    municipality.settings = settings
    record("public_address", "municipality", municipality.id, {SETTING: before}, {SETTING: new},
           municipality_id=municipality.id, actor=actor)
    # The phones print it in the operator's copy (field data): a new version, or they keep the old.
    mark_changed(db.session.connection(), municipality.id, [("config", 0, False)])
    db.session.flush()
    return new


def create_admin(municipality, username, name, password, actor=None):
    """The municipality's administrator (municipality None: the platform administrator)."""
    try:
        data = UserCreateSchema().load({"username": username, "name": name, "role": "admin", "password": password})
    except ValidationError as err:
        raise ApiError(422, "validation_error", "Dados inválidos.", flatten_fields(err.messages)) from None
    return create_user(getattr(municipality, "id", None), data)
