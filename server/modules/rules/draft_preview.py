"""A draft pack seen before it reaches a phone (issue 38): the analyst uploads the pack (and, for a
law the system does not have yet, its text); the back office composes it with the federal layer,
the municipality's configuration and — for an amendment — the law it amends, runs the checker
(problems in the law's terms), and shows the checklist the phone would ask on a date, the verdicts
for answers typed in, and the auto as it would be printed. Nothing is stored: the draft travels
back and forth in the form, and publishing is another act (the guide, "Publicar")."""
import json
from datetime import date

from ...rules import RulesError, evaluate
from ...rules.authoring import checker, law_text
from ...rules.checklist import auto_form, checklist
from ...rules.compose import REPO_ROOT, ComposedRules, read_packs
from ..registry.facts import fact_source
from .citations import format_citation, penalty_label
from .service import config_overrides, file_defaults, published_dirs

MAX_BYTES = 2 * 1024 * 1024
NOT_CHECKED = "nao_verificado"
SAMPLE_ATOMS = {"place": "Local do exemplo", "date_time": "(data e hora da assinatura)", "subject_name": "Nome do autuado",
                "permit_number": "nº 001/2026", "plate": "placa ABC1D23", "vehicle_make_species": "Honda CG 160, motocicleta",
                "agency": "Prefeitura Municipal", "agent": "Fiscal do exemplo", "subject_cnh": "",
                "agent_signature": "assinado", "operator_signature": "assinado"}


class DraftError(ValueError):
    """A draft the page cannot read: `field` names the form field, the message is pt-BR."""

    def __init__(self, field, message):
        super().__init__(message)
        self.field = field


def read_draft(form, files):
    """(pack dict, pack text, law text or None) from an upload or the form's hidden copy."""
    upload = files.get("pack_file")
    raw = upload.read(MAX_BYTES + 1) if upload and upload.filename else (form.get("pack_json") or "").encode()
    if not raw.strip():
        raise DraftError("pack_file", "Envie o arquivo do pacote (JSON).")
    if len(raw) > MAX_BYTES:
        raise DraftError("pack_file", "Arquivo grande demais (máximo 2 MB).")
    try:
        text = raw.decode("utf-8")
        pack = json.loads(text)
    except UnicodeDecodeError:
        raise DraftError("pack_file", "O arquivo não está em UTF-8.") from None
    except ValueError as exc:
        raise DraftError("pack_file", f"O arquivo não é um JSON válido: linha {exc.lineno}, coluna {exc.colno} "
                                      f"({exc.msg}).") from None
    if not isinstance(pack, dict):
        raise DraftError("pack_file", "O pacote deve ser um objeto JSON ({…}).")
    law = files.get("law_file")
    law_raw = law.read(MAX_BYTES + 1) if law and law.filename else (form.get("law_text") or "").encode()
    try:
        uploaded = law_raw.decode("utf-8") if law_raw.strip() else None
    except UnicodeDecodeError:
        raise DraftError("law_file", "O texto da lei não está em UTF-8.") from None
    return pack, text, uploaded


def _municipal_packs(municipality):
    extra, _ = published_dirs()
    return [p for _, p in read_packs(extra_dirs=extra)]


def compose_draft(municipality, pack, uploaded_text):
    """(problems, composed rules or None, coverage reports, what the draft changes)."""
    if pack.get("municipality") != municipality.slug:
        raise DraftError("pack_file", f"O pacote é de outro município (“{pack.get('municipality')}”), não de "
                                      f"{municipality.name} (“{municipality.slug}”).")
    everything = _municipal_packs(municipality)
    federal = [p for p in everything if p.get("kind") == "federal"]
    own = [p for p in everything if p.get("kind") == "municipal" and p.get("municipality") == municipality.slug]
    if pack.get("amends"):
        others = federal + [p for p in own if p.get("id") != pack.get("id")]
    else:
        others = federal + [p for p in own if p.get("amends") and p.get("amends") == pack.get("id")]
    config = {"spec_version": "1.0.0", "municipality": municipality.slug, **file_defaults(municipality.slug)}
    for key, value in config_overrides(municipality).items():
        config[key] = {**(config.get(key) or {}), **value}
    texts = _law_texts_with(pack, uploaded_text)
    amendments = [p for p in others if p.get("amends") == pack.get("id")]
    bases = [p for p in others if p not in amendments]
    problems, rules, reports = checker.check_pack(pack, bases, config, texts, fact_source, file="rascunho",
                                                  amendments=amendments)
    if rules is not None:
        # The checker composes the draft alone; the preview needs the whole municipality.
        packs = bases + [pack] + amendments
        rules = ComposedRules(packs, config, [p.get("id", "?") for p in packs])
        rules = None if rules.problems else rules
    return problems, rules, reports, changes(own, pack)


