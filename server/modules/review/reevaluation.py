"""The server's own evaluation of an inspection's facts, next to what the phone proposed.

Same entry point as `POST /api/v1/rules/evaluate` and permits/rule_checks.py:
`rules.evaluate(composed_for(municipality), date, facts, history)`, with
- facts: the inspection's answers as the field app turns them into engine facts (`engineFacts`
  in pwa/js/fiscal/checklist-model.js: "não verificado" and empty answers dropped, numbers read
  with a decimal comma); an answer the engine refuses is left out and listed, never a 500;
- date: the local date of the inspection (device clock; receipt time when the clock is flagged);
- history: the penalties of the operator (or permit) held by the server (fieldsync.AppliedPenalty),
  dated by when the infraction was committed, with when it became applied and whether it was
  annulled — the engine counts the applied ones; the server's history is authoritative over the
  phone's copy.
"""
from ...core.clock import to_local
from ...rules import RulesError, evaluate
from ...rules.errors import FactError
from ...rules.history import history_for
from ...rules.jurisdiction import is_traffic
from ..autos.auto_data import amount_brl
from ..fieldsync.models import AppliedPenalty
from ..registry.models import Permit
from ..rules.service import composed_for
from ..calendar.service import calendar_of
from ..registry.transition_models import with_transitions

NOT_CHECKED = "nao_verificado"
_CLOCK_FLAGS = {"clock_ahead", "clock_behind", "clock_drift"}


def inspection_date(record):
    moment = record.received_at if (set(record.flags or []) & _CLOCK_FLAGS or record.device_at is None) \
        else record.device_at
    return to_local(moment).date()


def engine_facts(rules, answers):
    facts = {}
    for name, value in (answers or {}).items() if isinstance(answers, dict) else ():
        if value in (NOT_CHECKED, "", None) or not isinstance(name, str):
            continue
        decl = rules.facts.get(name)
        if decl is None:
            continue
        if decl.get("type") == "number" and not isinstance(value, (int, float)):
            try:
                value = float(str(value).replace(",", "."))
            except ValueError:
                continue
        facts[name] = value
    return facts


def history_of(record, body, day, known=None):
    """The penalties of the operator (or of the permit the inspection names) as engine history
    (rules.history.history_for, the phone's builder's twin): committed date, applied date, state.
    Which count on `day` is the engine's decision (applied, applied_on <= day)."""
    permit = None
    if body.get("permit_number"):
        permit = Permit.query.filter_by(municipality_id=record.municipality_id,
                                        number=str(body["permit_number"])).first()
    subject = {"operator_id": record.operator_id, "permit_id": permit.id if permit else None}
    if subject["operator_id"] is None and subject["permit_id"] is None:
        return []
    query = AppliedPenalty.query.filter(AppliedPenalty.municipality_id == record.municipality_id)
    query = query.filter((AppliedPenalty.operator_id == (subject["operator_id"] or -1))
                         | (AppliedPenalty.permit_id == (subject["permit_id"] or -1)))
    rows = [{"operator_id": p.operator_id, "permit_id": p.permit_id, "infraction_id": p.infraction_id,
             "penalty": p.penalty, "committed_on": p.committed_on.isoformat(), "applied_on": p.applied_on.isoformat(),
             "cancelled": p.cancelled, "auto_record_id": p.auto_record_id} for p in query.order_by(AppliedPenalty.id)]
    return history_for(rows, subject, known)


def server_evaluation(municipality, record, body):
    """{"result": engine output | None, "dropped": [(fact, reason)], "error": text | None, "date", "history",
    "counted": the applied entries the engine keeps on that day}."""
    rules = composed_for(municipality)
    calendar = calendar_of(municipality)
    day = inspection_date(record)
    facts = engine_facts(rules, body.get("answers"))
    history = history_of(record, body, day, {i["id"] for i in rules.infractions})
    counted = [h for h in history if h["state"] == "applied" and h["date"] <= day.isoformat()
               and (h["applied_on"] or "") <= day.isoformat()]
    dropped = []
    for _attempt in range(len(facts) + 1):
        try:
            result = _following_transitions(record, body, evaluate(rules, day.isoformat(), facts, history, calendar), day)
            return {"result": result, "dropped": dropped, "error": None, "date": day, "history": history, "counted": counted}
        except FactError as exc:
            name = getattr(exc, "fact", None)
            if name not in facts:
                return {"result": None, "dropped": dropped, "error": str(exc), "date": day, "history": history, "counted": counted}
            dropped.append((name, facts.pop(name)))
        except RulesError as exc:
            return {"result": None, "dropped": dropped, "error": str(exc), "date": day, "history": history, "counted": counted}
    return {"result": None, "dropped": dropped, "error": "Fatos inválidos.", "date": day, "history": history, "counted": counted}


def _following_transitions(record, body, result, day):
    """As the phone does (fiscal/transitions.js): an imported permit's requirement in transition is
    a notice, not an infraction (registry.transition_models)."""
    if not body.get("permit_number"):
        return result
    permit = Permit.query.filter_by(municipality_id=record.municipality_id, number=str(body["permit_number"])).first()
    return with_transitions(result, permit.transitions, day) if permit is not None else result


def _amount_cents(amount):
    return None if not amount else amount.get("brl_cents")


def compare(server, device_evaluation, auto_infractions, integrated=False):
    """Rows (id, label, server {amount, recidivism}, device {...}, differs, traffic) for every
    infraction either side proposes. The device side is its evaluation, else the auto's infraction
    list. `traffic`: a CTB/SNT infraction outside the municipal auto (no municipal amount asked for
    it: the traffic authority applies the CTB's), unless the municipality is `integrated`."""
    result = server.get("result") or {}
    srv = {i["id"]: i for i in result.get("infractions") or [] if i.get("triggered_by")}
    dev = {}
    if isinstance(device_evaluation, dict) and isinstance(device_evaluation.get("infractions"), list):
        dev = {i["id"]: i for i in device_evaluation["infractions"]
               if isinstance(i, dict) and isinstance(i.get("id"), str) and i.get("triggered_by")}
    for inf in auto_infractions or []:
        if isinstance(inf, dict) and isinstance(inf.get("id"), str) and inf["id"] not in dev:
            brl = amount_brl(inf)
            cents = round(brl * 100) if brl is not None else None
            dev[inf["id"]] = {"id": inf["id"], "label_pt": inf.get("label_pt"), "amount": {"brl_cents": cents},
                              "recidivism": None}
    rows = []
    for inf_id in list(dict.fromkeys([*srv, *dev])):
        s, d = srv.get(inf_id), dev.get(inf_id)
        s_cents, d_cents = _amount_cents((s or {}).get("amount")), _amount_cents((d or {}).get("amount"))
        s_rec = _recidivism((s or {}).get("recidivism"))
        d_rec = _recidivism((d or {}).get("recidivism"))
        traffic = not integrated and is_traffic(s or d)
        differs = s is None or d is None or (not traffic and (s_cents != d_cents or s_rec != d_rec))
        rows.append({"id": inf_id, "label": (s or d).get("label_pt") or inf_id, "server": s, "device": d,
                     "server_cents": s_cents, "device_cents": d_cents, "server_recidivism": s_rec,
                     "device_recidivism": d_rec, "differs": differs, "traffic": traffic})
    return rows


def _recidivism(rec):
    if not isinstance(rec, dict):
        return None
    if rec.get("applied") or rec.get("applies"):
        return rec.get("why_pt") or "reincidência"
    return None
