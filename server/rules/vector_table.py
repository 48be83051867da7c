"""Vectors written as a table (SPEC §10 "Tables"): one CSV row per case, facts in columns, the
expected outcome in columns, so a municipal analyst writes them in a spreadsheet. The JS twin is
pwa/js/rules/vector_table.js: both read the same file, build the same cases, run them in their
engine and project the result onto the same columns (tests/test_rules_vector_tables.py checks
that both print the same projection for every row).

File: `shared_rules/vectors/tables/<municipality>[.<topic>].csv`, UTF-8, delimiter `,` or `;`
(the one the header line uses more), cells quoted as spreadsheets do. Columns:
- `caso` (the case's name; a row whose `caso` starts with `@` is a profile: inputs only, not run;
  an empty `caso` is a blank row), `base` (the profile or case whose inputs the row inherits),
  `data` (AAAA-MM-DD or DD/MM/AAAA), `histórico` (`<infração> <data> [aplicada <data>]
  [pendente|anulada]`, `;` between entries), `selecionadas` (ids), `penalidades` (`id=tipo`),
  `opções` (`chave=valor`), `nota` (the article the row tests; not compared);
- every column whose name has a dot is a fact: `sim`/`não` for yes/no, numbers with a comma or
  a point, dates, the enum's value; `na` = não se aplica; `-` = unknown (clears what the base set);
  empty = as the base (absent without one);
- expected, compared when the cell is not empty (`-` = none): `infrações`, `falhas`, `avisos`
  (failed with an adaptation period's notice), `indecisos`, `reincidência` (ids whose recidivism
  applied) — sets of ids; `valores` (`id=20 UFM`, `?` for unknown), `reais` (`id=200,00`),
  `penalidade` (`id=multa`), `medidas` (`id:retencao`), `escalonamentos` (`id=would_reach`),
  `erro` (`fact_error:<fato>:<motivo>`, `history_error:<índice>:<motivo>`, `pack_error:<motivo>`).
"""
import json
import re
from pathlib import Path

from .compose import load_municipality
from .evaluation import evaluate
from .errors import RulesError
from .vectors import calendar_of

NAME, BASE, DATE, HISTORY, SELECTED, PENALTIES, OPTIONS, NOTE = (
    "caso", "base", "data", "histórico", "selecionadas", "penalidades", "opções", "nota")
INPUTS = (BASE, DATE, HISTORY, SELECTED, PENALTIES, OPTIONS)
SETS = ("infrações", "falhas", "avisos", "indecisos", "reincidência", "medidas", "escalonamentos")
MAPS = ("valores", "reais", "penalidade")
ERROR = "erro"
EXPECTED = SETS + MAPS + (ERROR,)
KNOWN = (NAME, NOTE) + INPUTS + EXPECTED
_TRUE, _FALSE = ("sim", "s", "true", "verdadeiro"), ("não", "nao", "n", "false", "falso")
_BR_DATE = re.compile(r"^(\d{2})/(\d{2})/(\d{4})$")


class TableError(ValueError):
    """A cell the table cannot mean: `line` (1-based, as a spreadsheet numbers rows), `column`."""

    def __init__(self, line, column, message):
        super().__init__(f"linha {line}, coluna {column}: {message}")
        self.line, self.column, self.message_pt = line, column, message


def parse_csv(text):
    """RFC 4180 rows (a list of cell lists), delimiter `,` or `;` from the header line."""
    text = text.lstrip("\ufeff")
    header = text.split("\n", 1)[0]
    delim = ";" if header.count(";") > header.count(",") else ","
    rows, row, cell, i, quoted = [], [], [], 0, False
    while i < len(text):
        ch = text[i]
        if quoted:
            if ch == '"' and text[i + 1:i + 2] == '"':
                cell.append('"')
                i += 1
            elif ch == '"':
                quoted = False
            else:
                cell.append(ch)
        elif ch == '"':
            quoted = True
        elif ch == delim:
            row.append("".join(cell))
            cell = []
        elif ch == "\n" or ch == "\r":
            if ch == "\r" and text[i + 1:i + 2] == "\n":
                i += 1
            row.append("".join(cell))
            rows.append(row)
            row, cell = [], []
        else:
            cell.append(ch)
        i += 1
    if cell or row:
        row.append("".join(cell))
        rows.append(row)
    return rows


