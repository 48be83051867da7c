"""The first-day list of a municipality's administrator: what must be configured before the first
roadside day, each item's state read from the data it is about (never a flag someone ticks), with
where it is configured. "feito" and "pendente" for what the first day needs; "opcional" for what
has a working default (the server's address, the crachá's silhouette without a photo).

Required: the defence deadlines and the authority that decides (a notificação is refused without
them: autos.process_operations._check_notifiable), the decree amounts (an auto without its amount
says "a definir"), the fiscal units the amounts are written in, an active signing key, at least one
active fiscal and one enrolled phone, a crachá for every active permit, the municipal holidays of
the year (deadlines count them: Lei 9.093/1995 art. 2º; CC art. 132 § 1º).
"""
from dataclasses import dataclass, field
from datetime import date

from flask import url_for
from sqlalchemy import exists, func, or_, select

from ...core.clock import local_today, to_local
from ...core.errors import ApiError
from ...extensions import db
from ..accounts.models import Device, User
from ..autos.process_operations import described_steps, steps_for_municipality
from ..calendar.models import CalendarClosure
from ..credentials.bulk import without_current_credential
from ..credentials.operations import active_key
from ..registry.models import FISCAL_UNITS, Operator, Permit, UnitValue, permit_drivers
from ..registry.vocabulary import vocabulary
from ..registry.public_address import own_public_base_url, public_base_url
from ..rules.configuration_page import anchor
from ..rules.service import composed_for
from ..rules.settings import configurable_keys, current_values

DONE, PENDING, OPTIONAL = "feito", "pendente", "opcional"


@dataclass
class Item:
    key: str
    title: str
    required: bool
    state: str
    summary: str
    link: str | None = None
    link_label: str = "Configurar"
    details: list = field(default_factory=list)


def _state(ok, required):
    return DONE if ok else (PENDING if required else OPTIONAL)


def deadlines_item(muni):
    steps = described_steps(muni, steps_for_municipality(muni))
    gaps = []
    for step in steps:
        if step["days"] is None:
            gaps.append(f"{step['label_pt']}: prazo não fixado pela lei ({step['citation_pt']}).")
        if not step["authority_from_law"] and not step["authority_configured"]:
            gaps.append(f"{step['label_pt']}: a lei não indica a autoridade que julga.")
    if not steps:
        summary = "A lei não prevê defesa ou recurso: nada a configurar."
    elif gaps:
        summary = "Sem isto nenhuma notificação de autuação é emitida."
    else:
        summary = "; ".join(f"{s['label_pt']}: {s['days']} dias, julga {s['authority_shown']}" for s in steps) + "."
    return Item("prazos", "Prazos de defesa e autoridade", True, _state(not gaps, True), summary,
                url_for("autos.process_settings_page"), "Prazos e autoridades", gaps)


def amounts_items(muni):
    composed = composed_for(muni)
    keys = [k for k in configurable_keys(composed) if k["kind"] == "decree_amounts"]
    held = current_values(muni)["decree_amounts"]
    missing = [k for k in keys if not held.get(k["key"])]
    done = len(keys) - len(missing)
    if not keys:
        summary = "A lei não deixa valores de multa a decreto."
    else:
        summary = f"{done} de {len(keys)} valores definidos."
    link = url_for("rules_bo.configuration", _anchor=anchor(missing[0]) if missing else None)
    amounts = Item("valores", "Valores das multas fixados por decreto", True, _state(not missing, True), summary,
                   link, "Configuração das regras",
                   [f"Falta: {k['label_pt']}" for k in missing[:5]] +
                   ([f"… e mais {len(missing) - 5}."] if len(missing) > 5 else []))
    # The fiscal units the law's and the decrees' amounts are written in, each needs its value in R$.
    used = {(inf.get("amount") or {}).get("unit") for inf in composed.infractions}
    used |= {row.get("unit") for rows in held.values() if isinstance(rows, list) for row in rows if isinstance(row, dict)}
    used = sorted(u for u in used if u in FISCAL_UNITS)
    registered = {u for (u,) in db.session.query(UnitValue.unit).filter(UnitValue.municipality_id == muni.id).distinct()}
    lacking = [u for u in used if u not in registered]
    units = Item("unidades", "Valor das unidades fiscais", True, _state(not lacking, True),
                 ("Nenhuma multa em unidade fiscal." if not used else
                  f"Sem valor em R$: {', '.join(lacking)}." if lacking else f"{', '.join(used)} com valor em R$."),
                 url_for("backoffice.unit_values"), "Unidades fiscais")
    return [amounts, units]


