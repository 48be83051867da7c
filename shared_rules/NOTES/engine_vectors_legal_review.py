"""Authoring aid for vectors/engine-legal-review.json (issue 7). Every expected value is typed by
hand; nothing is computed by an evaluator. Run: python3 shared_rules/NOTES/engine_vectors_legal_review.py"""
import json
import pathlib
L = {"T": {"title": "Lei de teste", "number": "1/2020", "date": "2020-01-01", "jurisdiction": "municipal", "effective_from": "2020-01-01"}}
C = {"law": "T", "art": "1"}
PACK = {"spec_version": "1.0.0", "id": "t-review", "version": "1", "kind": "municipal", "municipality": "test", "laws": L,
 "facts": {
  "x.temp": {"type": "number", "label_pt": "Temperatura", "source": "checklist", "unit": "°C", "min": None, "max": 60, "checklist": {"prompt_pt": "Temperatura?"}},
  "x.count": {"type": "number", "label_pt": "Contagem", "source": "checklist", "integer": True, "min": 1, "checklist": {"prompt_pt": "Quantos?"}},
  "x.ratio": {"type": "number", "label_pt": "Razão", "source": "checklist", "min": 0.5, "max": 2.5, "checklist": {"prompt_pt": "Razão?"}},
  "x.general": {"type": "bool", "label_pt": "Geral", "source": "checklist", "checklist": {"prompt_pt": "Geral ok?"}},
  "x.specific": {"type": "bool", "label_pt": "Específica", "source": "checklist", "checklist": {"prompt_pt": "Específica ok?"}},
  "x.other": {"type": "bool", "label_pt": "Outra", "source": "checklist", "checklist": {"prompt_pt": "Outra ok?"}},
  "x.mode": {"type": "enum", "values": ["a", "b"], "label_pt": "Modo", "source": "checklist", "na_allowed": True, "checklist": {"prompt_pt": "Modo?"}}},
 "requirements": [
  {"id": "r.general", "citation": C, "label_pt": "Geral", "holds": {"==": [{"var": "x.general"}, True]}, "on_fail": ["i.general"]},
  {"id": "r.specific", "citation": C, "label_pt": "Específica", "holds": {"==": [{"var": "x.specific"}, True]}, "on_fail": ["i.specific", "i.general"]},
  {"id": "r.other", "citation": C, "label_pt": "Outra", "holds": {"==": [{"var": "x.other"}, True]}, "on_fail": ["i.capped"]},
  {"id": "r.temp", "citation": C, "label_pt": "Temperatura", "holds": {"<=": [{"var": "x.temp"}, 40]}, "on_fail": []},
  {"id": "r.count", "citation": C, "label_pt": "Contagem", "holds": {"<=": [{"var": "x.count"}, 3]}, "on_fail": []},
  {"id": "r.ratio", "citation": C, "label_pt": "Razão", "holds": {"<=": [{"var": "x.ratio"}, 2]}, "on_fail": []},
  {"id": "r.mode", "citation": C, "label_pt": "Modo", "holds": {"==": [{"var": "x.mode"}, "a"]}, "on_fail": []}],
 "infractions": [
  {"id": "i.general", "citation": C, "label_pt": "Geral", "penalty": {"kind": "multa"}, "amount": {"unit": "UFM", "value": 2}},
  {"id": "i.specific", "citation": C, "label_pt": "Específica", "penalty": {"kind": "notificacao"}, "displaces": ["i.general"],
   "measures": [{"kind": "regularizacao", "label_pt": "Regularizar", "deadline": {"days": 10, "starts": "notificacao"}},
                {"kind": "cassacao", "label_pt": "Cassação", "deadline": None, "only_if_pt": "só se não regularizar"}]},
  {"id": "i.capped", "citation": C, "label_pt": "Com teto", "penalty": {"kind": "multa"},
   "amount": {"unit": "UFM", "max": 5, "decree_key": "t.capped", "citation": {"law": "T", "art": "2"}}, "recidivism": "rec"}],
 "recidivism": [{"id": "rec", "citation": C, "label_pt": "Reincidência", "window": {"months": 6}, "match": "same_infraction", "effect": {"set_max": 50}}],
 "escalations": [{"id": "esc", "citation": C, "label_pt": "Inabilitação", "window": {"days": 90},
   "any_of": [{"penalty": "multa", "count": 2}], "measure": {"kind": "inabilitacao", "label_pt": "Inabilitado"}}]}
