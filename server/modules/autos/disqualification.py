"""Inabilitação reached by applied penalties alone (Paranatinga art. 42 § único: 3 advertências
escritas or 2 multas in 1 year; Sapezal art. 26: the same, or reincidente em suspensão): a state
of the driver, not of a stop. Found when a penalty becomes applied (refresh_penalties), by the
same rule evaluation as the roadside (the packs' escalations, status "reached" with no proposal
of the day), kept on the operator until the curso de reabilitação is recorded — the law ends it
with the course, not with the window — and sent to phones in the field data. Both audited."""
from datetime import date

from ...core.audit import record
from ...core.clock import local_today
from ...core.errors import ApiError
from ...extensions import db
from ...rules import evaluate
from ..registry.models import Municipality, Operator
from ..rules.citations import format_citation
from ..rules.service import composed_for
from ..calendar.service import calendar_of

REHAB_FACT = "operator.rehabilitation_course_on"


def reached(municipality, operator, today):
    """The escalation (engine output) that disqualifies the operator on `today` by applied
    penalties alone, or None."""
    from .penalties import server_history  # noqa: PLC0415 (local: penalties.py imports check_operator from here)
    rules = composed_for(municipality)
    facts = {}
    if operator.rehabilitation_course_on and REHAB_FACT in rules.facts:
        facts[REHAB_FACT] = operator.rehabilitation_course_on.isoformat()
    known = {i["id"] for i in rules.infractions}
    history = [h for h in server_history(municipality.id, operator.id) if h["infraction"] in known]
    if not history:
        return None
    result = evaluate(rules, today.isoformat(), facts, history, calendar_of(municipality))
    found = [e for e in result["escalations"] if e["status"] == "reached"
             and (e.get("measure") or {}).get("kind") == "inabilitacao"]
    return (found[0], rules) if found else None


def check_operator(municipality_id, operator_id, today):
    """Record the inabilitação when applied penalties reach it; True when it was recorded now."""
    operator = db.session.get(Operator, operator_id) if operator_id else None
    if operator is None or operator.disqualified_on is not None:
        return False
    municipality = db.session.get(Municipality, municipality_id)
    found = reached(municipality, operator, today)
    if found is None:
        return False
    esc, rules = found
    operator.disqualified_on = today
    operator.disqualified_basis = f"{esc['label_pt']} ({format_citation(rules, esc.get('citation'))})"[:300]
    record("operator_disqualified", "operator", operator.id, {"disqualified_on": None},
           {"disqualified_on": today.isoformat(), "basis": operator.disqualified_basis}, reason=esc["why_pt"],
           municipality_id=municipality_id, actor=None)
    return True


def record_rehabilitation(operator, day_text, reference):
    """The curso de reabilitação that ends the inabilitação: its day (not in the future, not
    before the inabilitação) and the certificate or act that records it. Audited."""
    fields = {}
    try:
        day = date.fromisoformat((day_text or "").strip())
    except ValueError:
        day = None
        fields["course_on"] = ["Informe a data de conclusão do curso (dd/mm/aaaa)."]
    reference = (reference or "").strip()
    if not reference:
        fields["reference"] = ["Informe o certificado ou ato que registra o curso de reabilitação."]
    elif len(reference) > 200:
        fields["reference"] = ["No máximo 200 caracteres."]
    if day is not None and day > local_today():
        fields["course_on"] = ["A data do curso não pode ser futura."]
    if fields:
        raise ApiError(422, "validation_error", "Curso de reabilitação não registrado.", fields=fields)
    before = {"disqualified_on": operator.disqualified_on.isoformat() if operator.disqualified_on else None,
              "rehabilitation_course_on": operator.rehabilitation_course_on.isoformat()
              if operator.rehabilitation_course_on else None}
    operator.rehabilitation_course_on, operator.rehabilitation_course_ref = day, reference
    operator.disqualified_on = operator.disqualified_basis = None
    record("operator_rehabilitated", "operator", operator.id, before,
           {"disqualified_on": None, "rehabilitation_course_on": day.isoformat(), "reference": reference},
           municipality_id=operator.municipality_id)
    return operator
