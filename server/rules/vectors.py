"""Runs conformance vector cases (SPEC §10). Shared by the pytest runner and the benchmark;
the JS twin is pwa/js/rules/vectors.js."""
import json
from pathlib import Path

from . import dates, legal_calendar
from .checklist import auto_form, checklist
from .compose import compose, deep_merge, load_municipality
from .evaluation import evaluate
from .errors import CompileError, PackError, RulesError
from .expr import CALENDAR_VAR, DATE_VAR, UNKNOWN, compile_expr
from .history import history_for
from .inputs import add_options, fact_values, parse_date_arg


def load_vector_files(root):
    """Rule-engine vector files; the legal calendar's (kind "calendar") have their own runner."""
    root = Path(root)
    docs = [(p.name, json.loads(p.read_text(encoding="utf-8")))
            for p in sorted((root / "shared_rules" / "vectors").glob("*.json"))]
    return [(name, doc) for name, doc in docs if doc.get("kind") != "calendar"]


def cases_of(doc):
    defaults = doc.get("defaults") or {}
    return [{**defaults, **case} for case in doc["cases"]]


_CACHE = {}


def _rules_for(root, case):
    """Composed rules for a case, cached by what they are built from (evaluation never mutates
    them), so hundreds of cases do not re-read and re-compile the same packs."""
    key = json.dumps([str(root), case.get("municipality"), case.get("packs"), case.get("config"),
                      case.get("config_overrides")], sort_keys=True)
    if key not in _CACHE:
        _CACHE[key] = _build_rules(root, case)
    return _CACHE[key]


def _build_rules(root, case):
    if case.get("municipality"):
        return load_municipality(case["municipality"], packs_dir=Path(root) / "shared_rules" / "packs",
                                 config_dir=Path(root) / "shared_rules" / "config",
                                 config_overrides=case.get("config_overrides"))
    packs = []
    for ref in case.get("packs") or []:
        packs.append(json.loads((Path(root) / ref).read_text(encoding="utf-8"))
                     if isinstance(ref, str) else ref)
    config = case.get("config") or {"spec_version": "1.0.0", "municipality": "test"}
    if case.get("config_overrides"):
        config = deep_merge(config, case["config_overrides"])
    names = [r if isinstance(r, str) else f"inline:{p.get('id')}"
             for r, p in zip(case.get("packs") or [], packs)]
    return compose(packs, config, file_names=names)


def _expr_value(value, type_):
    if value is UNKNOWN:
        return {"value": None, "type": "unknown"}
    if type_ == "date":
        return {"value": dates.to_iso(value), "type": "date"}
    if type_ == "number":
        return {"value": int(value) if value == int(value) else value, "type": "number"}
    if type_.startswith("list:"):
        return {"value": [_expr_value(v, type_[5:])["value"] for v in value], "type": type_}
    return {"value": value, "type": type_}


def calendar_of(case):
    """The case's legal calendar: the shared holiday data in Mato Grosso plus the case's
    `calendar.closures`; none when the case says `"calendar": false`."""
    spec = case.get("calendar", {})
    if spec is False:
        return None
    return legal_calendar.Calendar(legal_calendar.load_data(), "MT", spec.get("closures") or ())


def run_case(root, case):
    """-> the actual JSON result of one case (an evaluation, an expression value, or an error)."""
    try:
        if "expr" in case:
            decls = case.get("fact_decls") or {}
            try:
                compiled = compile_expr(case["expr"], decls)
            except CompileError as exc:
                return PackError([{"file": "inline", "path": exc.path, "reason": exc.reason}]).to_json()

            class _R:
                facts = decls
                by_id = {}
            ctx, _, _ = fact_values(_R, case.get("facts") or {})
            ctx[DATE_VAR] = parse_date_arg(case.get("date", "2000-01-01"))
            if calendar_of(case) is not None:
                ctx[CALENDAR_VAR] = calendar_of(case)
            add_options(ctx, case.get("config"))
            return _expr_value(compiled.fn(ctx), compiled.type)
        rules = _rules_for(root, case)
        if case.get("mode") == "checklist":
            return {"items": checklist(rules, case["date"], case.get("facts") or {})}
        if case.get("mode") == "auto_form":
            return {"fields": auto_form(rules, case["date"], case.get("atoms"))}
        history = case.get("history") or []
        if "field_penalties" in case:
            history = history_for(case["field_penalties"], case.get("subject"), {i["id"] for i in rules.infractions})
        return evaluate(rules, case["date"], case.get("facts") or {}, history, calendar_of(case))
    except RulesError as exc:
        return exc.to_json()


def matches(expected, actual, path=""):
    """Subset comparison (SPEC §10). Returns None when it matches, else a description."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{path}: expected object, got {json.dumps(actual, ensure_ascii=False)[:300]}"
        for k, v in expected.items():
            if k not in actual:
                return f"{path}/{k}: missing"
            r = matches(v, actual[k], f"{path}/{k}")
            if r:
                return r
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{path}: expected {json.dumps(expected, ensure_ascii=False)[:300]}, got {json.dumps(actual, ensure_ascii=False)[:300]}"
        for i, (e, a) in enumerate(zip(expected, actual)):
            r = matches(e, a, f"{path}/{i}")
            if r:
                return r
        return None
    if isinstance(expected, bool) or isinstance(actual, bool):
        ok = expected is actual
    elif isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        ok = expected == actual
    else:
        ok = expected == actual
    return None if ok else f"{path}: expected {json.dumps(expected, ensure_ascii=False)}, got {json.dumps(actual, ensure_ascii=False)[:300]}"


def coverage(root):
    """Which entries that can fail the vectors never exercise, per composed rule set:
    {label: {"requirements": [ids never failed nor undecided], "infractions": [ids never proposed
    nor undecided]}}. Superseded entries and vetoed ones whose option ignores them are left out."""
    seen, rulesets = set(), {}
    for _, doc in load_vector_files(root):
        for case in cases_of(doc):
            if "expr" in case or case.get("mode") in ("checklist", "auto_form"):
                continue
            try:
                rules = _rules_for(root, case)
            except RulesError:
                continue
            label = case.get("municipality") or "+".join(
                r if isinstance(r, str) else f"inline:{r.get('id')}" for r in case.get("packs") or [])
            rulesets.setdefault(label, rules)
            out = run_case(root, case)
            if "error" in out:
                continue
            seen.update(f["requirement"] for f in out["failed"])
            seen.update(i["id"] for i in out["infractions"])
            seen.update(u["id"] for u in out["undecided"])
    report = {}
    for label, rules in rulesets.items():
        report[label] = {
            "requirements": [r["id"] for r in rules.requirements
                             if r["_mode"] != "ignored" and r["id"] not in seen],
            "infractions": [i["id"] for i in rules.infractions
                            if i["_mode"] != "ignored" and i["id"] not in seen],
        }
    return report