CFG = {"spec_version": "1.0.0", "municipality": "test", "unit_values": {"UFM": [{"valid_from": "2020-01-01", "brl": 2}]}}
BASE = {"x.general": True, "x.specific": True, "x.other": True, "x.temp": 20, "x.count": 2, "x.ratio": 1, "x.mode": "a"}
def F(**kw): return {**BASE, **kw}
cases = []
def case(name, facts, expected, **kw): cases.append({"name": name, "facts": facts, "expected": expected, **kw})
case("displaces: the specific infraction removes the general one proposed by the same fact",
     F(**{"x.specific": False}),
     {"failed": [{"requirement": "r.specific", "infractions": ["i.specific"]}],
      "infractions": [{"id": "i.specific", "triggered_by": ["r.specific"], "penalty": {"kind": "notificacao"}, "amount": None,
                       "measures": [{"kind": "regularizacao", "days": 10, "starts": "notificacao", "due": None, "only_if_pt": None},
                                    {"kind": "cassacao", "days": None, "starts": None, "due": None, "only_if_pt": "só se não regularizar"}]}],
      "displaced": [{"id": "i.general", "by": "i.specific"}], "escalations": []})
case("displaces: also when the general one is proposed by another requirement",
     F(**{"x.specific": False, "x.general": False}),
     {"failed": [{"requirement": "r.general", "infractions": []}, {"requirement": "r.specific", "infractions": ["i.specific"]}],
      "infractions": [{"id": "i.specific", "triggered_by": ["r.specific"]}], "displaced": [{"id": "i.general", "by": "i.specific"}]})
case("displaces: the general infraction alone is proposed normally",
     F(**{"x.general": False}),
     {"infractions": [{"id": "i.general", "amount": {"value": 2, "brl_cents": 400}}], "displaced": []})
case("number with min null and max 60: -10 accepted", F(**{"x.temp": -10}), {"passed": ["r.general", "r.specific", "r.other", "r.temp", "r.count", "r.ratio", "r.mode"]})
case("number above max is refused naming the range and unit", F(**{"x.temp": 61}),
     {"error": {"code": "fact_error", "fact": "x.temp", "reason": "out_of_range",
                "expected": {"type": "number", "min": None, "max": 60, "integer": False, "unit": "°C"}}})
case("integer fact refuses 2.5", F(**{"x.count": 2.5}),
     {"error": {"code": "fact_error", "fact": "x.count", "reason": "not_integer", "expected": {"type": "number", "min": 1, "max": None, "integer": True, "unit": None}}})
case("integer fact refuses 0 below min 1", F(**{"x.count": 0}), {"error": {"code": "fact_error", "fact": "x.count", "reason": "out_of_range"}})
case("decimal bounds: 0.4 below min 0.5", F(**{"x.ratio": 0.4}),
     {"error": {"code": "fact_error", "fact": "x.ratio", "reason": "out_of_range", "expected": {"min": 0.5, "max": 2.5}}})
case("decimal bounds: 2.5 exactly accepted (fails the requirement, not the fact)", F(**{"x.ratio": 2.5}),
     {"failed": [{"requirement": "r.ratio", "infractions": []}]})
case("number literal beyond the double range", F(**{"x.ratio": "__number_1e400__"}), {"error": {"code": "fact_error", "fact": "x.ratio", "reason": "not_finite"}})
case("negative literal beyond the double range", F(**{"x.temp": "__number_-1e400__"}), {"error": {"code": "fact_error", "fact": "x.temp", "reason": "not_finite"}})
case("enum with na_allowed: expected names the values and na", F(**{"x.mode": "c"}),
     {"error": {"code": "fact_error", "fact": "x.mode", "reason": "not_in_values", "expected": {"type": "enum", "values": ["a", "b"], "na_allowed": True}}})
case("unknown fact: no expected", F(**{"x.nope": 1}), {"error": {"code": "fact_error", "fact": "x.nope", "reason": "unknown_fact"}})
DK = lambda **row: {"decree_amounts": {"t.capped": [{"valid_from": "2020-01-01", **row}]}}
case("cap: decree value within the cap is used", F(**{"x.other": False}),
     {"infractions": [{"id": "i.capped", "amount": {"basis": "cap", "unit": "UFM", "value": 5, "max": 5, "brl_cents": 1000}}], "undecided": []},
     config_overrides=DK(unit="UFM", value=5))
