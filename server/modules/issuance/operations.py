"""Every write of the issuance records, audited in the same transaction."""
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

from sqlalchemy.orm.attributes import flag_modified

from ...core.audit import current_actor, record, snapshot
from ...core.clock import local_today
from ...core.errors import ApiError
from ...core.tenancy import owned
from ...extensions import db
from ...rules.issqn_activity import READINGS, in_activity
from ...rules.legal_calendar import ctn_210_due
from ..calendar.service import calendar_of
from ..registry.changes import mark_changed
from ..registry.life_models import VehicleSubstitution
from ..registry.models import Company, Municipality, Operator, Permit, UnitValue, Vehicle
from ..rules.service import composed_for
from .models import DocumentCheck, InsurancePolicy, IssqnCharge, Vistoria
from .records import VISTORIA_PERIOD_SETTING
from .renewal import (ALL_FIRST_DOCUMENTS, ALL_FIRST_DOCUMENTS_SETTING, certidao_validity_error, check_window,
                      documents_for, subject_id)
from .vistoria_checklist import failed_items

# Nortelândia Lei 030/1998, art. 14: 0,500 UFM per motorcycle in activity, by the 10th of the next month;
# a 10th without office hours is payable on the next business day (CTN art. 210 § único), so the
# stored due_on is already moved (issqn_due) and every arrears check reads it as is.
ISSQN_UFM_PER_MOTORCYCLE = Decimal("0.500")
ISSQN_DUE_DAY = 10
ISSQN_BASIS = "Lei 030/1998, art. 14"
ISSQN_MUNICIPALITIES = ("nortelandia",)


def _error(field, message, status=422):
    return ApiError(status, "validation_error", "Dados inválidos.", {field: [message]})


def _actor_id():
    return getattr(current_actor(), "id", None)


def _owned(model, ident, municipality, field):
    obj = owned(model, ident, municipality.id)
    if obj is None:
        raise _error(field, "Registro não encontrado neste município.")
    return obj


def record_vistoria(municipality, vehicle, data, items=None, permit=None):
    """One vistoria with its checklist answers ({fact: value}). An approval with an item the law
    fails is refused; a rejection names the items to fix and the return date."""
    items = {k: v for k, v in (items or {}).items() if v is not None}
    failures = failed_items(municipality, data["inspected_on"], items)
    if data["result"] == "aprovada" and failures:
        raise _error("result", "Não pode ser aprovada: " + "; ".join(failures) + ".")
    if data["result"] == "reprovada" and not (data.get("items_to_fix") or "").strip():
        raise _error("items_to_fix", "Vistoria reprovada: informe os itens a corrigir.")
    if data["result"] == "reprovada" and data.get("return_on") is None:
        raise _error("return_on", "Vistoria reprovada: informe a data de retorno.")
    if data.get("return_on") is not None and data["return_on"] < data["inspected_on"]:
        raise _error("return_on", "O retorno deve ser depois da vistoria.")
    if data["inspected_on"] > local_today():
        raise _error("inspected_on", "A data da vistoria não pode estar no futuro.")
    row = Vistoria(municipality_id=municipality.id, vehicle_id=vehicle.id,
                   permit_id=getattr(permit, "id", None), recorded_by_id=_actor_id(), items=items, **data)
    db.session.add(row)
    db.session.flush()
    record("create", "vistoria", row.id, None, snapshot(row), municipality_id=municipality.id)
    if row.result == "aprovada":
        satisfy_substitution_vistorias(row)
    vehicle_changed(municipality, vehicle)
    return row


def satisfy_substitution_vistorias(vistoria):
    """An approved vistoria of a substitute vehicle, on or after the change of motorcycles, is the
    one its substitution was waiting for (Sapezal Lei 125/1999, art. 15: "que o veículo passe pela
    vistoria técnica competente"): link them and clear the pending flag."""
    pending = (VehicleSubstitution.query.filter(VehicleSubstitution.new_vehicle_id == vistoria.vehicle_id,
                                                VehicleSubstitution.vistoria_required.is_(True),
                                                VehicleSubstitution.vistoria_done_on.is_(None),
                                                VehicleSubstitution.replaced_on <= vistoria.inspected_on)
               .order_by(VehicleSubstitution.id).all())
    for substitution in pending:
        before = snapshot(substitution)
        substitution.vistoria_done_on, substitution.vistoria_id = vistoria.inspected_on, vistoria.id
        record("substitution_vistoria", "vehicle_substitution", substitution.id, before, snapshot(substitution),
               reason=f"Vistoria aprovada em {vistoria.inspected_on:%d/%m/%Y} ({substitution.basis}).",
               municipality_id=substitution.municipality_id)


def save_policy(municipality, vehicle, data):
    if data["ends_on"] <= data["starts_on"]:
        raise _error("ends_on", "O fim da vigência deve ser depois do início.")
    data = {**data, "copy_filed": bool(data.get("copy_filed"))}
    row = InsurancePolicy(municipality_id=municipality.id, vehicle_id=vehicle.id, recorded_by_id=_actor_id(), **data)
    db.session.add(row)
    db.session.flush()
    record("create", "insurance_policy", row.id, None, snapshot(row), municipality_id=municipality.id)
    vehicle_changed(municipality, vehicle)
    return row


