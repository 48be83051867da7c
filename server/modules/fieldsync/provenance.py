"""How each checklist answer of a signed record was given (issue 34), read for people: the review
page, the CSV exports, the notificação. The phone signs it with the record (pwa/js/fiscal/
provenance.js, docs/sync-api.md "How each answer was given"):

  answer_how[fact]       {"how": "item", "at", "quick"?} | {"how": "group", "declaration": n} |
                         {"how": "registry"}
  group_declarations[n]  {"group", "label_pt", "kind": "compliant" | "none", "at", "shown", "answered"}
  not_applicable[fact]   {"because": {fact: answer}}
  (auto) infractions[i].grounds [{"fact", "value", "how", "at"?}], checklist_how {counts}

A record signed by a phone running an earlier shell has none of these: its answers are shown as
given "de forma não registrada", never guessed to be item by item. Everything here reads the body
as sent, whatever its shapes (a signed record exists whatever the server thinks of it: a shape it
cannot read is worded as such, never a 500)."""
import re
from datetime import datetime

from ...core.clock import to_local
from ...core.ptbr import date_br

NOT_RECORDED = "forma de resposta não registrada (aplicativo anterior)"
UNREADABLE = "forma de resposta ilegível no registro"
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
KINDS_PT = {"compliant": "Tudo conforme neste grupo", "none": "Nenhuma destas situações"}


def _dict(value):
    return value if isinstance(value, dict) else {}


def recorded(body):
    """Whether the phone recorded how its answers were given (every record since issue 34)."""
    return isinstance(body.get("answer_how"), dict)


def answer_text(value, decl, how=None):
    """An answer as a person reads it: "Sim", "Não", "Não se aplica", dd/mm/aaaa, "2 retrovisores";
    a number answered with a quick "Conforme" reads as the law's threshold, not as a count."""
    decl = decl or {}
    if isinstance(how, dict) and how.get("quick"):
        words = (decl.get("checklist") or {}).get("compliant_pt")
        return f"Conforme ({words}), sem contar ou medir" if words else "Conforme, sem contar ou medir"
    if value == "nao_verificado":
        return "não verificado"
    if value is True:
        return "Sim"
    if value is False:
        return "Não"
    if value == "na":
        return "Não se aplica"
    if isinstance(value, str) and ISO_DATE.fullmatch(value):
        return date_br(value)  # a date answer reads dd/mm/aaaa, never 2026-11-02 (issue 18, item 7)
    labels = decl.get("labels_pt") or {}
    if isinstance(value, str) and value in labels:
        return labels[value]
    unit = decl.get("unit")
    return f"{value} {unit}" if unit and isinstance(value, (int, float)) else str(value)