case("cap: decree value above the cap is never output", F(**{"x.other": False}),
     {"infractions": [{"id": "i.capped", "amount": {"value": None, "max": 5, "brl_cents": None, "max_brl_cents": 1000}}],
      "undecided": [{"kind": "infraction", "id": "i.capped", "reason": "decree_above_cap", "config_key": "t.capped"}]},
     config_overrides=DK(unit="UFM", value=5.01))
case("cap: decree value in another unit is not read as the cap's unit", F(**{"x.other": False}),
     {"infractions": [{"id": "i.capped", "amount": {"unit": "UFM", "value": None, "max": 5}}],
      "undecided": [{"kind": "infraction", "id": "i.capped", "reason": "decree_unit_mismatch", "config_key": "t.capped"}]},
     config_overrides=DK(unit="BRL", value=3))
case("cap on recidivism raised to 50 keeps the configured value", F(**{"x.other": False}),
     {"infractions": [{"id": "i.capped", "amount": {"value": 4, "max": 50}, "recidivism": {"applied": True, "prior_count": 1}}]},
     config_overrides=DK(unit="UFM", value=4), history=[{"infraction": "i.capped", "date": "2024-03-01", "state": "applied", "applied_on": "2024-04-01"}])
H2 = [{"infraction": "i.general", "date": "2024-03-01"}, {"infraction": "i.capped", "date": "2024-04-01"}]
case("escalation reached by applied penalties alone (90-day window)", F(**{"x.general": False}),
     {"escalations": [{"id": "esc", "prior": 2, "current": 1, "status": "reached", "notice_pt": None, "window_from": "2024-02-10"}]},
     history=H2)
case("escalation would be reached only with this stop: notice with the window in days", F(**{"x.general": False}),
     {"escalations": [{"id": "esc", "prior": 1, "current": 1, "status": "would_reach",
                       "notice_pt": "aviso — não é inabilitação agora: se esta autuação for confirmada, serão 2 multas em 90 dias (1 já aplicada(s), 1 desta autuação); inabilitação só depois da decisão definitiva"}]},
     history=H2[:1])
case("pending and annulled history entries count for nothing (no recidivism, no escalation)", F(**{"x.other": False}),
     {"infractions": [{"id": "i.capped", "recidivism": {"applied": False, "prior_count": 0}}], "escalations": []},
     history=[{"infraction": "i.capped", "date": "2024-03-01", "state": "pending"}, {"infraction": "i.general", "date": "2024-04-01", "state": "annulled"}])
case("applied_on after the evaluation date: not yet applied", F(**{"x.other": False}),
     {"infractions": [{"id": "i.capped", "recidivism": {"applied": False, "prior_count": 0}}]},
     history=[{"infraction": "i.capped", "date": "2024-03-01", "applied_on": "2024-05-11"}])
case("history: bad applied_on is refused", F(), {"error": {"code": "history_error", "index": 0, "reason": "invalid_date"}},
     history=[{"infraction": "i.capped", "date": "2024-03-01", "applied_on": "2024-02-30"}])
case("history: state must be one of applied, pending, annulled", F(), {"error": {"code": "history_error", "index": 0, "reason": "invalid_state"}},
     history=[{"infraction": "i.capped", "date": "2024-03-01", "state": None}])
BAD = json.loads(json.dumps(PACK)); BAD["infractions"][1]["displaces"] = ["i.none"]
case("pack error: displaces must name an infraction", F(),
     {"error": {"code": "pack_error", "problems": [{"path": "/infractions/1/displaces/0", "reason": "unknown_reference"}]}}, packs=[BAD])
doc = {"spec_version": "1.0.0", "name": "engine-legal-review",
       "description": "Constructs added by the legal review (issue 7): number ranges and expected in errors, caps binding decrees, applied history, specific-over-general displacement, measures with only_if_pt, escalation status and notice. Expected values written by hand.",
       "defaults": {"packs": [PACK], "config": CFG, "date": "2024-05-10"}, "cases": cases}
text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
text = text.replace('"__number_1e400__"', "1e400").replace('"__number_-1e400__"', "-1e400")
open(pathlib.Path(__file__).resolve().parents[1] / "vectors" / "engine-legal-review.json", "w", encoding="utf-8").write(text)
print(len(cases))