def read_table(text):
    """-> (header, [{"line", "cells": {column: text}}]) with every known column named once."""
    rows = parse_csv(text)
    if not rows:
        raise TableError(1, NAME, "tabela vazia")
    header = [h.strip() for h in rows[0]]
    for col in header:
        if col and col not in KNOWN and "." not in col and not col.startswith("$"):
            raise TableError(1, col, "coluna desconhecida (um fato tem ponto no nome, ex.: vehicle.engine_cc)")
    if NAME not in header:
        raise TableError(1, NAME, "falta a coluna caso")
    out = []
    for n, cells in enumerate(rows[1:], start=2):
        values = {h: (cells[k].strip() if k < len(cells) else "") for k, h in enumerate(header) if h}
        if values.get(NAME):
            out.append({"line": n, "cells": values})
    return header, out


def _date(text, line, column):
    m = _BR_DATE.match(text)
    iso = f"{m[3]}-{m[2]}-{m[1]}" if m else text
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", iso):
        raise TableError(line, column, f"“{text}” não é data (use AAAA-MM-DD ou DD/MM/AAAA)")
    return iso


def _number(text, line, column):
    t = text.replace(",", ".")
    if not re.fullmatch(r"-?\d+(\.\d+)?", t):
        raise TableError(line, column, f"“{text}” não é número")
    value = float(t)
    return int(value) if value.is_integer() else value


def fact_value(decl, text, line, column):
    """A fact cell as the engine takes it (SPEC §5): None for `-`, "na" for `na`."""
    low = text.lower()
    if low == "-":
        return None
    if low == "na":
        return "na"
    t = decl["type"]
    if t == "bool":
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise TableError(line, column, f"“{text}” não é sim ou não")
    if t == "number":
        return _number(text, line, column)
    if t == "date":
        return _date(text, line, column)
    return text


def _items(text):
    return [] if text.strip() == "-" else [p.strip() for p in text.split(";") if p.strip()]


def _pairs(text, sep, line, column):
    out = {}
    for item in _items(text):
        if sep not in item:
            raise TableError(line, column, f"“{item}” deveria ser id{sep}valor")
        key, value = item.split(sep, 1)
        out[key.strip()] = value.strip()
    return out


def _history(text, line):
    out = []
    for item in _items(text):
        words = item.split()
        if len(words) < 2:
            raise TableError(line, HISTORY, f"“{item}” deveria ser “<infração> <data> [aplicada <data>]”")
        entry = {"infraction": words[0], "date": _date(words[1], line, HISTORY)}
        rest = words[2:]
        while rest:
            word = rest.pop(0).lower()
            if word == "aplicada" and rest:
                entry["applied_on"] = _date(rest.pop(0), line, HISTORY)
            elif word in ("pendente", "anulada"):
                entry["state"] = {"pendente": "pending", "anulada": "annulled"}[word]
            else:
                raise TableError(line, HISTORY, f"“{word}” não é “aplicada <data>”, “pendente” nem “anulada”")
        out.append(entry)
    return out


def _inputs(rows, row, seen=()):
    """The row's input cells with its base's (recursively) beneath them."""
    base = row["cells"].get(BASE)
    cells = {}
    if base:
        parent = next((r for r in rows if r["cells"][NAME] == base), None)
        if parent is None or base in seen:
            raise TableError(row["line"], BASE, f"base “{base}” não existe nesta tabela")
        cells = _inputs(rows, parent, (*seen, base))
    for col, text in row["cells"].items():
        if text and col not in EXPECTED and col not in (NAME, NOTE, BASE):
            cells[col] = text
    return cells


def build_case(rules, rows, row, municipality):
    """The vector case of a table row (SPEC §10), and its expected cells."""
    line = row["line"]
    cells = _inputs(rows, row)
    facts = {}
    for col, text in cells.items():
        if "." in col and not col.startswith("$"):
            decl = rules.facts.get(col)
            if decl is None:
                raise TableError(line, col, "fato não declarado nos pacotes do município")
            value = fact_value(decl, text, line, col)
            if value is not None:
                facts[col] = value
    if cells.get(SELECTED):
        facts["$selected"] = _items(cells[SELECTED])
    if cells.get(PENALTIES):
        facts["$penalties"] = _pairs(cells[PENALTIES], "=", line, PENALTIES)
    if not cells.get(DATE):
        raise TableError(line, DATE, "falta a data")
    case = {"name": row["cells"][NAME], "municipality": municipality, "date": _date(cells[DATE], line, DATE),
            "facts": facts, "history": _history(cells.get(HISTORY, ""), line)}
    if cells.get(OPTIONS):
        case["config_overrides"] = {"options": _pairs(cells[OPTIONS], "=", line, OPTIONS)}
    expected = {col: row["cells"][col] for col in EXPECTED if row["cells"].get(col)}
    return case, expected