def _clock(at):
    """"14:03:12" in the municipality's time, from the phone's ISO instant (None when unreadable)."""
    try:
        moment = datetime.fromisoformat(str(at).replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        return None
    return to_local(moment).strftime("%H:%M:%S")


def declarations(body):
    """The group declarations as read: [{n, label, kind, at, shown, answered}]."""
    out = []
    for n, d in enumerate(body.get("group_declarations") or [] if isinstance(body.get("group_declarations"), list) else []):
        d = _dict(d)
        shown = [f for f in d.get("shown") or [] if isinstance(f, str)] if isinstance(d.get("shown"), list) else []
        answered = [f for f in d.get("answered") or [] if isinstance(f, str)] if isinstance(d.get("answered"), list) else []
        out.append({"n": n, "label": str(d.get("label_pt") or d.get("group") or "grupo"),
                    "kind": KINDS_PT.get(d.get("kind"), str(d.get("kind") or "declaração")),
                    "at": _clock(d.get("at")), "shown": shown, "answered": answered})
    return out


def how_text(body, fact, source=None):
    """How the answer to `fact` was given, in words."""
    how = _dict(body.get("answer_how")).get(fact)
    if not recorded(body):
        return "cadastro" if source == "registry" else NOT_RECORDED
    if not isinstance(how, dict):
        return UNREADABLE
    kind = how.get("how")
    if kind == "registry":
        return "cadastro"
    if kind == "item":
        at = _clock(how.get("at"))
        words = "item a item, conforme sem contar ou medir" if how.get("quick") else "item a item"
        return f"{words}, às {at}" if at else words
    if kind == "group":
        found = {d["n"]: d for d in declarations(body)}.get(how.get("declaration"))
        if found is None:
            return UNREADABLE
        at = f", às {found['at']}" if found["at"] else ""
        return f"declaração “{found['kind']}” ({found['label']}{at}), após exibir {len(found['shown'])} item(ns)"
    return UNREADABLE


def because_text(rules, because):
    """Why an item was not asked: "O condutor está de capacete? — Não"."""
    parts = []
    for fact, value in _dict(because).items():
        decl = rules.facts.get(fact) or {}
        question = (decl.get("checklist") or {}).get("prompt_pt") or decl.get("label_pt") or fact
        parts.append(f"{question} — {answer_text(value, decl)}")
    return "; ".join(parts) or "não se aplica nesta data ou configuração"


def not_applicable(rules, body):
    """[(fact, question, reason)] of the items not asked because other answers rule them out."""
    out = []
    for fact, entry in _dict(body.get("not_applicable")).items():
        decl = rules.facts.get(fact) or {}
        question = (decl.get("checklist") or {}).get("prompt_pt") or decl.get("label_pt") or fact
        out.append((fact, question, because_text(rules, _dict(entry).get("because"))))
    return out


def summary(body):
    """{"item", "quick", "group", "declarations", "registry", "not_checked", "not_applicable"} or None
    for a record that did not record how its answers were given."""
    if not recorded(body):
        return None
    answers = _dict(body.get("answers"))
    out = {"item": 0, "quick": 0, "group": 0, "declarations": len(declarations(body)), "registry": 0,
           "not_checked": 0, "not_applicable": len(_dict(body.get("not_applicable")))}
    for fact, how in _dict(body.get("answer_how")).items():
        how = _dict(how)
        if answers.get(fact) == "nao_verificado":
            out["not_checked"] += 1
        elif how.get("how") == "group":
            out["group"] += 1
        elif how.get("how") == "registry":
            out["registry"] += 1
        elif how.get("quick"):
            out["quick"] += 1
        else:
            out["item"] += 1
    return out


def summary_text(counts):
    """"4 respostas item a item; 22 por 3 declarações de grupo; …" (None: not recorded)."""
    if not isinstance(counts, dict):
        return NOT_RECORDED
    n = {k: counts.get(k) if isinstance(counts.get(k), int) else 0
         for k in ("item", "quick", "group", "declarations", "registry", "not_checked", "not_applicable")}
    parts = [f"{n['item']} resposta(s) item a item"]
    if n["quick"]:
        parts.append(f"{n['quick']} número(s) conforme(s) sem contar ou medir")
    parts.append(f"{n['group']} por {n['declarations']} declaração(ões) de grupo após exibir os itens")
    if n["registry"]:
        parts.append(f"{n['registry']} do cadastro")
    if n["not_checked"]:
        parts.append(f"{n['not_checked']} não verificada(s)")
    parts.append(f"{n['not_applicable']} item(ns) não se aplica(m)")
    return "; ".join(parts)


def grounds(rules, infraction):
    """What an infraction of a signed auto rests on, in words: ["O condutor está de capacete? — Não
    (item a item, às 14:03:12)"]; None for an auto that did not record it."""
    raw = infraction.get("grounds") if isinstance(infraction, dict) else None
    if not isinstance(raw, list):
        return None
    out = []
    for g in raw:
        g = _dict(g)
        fact = g.get("fact")
        decl = rules.facts.get(fact) or {} if isinstance(fact, str) else {}
        question = (decl.get("checklist") or {}).get("prompt_pt") or decl.get("label_pt") or str(fact)
        kind = g.get("how")
        at = _clock(g.get("at"))
        how = {"item": "item a item", "registry": "cadastro", "group": "declaração de grupo"}.get(kind, UNREADABLE)
        out.append(f"{question} — {answer_text(g.get('value'), decl)} ({how}{f', às {at}' if at and kind == 'item' else ''})")
    return out
