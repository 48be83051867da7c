"""What a municipality must (or may) configure for its rule packs, and saving it.

Keys come from the composed packs: decree amounts (amount.decree_key), configurable deadlines
and windows (config_key), and veto outcomes (vetoes[].option_key). Values are stored in
municipality.settings["rules"] in the SPEC §6 shape, with the act that set each one in
settings["rules_sources"], and validated against shared_rules/schemas/config.schema.json.
"""
import json
from datetime import date

import jsonschema

from ...core.audit import record
from ...core.errors import ApiError
from ...extensions import db
from ...rules.compose import REPO_ROOT
from ..registry.models import FISCAL_UNITS
from .citations import format_citation
from .service import file_defaults

VETO_OPTIONS = {"pending": "Pendente (não aplicar; mostrar ao fiscal como pendente)",
                "veto_upheld": "Veto mantido (dispositivo não vigora)",
                "veto_overridden": "Veto derrubado pela Câmara (dispositivo vigora)"}
PERIOD_UNITS = {"days": "dias", "months": "meses", "years": "anos"}
# Units of a decree amount: reais, or one of the fiscal units of "Unidades fiscais" (one list).
AMOUNT_UNITS = {"BRL": "R$ (reais)", **{unit: unit for unit in FISCAL_UNITS}}
_SCHEMA = None


def _schema():
    global _SCHEMA
    if _SCHEMA is None:
        _SCHEMA = json.loads((REPO_ROOT / "shared_rules" / "schemas" / "config.schema.json").read_text())
    return _SCHEMA


def configurable_keys(composed):
    """[{kind, key, label_pt, citation, choices?, note?, cap?}] in composition order, one row per
    key. `cap` ({unit, max, citation_pt}) is the ceiling the law sets for a decree amount."""
    rows, seen = [], set()

    def add(kind, key, entry, **extra):
        if key and (kind, key) not in seen:
            seen.add((kind, key))
            rows.append({"kind": kind, "key": key, "label_pt": entry.get("label_pt", key),
                         "citation": entry.get("citation"), **extra})

    for inf in composed.infractions:
        amount = inf.get("amount") or {}
        cap = None
        if "max" in amount:
            cap = {"unit": amount["unit"], "max": amount["max"],
                   "citation_pt": format_citation(composed, amount.get("citation") or inf.get("citation"))}
        add("decree_amounts", amount.get("decree_key"), inf, cap=cap)
        for measure in inf.get("measures") or []:
            add("deadlines", (measure.get("deadline") or {}).get("config_key"), measure)
    for rule in composed.recidivism + composed.escalations:
        add("periods", (rule.get("window") or {}).get("config_key"), rule)
    for deadline in composed.deadlines:
        add("deadlines", deadline.get("config_key"), deadline)
    for veto in composed.vetoes:
        vetoed = [r["label_pt"] for r in composed.requirements + composed.infractions if r.get("veto") == veto["id"]]
        add("options", veto.get("option_key"), {"label_pt": "Veto: " + "; ".join(vetoed or [veto["id"]]),
                                                "citation": veto.get("citation")},
            choices=dict(VETO_OPTIONS), note=veto.get("note"))
    for pack in composed.packs:
        for key, decl in (pack.get("options") or {}).items():
            labels = decl.get("labels_pt") or {}
            add("options", key, decl, choices={v: labels.get(v, v) for v in decl["values"]},
                note=decl.get("note"))
    return rows


def current_values(municipality):
    rules = (municipality.settings or {}).get("rules", {})
    return {kind: rules.get(kind, {}) for kind in ("decree_amounts", "deadlines", "periods", "options")}


def _field(message, field="value"):
    return ApiError(422, "validation_error", "Dados inválidos.", {field: [message]})


