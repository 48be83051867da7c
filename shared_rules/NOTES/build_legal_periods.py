"""Writes docs/legal-periods.md: every period of the three laws and the federal layer — article,
starting event, unit, counting rule, what moves its start and its end, the reading where the law is
silent, and the function that computes it (issue 35, item 1).

Two sources: the packs (`deadlines`, `recidivism`, `escalations`, `history_cancellation`), read
here, and the periods the server computes outside the packs (CODE_PERIODS below, each naming its
function, which tests/test_legal_periods.py imports). The counting rules come from the calendar
module (server/rules/legal_calendar.RULES). tests/test_legal_periods.py fails when the page is stale
and when a period is computed outside the calendar modules (tests/period_scan.py).
Run: .venv/bin/python shared_rules/NOTES/build_legal_periods.py"""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from server.rules.legal_calendar import RULES  # noqa: E402

PACKS = [("federal-base", "Federal"), ("nortelandia-lei-030-1998", "Nortelândia"),
         ("sapezal-lei-125-1999", "Sapezal"), ("paranatinga-lei-311-2007", "Paranatinga")]
OUT = ROOT / "docs" / "legal-periods.md"

START_PT = {"notificacao": "recebimento da notificação", "intimacao": "intimação", "decisao": "decisão anterior",
            "publicacao": "publicação da lei", "fim_prazo_renovacao": "fim da validade não renovada",
            "vencimento_apolice": "vencimento da apólice", "inicio_afastamento": "início do afastamento"}

# How each pack deadline is computed today, by id (kinds defesa/recurso: autos.instances.due).
PACK_COMPUTED_BY = {
    "sap.prazo.suspensao_renovacao": "permits.operations._grace_end → legal_calendar.cc_132_days",
    "par.prazo.suplente": "selection.operations._regularize_until → legal_calendar.deadline "
                          "(from the day the clerk grants the window; option paranatinga.art33_3_counting)",
    "par.prazo.afastamento": "permits.changes_of_life.declare_absence_loss → legal_calendar.plain_days_end",
    "par.prazo.moto_apos_selecao": "selection.operations._motorcycle_due → legal_calendar.cc_132_days",
}
INSTANCE_KINDS = ("defesa", "recurso")

MOVES_CC = "início: o dia do evento (excluído); fim: dia sem expediente → próximo dia útil"
MOVES_CPC = "início: primeiro dia útil seguinte ao evento; fim: sempre dia útil"
MOVES_NONE = "nada: dias corridos, fim não prorrogado"
MOVES_810 = "nada: ano/mês ao dia correspondente (sem prorrogação)"

# Periods the server computes that no pack deadline declares: (law, article, period, start, unit,
# rule, moves, reading, computed by). `computed by` names "module.function" under server.modules
# (or server.rules), checked by the test.
CODE_PERIODS = [
    ("Nortelândia", "art. 6º", "Validade do alvará: 1 ano", "emissão", "ano", "lei_810", MOVES_810,
     "—", "issuance.validity.issue_validity → legal_calendar.lei_810_months"),
    ("Nortelândia", "art. 14", "ISSQN do mês: até o dia 10 do mês seguinte", "fim do mês", "data fixa",
     "ctn_210", "fim: dia sem expediente → próximo dia útil; recalculado quando o município registra um "
     "fechamento", "—", "issuance.operations.issqn_due → legal_calendar.ctn_210_due"),
    ("Sapezal", "art. 10, § 1º; art. 11", "Validade do alvará: até 31 de março (dentro de 1 ano da emissão)",
     "emissão ou renovação", "data fixa", "lei_810",
     "nada: 31 de março não é prorrogado (item 2 da issue 35, em outro ramo)",
     "o fim é uma data da lei, não um prazo contado", "issuance.validity.issue_validity"),
    ("Sapezal", "art. 15", "Pedido de substituição da moto: até 15 dias", "dia da troca da moto",
     "dias", "plain (opção: cc_132)", MOVES_NONE,
     "a lei não diz de quando correm os 15 dias: da troca; dias corridos sem prorrogação (pedido "
     "administrativo, não prazo de processo)",
     "permits.changes_of_life._window_end → legal_calendar.deadline (option sapezal.art15_counting)"),
    ("Paranatinga", "art. 20", "Termo de permissão: 2 anos", "emissão", "ano", "lei_810", MOVES_810, "—",
     "issuance.validity.issue_validity → legal_calendar.lei_810_months"),
    ("Municípios (tarifa)", "lei de cada município", "Tabela de tarifas revista anualmente", "vigência da tabela",
     "ano", "lei_810", MOVES_810, "“anual”: ao mesmo dia do ano seguinte",
     "tariffs.operations.tariff_summary → legal_calendar.lei_810_years"),
]


