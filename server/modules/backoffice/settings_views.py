"""Municipal settings screens: fiscal unit values (UFIR/UFM/UPF…) and the audit log."""
from decimal import Decimal

from flask import flash, redirect, render_template, request, url_for
from marshmallow import ValidationError, validates

from ...core.audit import AuditLog
from ...core.audit_labels import ENTITY_LABELS, action_label, field_label
from ...core.auth import scoped
from ...core.errors import ApiError
from ...core.validation import mask_cpf
from ..issuance.renewal import RENEWAL_DOCUMENTS
from ..registry.facts import DOCUMENT_CHECKS
from ..rules.service import composed_for
from ..registry.models import FISCAL_UNITS, UnitValue
from ..permits.entities import add_unit_value
from ..registry.vocabulary import vocabulary
from ..registry.schemas import UnitValueSchema
from ..registry.scope import municipality, staff_view
from .exports import export, wants_csv
from ...core.forms import Field, form_input, load, raw_values, run, stray_errors
from ...core.pagination import Page
from ...core.routes import RouteTable

routes = RouteTable()

UNIT_FIELDS = [
    Field("unit", "Unidade", "select", required=True,
          options=[("", "—")] + [(u, u) for u in FISCAL_UNITS]),
    Field("valid_from", "Vigente a partir de", "date", required=True),
    Field("value_brl", "Valor em reais", required=True, hint="Ex.: 1,0641 ou 1.0641.",
          attrs={"inputmode": "decimal"}),
    Field("source", "Ato que fixou o valor", required=True, hint="Ex.: Decreto municipal nº 12/2026."),
]

# No fiscal unit is worth a million reais (UFIR ≈ R$ 1, UPF/MT ≈ R$ 250); the column holds
# 10 integer digits. A bound far above any real value, far below what overflows the database.
MAX_UNIT_VALUE = Decimal("1000000")


class UnitValueForm(UnitValueSchema):
    """The registry schema (NaN and Infinity already refused) plus an upper bound."""

    @validates("value_brl")
    def _bounded(self, value, **_):
        if value > MAX_UNIT_VALUE:
            raise ValidationError("O valor deve ser menor que R$ 1.000.000,00.")


# Audited records that have a back-office page (the link is scoped like any other request).
AUDIT_LINKS = {"permit": "backoffice.permit_detail", "operator": "backoffice.operator_detail",
               "vehicle": "backoffice.vehicle_detail", "company": "backoffice.company_detail",
               "ponto": "backoffice.ponto_detail"}


@routes.route("/bo/unidades", methods=["GET", "POST"])
@staff_view
def unit_values():
    errors, values = None, {}
    if request.method == "POST":
        raw = form_input(UNIT_FIELDS)
        # Brazilian decimal comma: "1.234,5678" → "1234.5678".
        if "," in raw.get("value_brl", ""):
            raw["value_brl"] = raw["value_brl"].replace(".", "").replace(",", ".")
        data, errors = load(UnitValueForm(), UNIT_FIELDS, raw=raw)
        if errors is None:
            _, errors = run(add_unit_value, municipality(), data)
            if errors is None:
                flash("Valor registrado.")
                return redirect(url_for("backoffice.unit_values"))
        values = raw_values(UNIT_FIELDS)
    rows = scoped(UnitValue).order_by(UnitValue.unit, UnitValue.valid_from.desc()).all()
    if request.method == "GET" and wants_csv():
        return export("unidades-fiscais", [
            ("Unidade", lambda r: r.unit), ("Vigente desde", lambda r: r.valid_from),
            ("Valor (R$)", lambda r: f"{r.value_brl:.4f}".replace(".", ",")), ("Ato", lambda r: r.source)], rows)
    return render_template("backoffice/unit_values.html", rows=rows, fields=UNIT_FIELDS, values=values,
                           errors=errors or {}, stray=stray_errors(errors, UNIT_FIELDS)), \
        (422 if errors else 200)


def _shown(key, value, labels=None):
    """A changed value as the audit page and its CSV show it, in words (issue 34, item 4): CPF
    masked (LGPD), yes/no, lists and nested values item by item, a pack's fact or rule named by its
    label (`labels`), never "True", "None" or a key."""
    labels = labels or {}
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "Sim" if value else "Não"
    if isinstance(value, (list, tuple)):
        return "; ".join(_shown(key, v, labels) for v in value) or "—"
    if isinstance(value, dict):
        return "; ".join(f"{field_label(k)}: {_shown(k, v, labels)}" for k, v in value.items()) or "—"
    if key == "cpf":
        return mask_cpf(value)
    return labels.get(value, str(value)) if isinstance(value, str) else str(value)


def _labels(muni):
    """{fact or rule id: its pt-BR label} of the municipality's packs (audit values that name them)."""
    try:
        composed = composed_for(muni)
    except ApiError:  # no rule pack: the values stay as recorded
        return {}
    out = {name: question.rstrip("?") for name, question in DOCUMENT_CHECKS.items()}
    out.update({doc.fact: doc.label for docs in RENEWAL_DOCUMENTS.values() for doc in docs})
    out.update({name: decl.get("label_pt") for name, decl in composed.facts.items() if decl.get("label_pt")})
    out.update({eid: entry["label_pt"] for eid, entry in composed.by_id.items()
                if isinstance(entry, dict) and isinstance(entry.get("label_pt"), str)})
    return out


def _changes(entry, labels=None):
    before, after = entry.before or {}, entry.after or {}
    return "; ".join(
        f"{field_label(k)}: " + (f"{_shown(k, before.get(k), labels)} → " if entry.before is not None else "")
        + _shown(k, after.get(k), labels) for k in sorted(after) if before.get(k) != after.get(k))


def audit_columns(entities, labels=None):
    return [("Quando", lambda e: e.at), ("Quem", lambda e: e.actor_label),
            ("Ação", lambda e: action_label(e.action)), ("Registro", lambda e: entities.get(e.entity, e.entity)),
            ("Código do registro", lambda e: e.entity_id), ("Motivo", lambda e: e.reason),
            ("Alterações", lambda e: _changes(e, labels))]


@routes.get("/bo/auditoria")
@staff_view
def audit_log():
    entity = request.args.get("entidade", "")
    entity_id = (request.args.get("id") or "").strip()
    query = AuditLog.query.filter(AuditLog.municipality_id == municipality().id)
    # Record names from core.audit_labels; a permit is called what the municipality's law calls it.
    entities = {**ENTITY_LABELS, "permit": vocabulary(municipality()).permit_title}
    if entity in entities:
        query = query.filter(AuditLog.entity == entity)
    else:
        entity = ""
    if entity_id.isdigit() and len(entity_id) < 12:
        query = query.filter(AuditLog.entity_id == entity_id)
    else:
        entity_id = ""
    labels = _labels(municipality())
    if wants_csv():
        return export("auditoria", audit_columns(entities, labels), query.order_by(AuditLog.id.desc()))
    page = Page(query.order_by(AuditLog.id.desc()))
    return render_template("backoffice/audit_log.html", page=page, entity=entity, entity_id=entity_id,
                           entities=entities, links=AUDIT_LINKS, shown=lambda key, value: _shown(key, value, labels))