def address_item(muni):
    own = own_public_base_url(muni)
    summary = (f"Crachás e notificações apontam para {own}." if own else
               f"Sem endereço próprio: crachás e notificações usam o do servidor, {public_base_url(muni)}.")
    return Item("endereco", "Endereço público", False, _state(own is not None, False), summary,
                url_for("first_day.page", _anchor="endereco"), "Definir endereço")


def key_item(muni):
    key = active_key(muni)
    summary = (f"Chave {key.kid} ativa desde {to_local(key.created_at):%d/%m/%Y}." if key is not None else
               "Sem chave ativa nenhum crachá nem notificação é assinado.")
    return Item("chave", "Chave de assinatura dos crachás", True, _state(key is not None, True), summary,
                url_for("first_day.page", _anchor="chave"), "Ver a chave" if key is not None else "Criar chave")


def people_items(muni):
    fiscais = User.query.filter_by(municipality_id=muni.id, role="fiscal", active=True).count()
    devices = Device.query.filter_by(municipality_id=muni.id, status="active").count()
    users_link = url_for("accounts_admin.users")
    return [
        Item("fiscais", "Fiscais com acesso", True, _state(fiscais > 0, True),
             f"{fiscais} fiscal(is) ativo(s)." if fiscais else "Nenhum fiscal cadastrado.", users_link, "Usuários"),
        Item("aparelhos", "Celulares dos fiscais registrados", True, _state(devices > 0, True),
             f"{devices} aparelho(s) ativo(s)." if devices else
             "Nenhum celular registrado: cada fiscal entra uma vez no aplicativo (/app/, \"Sou fiscal\") com sinal.",
             users_link + "#dispositivos", "Dispositivos"),
    ]


def credentials_items(muni):
    today = local_today()
    active = Permit.query.filter(Permit.municipality_id == muni.id, Permit.status == "ativo",
                                 Permit.valid_until >= today).count()
    lacking = without_current_credential(muni.id, today).count()
    permits = vocabulary(muni).permits
    if not active:
        cards = Item("crachas", "Crachás emitidos", True, PENDING,
                     f"Nenhum(a) {vocabulary(muni).permit} em vigor: importe o cadastro antes de emitir crachás.",
                     url_for("registry_import.start"), "Importar cadastro")
    else:
        cards = Item("crachas", "Crachás emitidos", True, _state(lacking == 0, True),
                     f"{active - lacking} de {active} {permits} em vigor com crachá.",
                     url_for("first_day.credential_batch_page"), "Emitir crachás em lote")
    drives = or_(exists().where(Permit.holder_operator_id == Operator.id, Permit.status == "ativo"),
                 exists(select(permit_drivers.c.permit_id).join(Permit, Permit.id == permit_drivers.c.permit_id)
                        .where(permit_drivers.c.operator_id == Operator.id, Permit.status == "ativo")))
    without_photo = (db.session.query(func.count(Operator.id))
                     .filter(Operator.municipality_id == muni.id, Operator.photo_path.is_(None),
                             Operator.anonymized_on.is_(None), drives).scalar())
    photos = Item("fotos", "Fotos dos operadores", False, _state(without_photo == 0, False),
                  f"Todos os condutores de {permits} em vigor têm foto." if not without_photo else
                  f"{without_photo} condutor(es) sem foto: o crachá sai com uma silhueta.",
                  url_for("first_day.photo_batch_page"), "Enviar fotos em lote (ZIP)")
    return [cards, photos]


def calendar_item(muni):
    year = local_today().year
    days = CalendarClosure.query.filter(CalendarClosure.municipality_id == muni.id,
                                        CalendarClosure.day.between(date(year, 1, 1), date(year, 12, 31))).count()
    return Item("calendario", "Calendário: feriados municipais e pontos facultativos", True, _state(days > 0, True),
                f"{days} dia(s) sem expediente registrado(s) em {year}." if days else
                f"Nenhum feriado municipal registrado em {year}: os prazos não o descontariam "
                "(Lei 9.093/1995, art. 2º; CC art. 132, § 1º).",
                url_for("backoffice.calendar_closures"), "Calendário")


def _rules_items(muni):
    """The items read from the composed law; a law pack the server cannot compose (removed from
    the published folder) is said once instead of failing the page and the dashboard."""
    try:
        return [deadlines_item(muni), *amounts_items(muni)]
    except ApiError as err:
        return [Item("regras", "Lei do município (pacote de regras)", True, PENDING, err.message,
                     url_for("rules_bo.catalogue"), "Legislação")]


def first_day_items(muni) -> list[Item]:
    return [*_rules_items(muni), address_item(muni), key_item(muni), *people_items(muni),
            *credentials_items(muni), calendar_item(muni)]


def pending_required(items) -> list[Item]:
    return [i for i in items if i.required and i.state == PENDING]
