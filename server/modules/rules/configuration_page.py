"""How "Configuração das regras" presents the configurable keys to a clerk: grouped by kind and,
within a kind, by the article they come from; each key with an anchor, its current value in
words ("R$ 1.234,56 desde 01/01/2026 — Decreto 12/2026", "3 meses"), never an internal key."""
import re

from ...core.ptbr import brl, date_br
from .citations import format_citation
from .settings import AMOUNT_UNITS, PERIOD_UNITS

KIND_TITLES = {"decree_amounts": "Valores fixados por decreto", "deadlines": "Prazos",
               "periods": "Janelas de tempo", "options": "Vetos e leituras a decidir"}
KIND_HINTS = {
    "decree_amounts": "Multas que a lei manda fixar por decreto: valor (ou teto) e unidade, a partir de uma data.",
    "deadlines": "Prazos em dias que a lei deixa à regulamentação.",
    "periods": "Por quanto tempo uma infração anterior conta para reincidência ou agravamento.",
    "options": "Resultado de vetos e a leitura de trechos ambíguos da lei.",
}
OTHER_GROUP = "Outras disposições"


def anchor(row):
    return "cfg-" + re.sub(r"[^a-z0-9]+", "-", f"{row['kind']}-{row['key']}".lower()).strip("-")


def number_pt(n):
    """50.0 → "50", 12.5 → "12,5" (a quantity of a fiscal unit, not money)."""
    n = float(n)
    text = str(int(n)) if n.is_integer() else f"{n:.4f}".rstrip("0")
    whole, _, frac = text.partition(".")
    groups = []
    while len(whole) > 3:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    whole = ".".join([whole, *groups]) if whole else ".".join(groups)
    return whole + ("," + frac if frac else "")


def amount_text(entry):
    """One dated decree amount, as a clerk reads it."""
    unit = entry.get("unit")
    ceiling = "max" in entry and "value" not in entry
    raw = entry.get("max") if ceiling else entry.get("value")
    shown = brl(raw) if unit == "BRL" else f"{number_pt(raw)} {AMOUNT_UNITS.get(unit, unit)}"
    return f"{'até ' if ceiling else ''}{shown} desde {date_br(entry.get('valid_from'))} — {entry.get('decree')}"


def period_text(value):
    return ", ".join(f"{n} {PERIOD_UNITS.get(u, u)}" for u, n in (value or {}).items())


def current_state(row, current, default):
    """(badge, text, is_default): what the key holds now; badge ∈ pending/declared/missing/set."""
    kind = row["kind"]
    if current is None:
        if kind == "options" and "pending" in row.get("choices", {}):
            return "pending", "Pendente (padrão)", True
        if default is not None and kind == "options":
            return "declared", row["choices"].get(default, default), True
        if default is not None and kind == "periods":
            return "declared", period_text(default), True
        return "missing", "", False
    if kind == "decree_amounts":
        return "set", "; ".join(amount_text(e) for e in current), False
    if kind == "periods":
        return "set", period_text(current), False
    if kind == "options":
        return "set", row["choices"].get(current, current), False
    if isinstance(current, list):  # dated rows (SPEC §6): each from its date, with its act
        return "set", "; ".join(f"{r['days']} dias" + ("" if r["valid_from"] == "0001-01-01" else
                                                        f" desde {date_br(r['valid_from'])}") + (f" — {r['act']}" if r.get("act") else "")
                                for r in current), False
    return "set", f"{current} dias", False


# Pack notes name the veto outcomes by their option keys; the clerk reads the labels' words.
_NOTE_WORDS = {"veto_overridden": "veto derrubado", "veto_upheld": "veto mantido", "pending": "pendente"}


def readable_note(note):
    for key, words in _NOTE_WORDS.items():
        note = re.sub(rf"\b{key}\b", words, note)
    return note


_DOTTED = re.compile(r"\b[a-z][a-z0-9]*(?:\.[a-z0-9_]+)+\b")


def note_words(composed, keys):
    """A function that words a pack note for a clerk (issue 34, item 4): an option, deadline or
    decree key becomes its label on "Configuração das regras", a requirement's or infraction's id
    its title; the veto outcomes their words. Anything else dotted ("art.") is left as written."""
    labels = {row["key"]: row["label_pt"] for row in keys if row.get("key")}

    def word(match):
        key = match.group(0)
        if key in labels:
            return f"a configuração “{labels[key]}” (Configuração das regras)"
        entry = composed.by_id.get(key) if hasattr(composed, "by_id") else None
        return f"“{entry['label_pt']}”" if isinstance(entry, dict) and entry.get("label_pt") else key

    return lambda note: readable_note(_DOTTED.sub(word, note)) if note else note


def _group_citation(citation):
    return {k: citation[k] for k in ("law", "art") if citation.get(k)} if isinstance(citation, dict) else {}


def grouped(composed, keys):
    """[(kind, title, hint, [(group title, group anchor, [rows])])] in the page's order."""
    out = []
    for kind, title in KIND_TITLES.items():
        groups = {}
        for row in (k for k in keys if k["kind"] == kind):
            base = _group_citation(row.get("citation"))
            label = format_citation(composed, base) if base else OTHER_GROUP
            full = format_citation(composed, row.get("citation")) if row.get("citation") else ""
            groups.setdefault(label, []).append({
                **row, "anchor": anchor(row), "note": readable_note(row["note"]) if row.get("note") else None,
                # The row's own citation only when it says more than its group's heading.
                "citation_text": full if full != label else ""})
        if groups:
            items = [(label, f"grp-{kind}-{n}", rows) for n, (label, rows) in enumerate(groups.items())]
            out.append((kind, title, KIND_HINTS[kind], items))
    return out