def vehicle_changed(municipality, vehicle):
    """Phones hold the vehicle's vistoria and insurance dates (fieldsync.field_data): send it again."""
    mark_changed(db.session.connection(), municipality.id, [("vehicle", vehicle.id, False)])


SUBJECTS = {"operator": Operator, "vehicle": Vehicle, "company": Company, "permit": Permit}


def record_documents(municipality, subject, subject_id, answers, checked_on, valid_until=None):
    """Record the documents checked for one operator/vehicle: {fact: True|False|int}. Answers
    left blank are not recorded (they stay unknown)."""
    if subject not in SUBJECTS:
        raise _error("subject", "Tipo de registro inválido.")
    _owned(SUBJECTS[subject], subject_id, municipality, "subject_id")
    if checked_on > local_today():
        raise _error("checked_on", "A data da conferência não pode estar no futuro.")
    rows = []
    for fact, value in answers.items():
        if value is None:
            continue
        row = DocumentCheck(municipality_id=municipality.id, subject=subject, subject_id=subject_id, fact=fact,
                            value=value, checked_on=checked_on, valid_until=valid_until, recorded_by_id=_actor_id())
        db.session.add(row)
        rows.append(row)
    if not rows:
        raise _error("_schema", "Nenhum documento informado.")
    db.session.flush()
    for row in rows:
        record("create", "document_check", row.id, None, snapshot(row), municipality_id=municipality.id)
    return rows


def record_renewal_documents(municipality, permit, checked_on, answers):
    """The documents presented for this permit's renewal (issuance.renewal), each
    {fact: {"value": bool|None, "valid_until": date|None, "no_printed_validity": bool}}; blank
    answers are not recorded. A certidão's validity is the one printed on it (no law sets one)."""
    if permit.municipality_id != municipality.id:
        raise _error("permit", "Registro não encontrado neste município.")
    problem = check_window(permit, checked_on)
    if problem:
        raise _error("checked_on", problem)
    docs = {d.fact: d for d in documents_for(municipality, permit)}
    errors, rows = {}, []
    for fact, answer in answers.items():
        doc = docs.get(fact)
        if doc is None:
            errors["doc:" + fact] = ["Documento que a lei não pede para esta renovação."]
            continue
        if answer.get("value") is None:
            if answer.get("valid_until") or answer.get("no_printed_validity"):
                errors["doc:" + fact] = ["Diga se o documento foi apresentado (sim ou não)."]
            continue
        problem = certidao_validity_error(doc, checked_on, answer.get("valid_until"),
                                          answer.get("no_printed_validity"))
        if problem:
            errors["doc:" + fact] = [problem]
            continue
        ident = subject_id(permit, doc.subject)
        if ident is None:
            errors["doc:" + fact] = ["A permissão não tem a pessoa ou o veículo deste documento."]
            continue
        rows.append(DocumentCheck(municipality_id=municipality.id, subject=doc.subject, subject_id=ident, fact=fact,
                                  value=answer["value"], checked_on=checked_on,
                                  valid_until=answer.get("valid_until") if doc.certidao else None,
                                  no_printed_validity=bool(answer.get("no_printed_validity")) if doc.certidao else None,
                                  recorded_by_id=_actor_id()))
    if errors:
        raise ApiError(422, "validation_error", "Dados inválidos.", errors)
    if not rows:
        raise _error("_schema", "Nenhum documento informado.")
    db.session.add_all(rows)
    db.session.flush()
    for row in rows:
        record("create", "document_check", row.id, None, snapshot(row), municipality_id=municipality.id,
               reason=f"Documento da renovação da permissão {permit.number}")
    return rows


def ufm_value(municipality, on):
    row = (UnitValue.query.filter(UnitValue.municipality_id == municipality.id, UnitValue.unit == "UFM",
                                  UnitValue.valid_from <= on)
           .order_by(UnitValue.valid_from.desc()).first())
    return row.value_brl if row else None


def _month_bounds(month):
    nxt = date(month.year + (month.month == 12), month.month % 12 + 1, 1)
    return month, nxt - timedelta(days=1), nxt


def issqn_due(municipality, month_after):
    """The day the ISSQN of a month can be paid without arrears: the 10th of the following month
    (art. 14), moved to the next business day when it is not one (CTN art. 210 § único)."""
    return ctn_210_due(calendar_of(municipality), date(month_after.year, month_after.month, ISSQN_DUE_DAY))


def move_issqn_due_dates(municipality, closed_day):
    """The calendar's closure_added receiver (server/subscriptions.py), inside its transaction:
    a closure recorded (and flushed) on an unpaid charge's due date moves it to the next
    business day (CTN art. 210 § único); audited. Returns the count."""
    rows = IssqnCharge.query.filter(IssqnCharge.municipality_id == municipality.id, IssqnCharge.paid_on.is_(None),
                                    IssqnCharge.due_on == closed_day).all()
    cal = calendar_of(municipality)
    for row in rows:
        before = snapshot(row)
        row.due_on = ctn_210_due(cal, closed_day)
        record("update", "issqn_charge", row.id, before, snapshot(row), municipality_id=municipality.id,
               reason="Vencimento em dia sem expediente: primeiro dia útil seguinte (CTN, art. 210, parágrafo único)")
    return len(rows)