def _pack(name):
    return json.loads((ROOT / "shared_rules" / "packs" / f"{name}.json").read_text(encoding="utf-8"))


def _article(citation):
    art = f"art. {citation.get('art')}"
    if citation.get("paragrafo"):
        par = citation["paragrafo"]
        art += ", parágrafo único" if par == "unico" else f", § {par}º"
    if citation.get("inciso"):
        art += f", inciso {citation['inciso']}"
    return art


def _window(window):
    if "months" in window:
        return f"{window['months']} meses", "lei_810"
    if "years" in window:
        return f"{window['years']} ano(s)", "lei_810"
    return f"configurado (`{window.get('config_key')}`)", "lei_810"


def _deadline_row(muni, dl, options):
    option = dl.get("counting_option")
    if option:
        rule = f"opção `{option}`: {' ou '.join(options[option]['values'])}"
        moves = f"{MOVES_CPC} (cpc_219) / {MOVES_CC} (cc_132)"
    else:
        rule, moves = "cc_132", MOVES_CC
    unit = f"{dl['days']} dias" if dl.get("days") is not None else f"dias configurados (`{dl.get('config_key')}`)"
    computed = PACK_COMPUTED_BY.get(dl["id"]) or (
        "autos.instances.due → legal_calendar.deadline" if dl["kind"] in INSTANCE_KINDS else "exibido, não contado")
    if dl["id"] in PACK_COMPUTED_BY and "plain_days_end" in PACK_COMPUTED_BY[dl["id"]]:
        rule, moves = "plain", MOVES_NONE
    if dl["id"] == "par.prazo.suplente":
        rule, moves = "plain (opção: cc_132 ou cpc_219)", MOVES_NONE
    reading = (dl.get("note") or "—").replace("|", "/").replace("\n", " ")
    return [muni, _article(dl["citation"]), f"`{dl['id']}` {dl.get('label_pt', '')}",
            START_PT.get(dl.get("starts"), dl.get("starts") or "—"), unit, rule, moves, reading, computed]


def pack_rows():
    rows = []
    for name, muni in PACKS:
        pack = _pack(name)
        options = pack.get("options") or {}
        for dl in pack.get("deadlines", []):
            rows.append(_deadline_row(muni, dl, options))
        for rec in pack.get("recidivism", []):
            unit, rule = _window(rec["window"])
            rows.append([muni, _article(rec["citation"]), f"`{rec['id']}` {rec.get('label_pt', '')}",
                         "data de cometimento da infração (para trás)", unit, rule, MOVES_810,
                         (rec.get("note") or "—").replace("|", "/"), "rules engine (rules.history) → dates.period_end"])
        for esc in pack.get("escalations", []):
            unit, rule = _window(esc["window"])
            rows.append([muni, _article(esc["citation"]), f"`{esc['id']}` {esc.get('label_pt', 'escalonamento')}",
                         "data de cometimento (para trás)", unit, rule, MOVES_810,
                         (esc.get("note") or "—").replace("|", "/"), "rules engine (rules.history) → dates.period_end"])
        hc = pack.get("history_cancellation")
        for item in (hc if isinstance(hc, list) else [hc] if hc else []):
            unit, rule = _window(item["quiet_period"])
            rows.append([muni, _article(item["citation"]), f"`{item['id']}` {item.get('label_pt', '')}",
                         "última infração", unit, rule, MOVES_810, (item.get("note") or "—").replace("|", "/"),
                         "autos.jobs.cancel_quiet_records → dates.period_end"])
    return rows


def _table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def render():
    parts = [
        "# Legal periods: every period of the three laws and the federal layer",
        "",
        "Generated by `shared_rules/NOTES/build_legal_periods.py` from the packs and the code "
        "(do not edit by hand; `tests/test_legal_periods.py` fails when this page is stale). Every "
        "period is counted by the calendar modules (`server/rules/legal_calendar.py`, "
        "`server/rules/dates.py`, their twins in `pwa/js/rules/`); the same test scans server and "
        "phone code for day arithmetic elsewhere (`tests/period_scan.py`) and names each allowed "
        "place with its reason.",
        "",
        "## Counting rules (federal layer)",
        "",
        _table(["rule", "how", "source"], [[f"`{k}`", v["label_pt"], v["citation_pt"]] for k, v in RULES.items()]
),
        "",
        "## Periods declared in the packs",
        "",
        _table(["law", "article", "period", "starts on", "unit", "counting", "what moves start and end",
                "reading where the law is silent", "computed by"], pack_rows()),
        "",
        "## Periods computed by the server outside the packs",
        "",
        _table(["law", "article", "period", "starts on", "unit", "counting", "what moves start and end",
                "reading where the law is silent", "computed by"], [list(p) for p in CODE_PERIODS]),
        "",
    ]
    return "\n".join(parts)


if __name__ == "__main__":
    OUT.write_text(render(), encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