def parse_value(row, form):
    """Form → the SPEC §6 value for one configurable row. Raises ApiError naming the field."""
    kind = row["kind"]
    if kind == "options":
        option = form.get("option")
        if option not in row["choices"]:
            raise _field("Escolha uma das opções.", "option")
        return option
    raw = (form.get("value") or "").strip().replace(",", ".")
    try:
        number = float(raw)
    except ValueError:
        raise _field("Informe um número.") from None
    if number < 0 or number != number or number in (float("inf"),):
        raise _field("Informe um número positivo.")
    if kind in ("deadlines", "periods"):
        if not number.is_integer() or number < 1 or number > 3650:
            raise _field("Informe um número inteiro de 1 a 3650.")
        if kind == "deadlines":
            if not (form.get("valid_from") or "").strip():
                return int(number)
            # A deadline set by a decree from a date (SPEC §6): autos dated before it keep the
            # days in force then, as decree amounts and unit values do.
            try:
                valid_from = date.fromisoformat(form.get("valid_from"))
            except ValueError:
                raise _field("Data inválida (use AAAA-MM-DD).", "valid_from") from None
            return {"valid_from": valid_from.isoformat(), "days": int(number), "act": (form.get("source") or "").strip()}
        unit = form.get("period_unit")
        if unit not in PERIOD_UNITS:
            raise _field("Escolha dias, meses ou anos.", "period_unit")
        return {unit: int(number)}
    # decree_amounts: one dated row appended to the key's history
    unit = (form.get("unit") or "").strip().upper()
    if unit not in AMOUNT_UNITS:
        raise _field("Unidade inválida.", "unit")
    cap = row.get("cap")
    if cap is not None:
        # The law sets the ceiling and its unit: a value in R$ is not UFM, and no decree exceeds it.
        if unit != cap["unit"]:
            raise _field(f"A lei fixa esta multa em {cap['unit']} ({cap['citation_pt']}): "
                         f"informe o valor em {cap['unit']}, não em {'reais' if unit == 'BRL' else unit}.", "unit")
        if number > cap["max"]:
            raise _field(f"Acima do teto legal de {_fmt(cap['max'])} {cap['unit']} "
                         f"({cap['citation_pt']}).")
    try:
        valid_from = date.fromisoformat(form.get("valid_from") or "")
    except ValueError:
        raise _field("Data inválida (use AAAA-MM-DD).", "valid_from") from None
    decree = (form.get("source") or "").strip()
    if len(decree) < 3:
        raise _field("Informe o decreto que fixou o valor.", "source")
    amount_kind = "max" if form.get("amount_kind") == "max" else "value"
    return {"valid_from": valid_from.isoformat(), "unit": unit, amount_kind: number, "decree": decree}


def _fmt(n):
    return (str(int(n)) if float(n).is_integer() else str(n)).replace(".", ",")


def default_values(composed):
    """What the shipped configuration (shared_rules/config/<slug>.json) already sets: the declared
    default readings, shown beside an unconfigured key."""
    cfg = file_defaults(composed.municipality)
    return {kind: cfg.get(kind, {}) for kind in ("decree_amounts", "deadlines", "periods", "options")}


def save_value(municipality, kind, key, value, source):
    if not source or len(source.strip()) < 3:
        raise _field("Informe o ato que fundamenta o valor (decreto, sessão da Câmara…).", "source")
    settings = json.loads(json.dumps(municipality.settings or {}))
    rules = settings.setdefault("rules", {})
    before = json.loads(json.dumps(rules.get(kind, {}).get(key)))
    if kind == "decree_amounts" or (kind == "deadlines" and isinstance(value, dict)):
        held = rules.setdefault(kind, {}).get(key, [])
        if isinstance(held, int):  # days set with no date: they held from the start
            held = [{"valid_from": "0001-01-01", "days": held,
                     "act": (settings.get("rules_sources") or {}).get(f"{kind}:{key}", "")}]
        rows = [r for r in held if r["valid_from"] != value["valid_from"]]
        rules[kind][key] = sorted(rows + [value], key=lambda r: r["valid_from"])
    else:
        rules.setdefault(kind, {})[key] = value
    candidate = {"spec_version": "1.0.0", "municipality": municipality.slug, **rules}
    try:
        jsonschema.validate(candidate, _schema())
    except jsonschema.ValidationError as exc:
        raise _field(f"Valor recusado pelo esquema de configuração: {exc.message}") from None
    settings.setdefault("rules_sources", {})[f"{kind}:{key}"] = source.strip()
    municipality.settings = settings
    record("configure_rules", "municipality", municipality.id, {kind: {key: before}},
           {kind: {key: rules[kind][key]}}, reason=source.strip(), municipality_id=municipality.id)
    db.session.flush()