def _activity_reading(municipality):
    """The reading of "motocicleta em atividade" the municipality chose (readings.json,
    nortelandia.issqn_em_atividade), saved with its act in Configuração das regras."""
    value = (composed_for(municipality).config.get("options") or {}).get("nortelandia.issqn_em_atividade")
    return value if value in READINGS else "ultimo_dia"


def create_issqn_charges(today=None):
    """Daily job: for each company of a municipality whose law charges ISSQN per motorcycle per
    month (Nortelândia art. 14), the charge of the month that ended, once (unique per month).
    Motorcycles in activity: as the municipality's option reads art. 14 (server/rules/issqn_activity.py;
    default, the permits in force on the month's last day)."""
    today = today or local_today()
    month = date(today.year, today.month, 1) - timedelta(days=1)
    month = date(month.year, month.month, 1)
    _, last_day, next_first = _month_bounds(month)
    created = 0
    for muni in Municipality.query.filter(Municipality.slug.in_(ISSQN_MUNICIPALITIES)).order_by(Municipality.id):
        value = ufm_value(muni, last_day)
        reading = _activity_reading(muni)
        for company in Company.query.filter_by(municipality_id=muni.id).order_by(Company.id):
            if IssqnCharge.query.filter_by(company_id=company.id, month=month).first() is not None:
                continue
            count = sum(1 for p in Permit.query.filter(Permit.holder_company_id == company.id,
                                                       Permit.valid_from <= last_day, Permit.valid_until >= month)
                        if in_activity(p.valid_from, p.valid_until, p.status, month, last_day, reading))
            if count == 0:
                continue
            ufm = ISSQN_UFM_PER_MOTORCYCLE * count
            amount = (ufm * value).quantize(Decimal("0.01"), ROUND_HALF_UP) if value is not None else None
            row = IssqnCharge(municipality_id=muni.id, company_id=company.id, month=month, motorcycles=count,
                              ufm=ufm, amount_brl=amount,
                              due_on=issqn_due(muni, next_first))
            db.session.add(row)
            db.session.flush()
            record("create", "issqn_charge", row.id, None, snapshot(row), municipality_id=muni.id,
                   reason=f"Cobrança mensal ({ISSQN_BASIS})")
            created += 1
    return created


def pay_issqn_charge(municipality, charge, data):
    if charge.paid_on is not None:
        raise ApiError(409, "already_paid", "Esta cobrança já foi paga.")
    if data["paid_on"] > local_today():
        raise _error("paid_on", "A data do pagamento não pode estar no futuro.")
    before = snapshot(charge)
    charge.paid_on = data["paid_on"]
    charge.paid_amount_brl = data.get("paid_amount_brl")
    charge.payment_reference = data.get("payment_reference")
    record("pay", "issqn_charge", charge.id, before, snapshot(charge), municipality_id=municipality.id)
    return charge


def set_vistoria_period(municipality, months, source):
    """No law sets how long a vistoria lasts: the municipality decides (by decree or ordinance)."""
    before = {VISTORIA_PERIOD_SETTING: municipality.setting(VISTORIA_PERIOD_SETTING),
              "vistoria_validity_source": municipality.setting("vistoria_validity_source")}
    settings = dict(municipality.settings or {})
    settings[VISTORIA_PERIOD_SETTING] = months
    settings["vistoria_validity_source"] = source
    municipality.settings = settings
    flag_modified(municipality, "settings")
    record("configure_vistoria", "municipality", municipality.id, before,
           {VISTORIA_PERIOD_SETTING: months, "vistoria_validity_source": source}, municipality_id=municipality.id)
    return municipality


def set_renewal_first_documents(municipality, required, source):
    """Sapezal Lei 125/1999, art. 10, § 4º: "poderá exigir" on renewal every document of the first
    alvará — the Administration's choice, recorded with the act that makes it."""
    if municipality.slug not in ALL_FIRST_DOCUMENTS:
        raise ApiError(409, "not_in_law", "A lei deste município não prevê esta exigência na renovação.")
    before = {ALL_FIRST_DOCUMENTS_SETTING: bool(municipality.setting(ALL_FIRST_DOCUMENTS_SETTING)),
              "renewal_documents_source": municipality.setting("renewal_documents_source")}
    settings = dict(municipality.settings or {})
    settings[ALL_FIRST_DOCUMENTS_SETTING] = bool(required)
    settings["renewal_documents_source"] = source
    municipality.settings = settings
    flag_modified(municipality, "settings")
    record("configure_renewal_documents", "municipality", municipality.id, before,
           {ALL_FIRST_DOCUMENTS_SETTING: bool(required), "renewal_documents_source": source},
           reason=ALL_FIRST_DOCUMENTS[municipality.slug], municipality_id=municipality.id)
    return municipality
