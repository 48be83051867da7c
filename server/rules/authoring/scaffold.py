"""`flask rules scaffold`: from a law text, the files a pack starts from — the pack with the law's
data (number, dates, source file) and a stub for every provision the text itself classifies
(the incisos of "São infrações do Grupo A: …", each with its group and the fine the law sets for
the group; the deadlines "no prazo de N dias"), a configuration, a vectors table with its
header, and a worksheet of every provision for the analyst to mark. Stubs carry the note
"A CONFERIR" until reviewed (the checker lists them)."""
import re

from . import law_text
from .checker import STUB

_GROUP = re.compile(r"infra[çc][õo]es\s+(?:do\s+)?grupo\s+([A-Z0-9]+)", re.IGNORECASE)
_GROUP_FINE = re.compile(r"grupo\s+([A-Z0-9]+)\b[^:]*:\s*(\d+(?:,\d+)?)\s*\([^)]*\)\s*([A-Z]{2,5})", re.IGNORECASE)
_GROUP_INLINE = re.compile(r"grupo\s+([A-Z0-9]+)\b[^:]*?multa\s+de\s+(\d+(?:,\d+)?)\s*\([^)]*\)\s*([A-Z]{2,5})",
                           re.IGNORECASE)
_DAYS = re.compile(r"prazo\s+(?:máximo\s+)?de\s+(\d+)\s*\([^)]*\)\s*dias", re.IGNORECASE)
_DEADLINE_KIND = (("defesa", "defesa"), ("recurso", "recurso"), ("regulariz", "regularizacao"),
                  ("adequ", "adequacao"), ("renova", "renovacao"))


def slug_prefix(slug):
    """Initials of the municipality's words (articles left out): "vila-nova-do-norte" → "vnn"."""
    words = [w for w in slug.split("-") if w not in ("do", "da", "de", "dos", "das", "e")]
    return "".join(w[0] for w in words)[:4] or slug[:3]


def _short(text, n=90):
    text = " ".join(text.split()).rstrip(";.,:")
    return text if len(text) <= n else text[:n].rsplit(" ", 1)[0] + "…"


def _eid(prefix, kind, p):
    bits = [f"art{p.art.replace('-', '_').lower()}"]
    if p.paragrafo:
        bits.append("pu" if p.paragrafo == "unico" else f"p{p.paragrafo}")
    if p.inciso:
        bits.append(p.inciso.lower())
    if p.alinea:
        bits.append(p.alinea)
    return f"{prefix}.{kind}.{'_'.join(bits)}"


def _citation(law_key, p, text=True):
    cit = {"law": law_key, "art": p.art}
    for k in ("paragrafo", "inciso", "alinea"):
        if getattr(p, k):
            cit[k] = getattr(p, k)
    if text:
        cit["text"] = _short(p.text, 160)
    return cit


def scaffold(text, slug, source_file, prefix=None, law_key="L"):
    """-> (pack, config, table CSV text, worksheet CSV text)."""
    head = law_text.header(text)
    provisions = law_text.parse(text)
    prefix = prefix or slug_prefix(slug)
    number = head["number"] or "?/?"
    effective = head["published"] or head["date"]
    pack_id = f"{slug}-lei-{number.replace('/', '-')}"
    law = {"title": f"Lei Municipal nº {number} de {head['municipality'] or slug}" +
           (f" ({_short(head['ementa'], 160)})" if head["ementa"] else ""),
           "number": number, "cite_as": f"Lei {number}", "date": head["date"] or "2000-01-01",
           "jurisdiction": "municipal", "source_file": source_file, "effective_from": effective or head["date"] or "2000-01-01"}
    if head["published"]:
        law["published"] = head["published"]
    fines = {}
    for p in provisions:
        for pattern in (_GROUP_FINE, _GROUP_INLINE):
            for m in pattern.finditer(p.text):
                fines.setdefault(m[1].upper(), {"unit": m[3].upper(), "value": float(m[2].replace(",", "."))})
    infractions, deadlines = [], []
    leads = {p.key: p for p in provisions if p.lead_in}
    for p in provisions:
        parent = leads.get((p.art, p.paragrafo, None, None)) if p.inciso and not p.alinea else None
        group = _GROUP.search(parent.text) if parent is not None else None
        if group and not p.vetoed:
            g = group[1].upper()
            amount = fines.get(g)
            infractions.append({"id": _eid(prefix, "inf", p), "citation": _citation(law_key, p),
                                "label_pt": _short(p.text, 70)[0].upper() + _short(p.text, 70)[1:],
                                "group": g, "penalty": {"kind": "multa"},
                                "amount": ({"unit": amount["unit"], "value": int(amount["value"]) if amount["value"].is_integer()
                                            else amount["value"]} if amount else None),
                                "note": f"{STUB}: gerada do texto ({p.label_pt}); confira o grupo, o valor e ligue-a "
                                        "ao requisito que a descreve (on_fail)."})
        m = _DAYS.search(p.text)
        if m:
            kind = next((k for word, k in _DEADLINE_KIND if word in p.text.lower()), "outro")
            deadlines.append({"id": _eid(prefix, "prazo", p), "citation": _citation(law_key, p), "label_pt": _short(p.text, 70),
                              "kind": kind, "days": int(m[1]), "starts": "notificacao", "instance_pt": None,
                              "note": f"{STUB}: gerado do texto ({p.label_pt}); confira o tipo, o início da contagem "
                                      "(starts) e a autoridade."})
    pack = {"spec_version": "1.0.0", "id": pack_id, "version": "1", "kind": "municipal", "municipality": slug,
            "title_pt": f"{head['municipality'] or slug} — Lei nº {number}"}
    if head["synthetic"]:
        pack["synthetic"] = True
    pack.update({"registry": {"permit_label": "Alvará de autorização", "holder": "person"},
                 "laws": {law_key: law}, "facts": {}, "requirements": [], "infractions": infractions,
                 "recidivism": [], "escalations": [], "deadlines": deadlines, "auto_fields": [], "errata": [],
                 "vetoes": [], "options": {}, "coverage": [],
                 "notes": [f"Esqueleto gerado por `flask rules scaffold` a partir de {source_file}."]})
    config = {"spec_version": "1.0.0", "municipality": slug, "unit_values": {}, "decree_amounts": {},
              "deadlines": {}, "periods": {}, "options": {}}
    table = "caso,base,data,nota,infrações,falhas,avisos,indecisos,valores,reais,penalidade,medidas,reincidência,escalonamentos,erro\n" \
            f"@conforme,,{effective or head['date'] or '2000-01-01'},Perfil: uma abordagem em que tudo está conforme,,,,,,,,,,,\n"
    sheet = ["dispositivo,situação sugerida,texto"]
    for p in provisions:
        suggested = ("vetado" if p.vetoed else "introdução" if p.lead_in else
                     "infração" if any(i["citation"]["art"] == p.art and i["citation"].get("inciso") == p.inciso
                                       for i in infractions) and p.inciso else "")
        sheet.append(",".join(_csv(x) for x in (p.label_pt, suggested, p.text)))
    return pack, config, table, "\n".join(sheet) + "\n"


def _csv(text):
    text = str(text)
    return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\n;') else text