def _fmt(number):
    if number is None:
        return "?"
    return (str(int(number)) if float(number) == int(number) else repr(float(number))).replace(".", ",")


def _cents(cents):
    return "?" if cents is None else f"{cents // 100},{cents % 100:02d}"


def project(actual):
    """The result as the table's columns: sets sorted, maps sorted by id (what both engines print)."""
    if "error" in actual:
        err = actual["error"]
        tail = {"fact_error": err.get("fact"), "history_error": err.get("index")}.get(err["code"])
        reason = err.get("reason") or ",".join(sorted({p["reason"] for p in err.get("problems") or []}))
        return {ERROR: ":".join(str(x) for x in (err["code"], tail, reason) if x is not None)}
    infs = actual["infractions"]
    return {
        "infrações": sorted(i["id"] for i in infs),
        "falhas": sorted(f["requirement"] for f in actual["failed"] if not f.get("grace")),
        "avisos": sorted(f["requirement"] for f in actual["failed"] if f.get("grace")),
        "indecisos": sorted({u["id"] for u in actual["undecided"]}),
        "reincidência": sorted(i["id"] for i in infs if (i.get("recidivism") or {}).get("applied")),
        "medidas": sorted({f"{i['id']}:{m['kind']}" for i in infs for m in i["measures"]}),
        "escalonamentos": sorted(f"{e['id']}={e['status']}" for e in actual["escalations"]),
        "valores": {i["id"]: f"{_fmt(i['amount']['value'])} {i['amount']['unit']}" for i in infs if i.get("amount")},
        "reais": {i["id"]: _cents(i["amount"]["brl_cents"]) for i in infs if i.get("amount")},
        "penalidade": {i["id"]: i["penalty"]["kind"] for i in infs},
        ERROR: None,
    }


def compare(expected, projection):
    """[pt-BR problem] for each expected cell the projection does not match."""
    problems = []
    for col, text in expected.items():
        got = projection.get(col)
        if col == ERROR:
            if got != text:
                problems.append(f"erro esperado “{text}”, obtido “{got or 'nenhum'}”")
            continue
        if ERROR in projection and projection[ERROR] and col != ERROR:
            problems.append(f"{col}: a avaliação deu erro “{projection[ERROR]}”")
            continue
        if col in SETS:
            want = sorted(set(_items(text)))
            if want != got:
                problems.append(f"{col}: esperado {'; '.join(want) or '-'}, obtido {'; '.join(got) or '-'}")
        else:
            want = _pairs(text, "=", 0, col)
            for key, value in want.items():
                if got.get(key) != value:
                    problems.append(f"{col}: {key} esperado {value}, obtido {got.get(key, 'nenhum')}")
    return problems


def table_municipality(path):
    """`<slug>.csv` or `<slug>.<topic>.csv`."""
    return Path(path).name.split(".")[0]


def run_table(path, packs_dir=None, config_dir=None):
    """[{"line", "name", "case", "projection", "problems"}] for every case row of a table."""

    slug = table_municipality(path)
    rules = load_municipality(slug, packs_dir=packs_dir, config_dir=config_dir)
    _, rows = read_table(Path(path).read_text(encoding="utf-8"))
    out = []
    for row in rows:
        if row["cells"][NAME].startswith("@"):
            continue
        try:
            case, expected = build_case(rules, rows, row, slug)
        except TableError as exc:
            out.append({"line": row["line"], "name": row["cells"][NAME], "case": None, "projection": None,
                        "problems": [str(exc)]})
            continue
        case_rules = rules
        if case.get("config_overrides"):
            case_rules = load_municipality(slug, packs_dir=packs_dir, config_dir=config_dir,
                                           config_overrides=case["config_overrides"])
        try:
            actual = evaluate(case_rules, case["date"], case["facts"], case["history"], calendar_of(case))
        except RulesError as exc:
            actual = exc.to_json()
        projection = project(actual)
        out.append({"line": row["line"], "name": case["name"], "case": case, "projection": projection,
                    "problems": compare(expected, projection), "note": row["cells"].get(NOTE, "")})
    return out


def table_files(root):
    return sorted((Path(root) / "shared_rules" / "vectors" / "tables").glob("*.csv"))


def canonical(projection):
    return json.dumps(projection, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