def _law_texts_with(pack, uploaded_text):
    """The shipped law texts, and the uploaded one as the text of a law the system lacks."""
    texts = law_text.load_texts(_repo_root())
    if uploaded_text:
        for law in (pack.get("laws") or {}).values():
            if law.get("source_file") and law["source_file"] not in texts:
                texts[law["source_file"]] = uploaded_text
    return texts


def _repo_root():
    return REPO_ROOT


def changes(own, pack):
    """{"added", "changed", "removed"}: ids the draft adds, gives a new wording or drops, against
    what the municipality runs now (an amendment removes nothing: its old wordings stay dated)."""
    sections = ("requirements", "infractions", "recidivism", "escalations", "deadlines", "auto_fields")
    current = {}
    for p in own:
        if p.get("id") == pack.get("id") or (pack.get("amends") and p.get("id") == pack.get("amends")):
            for s in sections:
                for e in p.get(s) or []:
                    current[e.get("id")] = e
    mine = {e.get("id"): e for s in sections for e in pack.get(s) or []}
    return {"added": sorted(set(mine) - set(current)),
            "changed": sorted(i for i in set(mine) & set(current) if mine[i] != current[i]),
            "removed": sorted(set(current) - set(mine)) if not pack.get("amends") else []}


def _answer(item, raw):
    """A form answer → the fact value the engine takes (as the phone's engineFacts does)."""
    if raw in (None, "", NOT_CHECKED):
        return None
    if item["input"] in ("yes_no", "yes_no_na"):
        return {"true": True, "false": False, "na": "na"}.get(raw)
    if item["input"] == "number":
        try:
            value = float(raw.replace(",", "."))
        except ValueError:
            return None
        return int(value) if value.is_integer() else value
    return raw


def preview(rules, day, form):
    """The checklist on `day` with the answers typed in, the verdicts and the auto."""
    answers = {}
    items = checklist(rules, day.isoformat(), {})
    for item in items:
        value = _answer(item, form.get(f"f:{item['fact']}"))
        if value is not None:
            answers[item["fact"]] = value
    error = None
    try:
        items = checklist(rules, day.isoformat(), answers)
        result = evaluate(rules, day.isoformat(), answers, [])
    except RulesError as exc:
        result, error = None, getattr(exc, "message", str(exc))
    for item in items:
        item["value"] = form.get(f"f:{item['fact']}", "")
        item["citations_pt"] = [format_citation(rules, c) for c in item["citations"] if c]
    verdict = None
    if result is not None:
        infractions = [i for i in result["infractions"] if i["triggered_by"]]
        verdict = {
            "failed": [{"label": f["label_pt"], "citation": format_citation(rules, f["citation"]), "grace": f.get("grace")}
                       for f in result["failed"]],
            "infractions": [{"label": i["label_pt"], "citation": format_citation(rules, i["citation"]),
                             "penalty": penalty_label(i["penalty"]["kind"]), "amount": _amount_pt(i["amount"]),
                             "measures": [m["label_pt"] + (f" ({m['only_if_pt']})" if m.get("only_if_pt") else "")
                                          for m in i["measures"]],
                             "jurisdiction": i["jurisdiction"]} for i in infractions],
            "undecided": len(result["undecided"]), "passed": len(result["passed"]),
            "deadlines": [{"label": d["label_pt"], "days": d["days"], "citation": format_citation(rules, d["citation"])}
                          for d in result["deadlines"] if d["kind"] in ("defesa", "recurso")]}
    atoms = {**SAMPLE_ATOMS, "date_time": day.strftime("%d/%m/%Y") + " 10:00"}
    if verdict and verdict["infractions"]:
        atoms["infractions_description"] = "; ".join(i["label"] for i in verdict["infractions"])
        atoms["infractions_provision"] = "; ".join(i["citation"] for i in verdict["infractions"])
        atoms["infractions_typification"] = atoms["infractions_description"]
    fields = [{"label": g["label_pt"], "value": g["value"], "citation": "; ".join(format_citation(rules, c) for c in g["citations"] if c),
               "typed": bool(g["typed"])} for g in auto_form(rules, day.isoformat(), atoms)]
    return {"items": items, "verdict": verdict, "fields": fields, "error": error}


def _amount_pt(amount):
    if not amount:
        return "sem multa"
    unit = amount.get("unit")
    if amount.get("value") is None:
        return f"até {amount['max']:g} {unit}" if amount.get("max") is not None else "a definir (decreto não configurado)"
    text = f"{amount['value']:g} {unit}".replace(".", ",")
    if amount.get("brl_cents") is not None and unit != "BRL":
        text += f" = R$ {amount['brl_cents'] / 100:,.2f}".replace(",", "X").replace(".", ",").replace("X", ".")
    return text


def parse_day(raw, default):
    try:
        return date.fromisoformat(raw) if raw else default
    except ValueError:
        raise DraftError("date", "Data inválida (use AAAA-MM-DD).") from None
