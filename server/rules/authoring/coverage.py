"""Coverage of a law by its pack, provision by provision (`flask rules coverage`): every article,
paragraph, inciso and alínea of the text is *encoded* (an entry cites it), *not applicable* (with
the reason: a definition, the procedure the back office runs, a veto), *left to a decree* (the
configuration key the municipality fills) or *a reading* (the reading chosen and its
alternatives) — or it is missing, which the checker reports. Declarations live in the pack's
`coverage` array (SPEC §3); a declaration of an article or paragraph covers what is under it."""
from . import law_text

STATUS_PT = {"encoded": "codificado", "not_applicable": "não se aplica", "decree": "fica para decreto",
             "reading": "leitura declarada", "lead_in": "introdução dos incisos", "missing": "FALTA"}
# Sections whose entries apply a provision (errata only point at a defect of the text).
_ENCODING = ("requirements", "infractions", "recidivism", "escalations", "history_cancellation",
             "deadlines", "auto_fields", "vetoes")


def _nested(node, path):
    """(path, citation) of every citation inside an entry (measures, caps, conditions)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "citation" and isinstance(value, dict):
                yield f"{path}/citation", value
            elif key not in ("amended_by",):
                yield from _nested(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _nested(value, f"{path}/{i}")


def entry_citations(packs):
    """[(citation, entry id, section)] of the entries that encode provisions, and the options (a
    reading the municipality chooses) with theirs."""
    out = []
    for pack in packs:
        for section in _ENCODING:
            for entry in pack.get(section) or []:
                for _, cit in _nested(entry, ""):
                    out.append((cit, entry.get("id"), section))
        for key, option in (pack.get("options") or {}).items():
            if isinstance(option.get("citation"), dict):
                out.append((option["citation"], key, "options"))
    return out


def _covers(decl_key, key):
    """A declaration of (art, par, inc, ali) covers the provision and everything under it."""
    return all(d is None or d == k for d, k in zip(decl_key, key)) and decl_key[0] == key[0]


def report(packs, law_key, text):
    """{"law", "articles": [{"art", "label_pt", "complete", "provisions": [{"key", "label_pt",
    "status", "entries", "why_pt", …}]}], "counts": {status: n}, "missing": [labels]}."""
    provisions = law_text.parse(text)
    by_key = {}
    for cit, eid, section in entry_citations(packs):
        if cit.get("law") == law_key:
            by_key.setdefault(law_text.citation_key(cit), []).append({"id": eid, "section": section})
    declarations = [(law_text.citation_key(d), d) for pack in packs for d in pack.get("coverage") or []]
    rows = {}
    for p in provisions:
        exact = next((d for k, d in declarations if k == p.key), None)
        inherited = next((d for k, d in declarations if _covers(k, p.key)), None)
        entries = by_key.get(p.key, [])
        row = {"key": list(p.key), "label_pt": p.label_pt, "text": p.text, "entries": [e["id"] for e in entries],
               "status": "missing", "why_pt": None}
        if p.vetoed:
            row.update(status="not_applicable", why_pt="Vetado: o texto publicado traz apenas “(VETADO)”.")
        elif exact is not None:
            row.update(_declared(exact))
        elif entries:
            row["status"] = "encoded"
        elif inherited is not None:
            row.update(_declared(inherited))
        rows[p.key] = row
    for p in provisions:
        if rows[p.key]["status"] == "missing" and p.lead_in:
            rows[p.key].update(status="lead_in", why_pt="Frase que introduz os incisos: cada um tem a sua situação.")
    articles = []
    for art, items in law_text.articles(provisions).items():
        provs = [rows[p.key] for p in items]
        articles.append({"art": art, "label_pt": law_text.label_pt((art,)).replace(", caput", ""),
                         "complete": all(r["status"] != "missing" for r in provs), "provisions": provs})
    counts = {}
    for r in rows.values():
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    cited = {k for k in by_key}
    unknown = sorted(law_text.label_pt(k) for k in cited if k not in rows and not _partial(k, rows))
    stray = [law_text.label_pt(k) for k, _ in declarations if not any(_covers(k, key) for key in rows)]
    return {"law": law_key, "articles": articles, "counts": counts,
            "missing": [r["label_pt"] for r in rows.values() if r["status"] == "missing"],
            "cited_not_in_text": unknown, "declared_not_in_text": stray}


def _partial(key, rows):
    """A citation of an inciso without its paragraph, etc.: still names a provision of the text."""
    return any(_covers(key, k) for k in rows)


def _declared(decl):
    out = {"status": decl["status"], "why_pt": decl["why_pt"]}
    for extra in ("where", "config_key", "reading_pt", "alternatives_pt", "option"):
        if decl.get(extra):
            out[extra] = decl[extra]
    if decl.get("entries"):
        out["declared_entries"] = list(decl["entries"])
    return out


def as_text(rep, title=""):
    """The report as the CLI prints it (pt-BR), one line per provision."""
    lines = [title] if title else []
    counts = ", ".join(f"{STATUS_PT[k]}: {v}" for k, v in sorted(rep["counts"].items()))
    lines.append(f"Dispositivos: {sum(rep['counts'].values())} ({counts}).")
    for art in rep["articles"]:
        lines.append(f"{art['label_pt']} — {'completo' if art['complete'] else 'INCOMPLETO'}")
        for r in art["provisions"]:
            what = ", ".join(r["entries"]) if r["status"] == "encoded" and r["entries"] else (
                r.get("where") or r.get("config_key") or r.get("why_pt") or "")
            lines.append(f"  {r['label_pt']}: {STATUS_PT[r['status']]}" + (f" — {what}" if what else ""))
    return "\n".join(lines)


def as_markdown(rep, title):
    """The report as a docs/ page: a table per article."""
    out = [f"# {title}", "", "Gerado por `flask rules coverage` a partir do texto da lei e do pacote; "
           "não editar à mão.", ""]
    counts = ", ".join(f"{STATUS_PT[k]}: {v}" for k, v in sorted(rep["counts"].items()))
    out += [f"Dispositivos: {sum(rep['counts'].values())} ({counts}). "
            f"Artigos completos: {sum(a['complete'] for a in rep['articles'])} de {len(rep['articles'])}.", ""]
    for art in rep["articles"]:
        out += [f"## {art['label_pt']}", "", "| dispositivo | situação | onde / por quê |", "|---|---|---|"]
        for r in art["provisions"]:
            if r["status"] == "encoded" and r["entries"]:
                what = ", ".join(f"`{e}`" for e in r["entries"])
            else:
                bits = [r.get("why_pt") or ""]
                if r.get("where"):
                    bits.append(f"onde: {r['where']}")
                if r.get("config_key"):
                    bits.append(f"chave `{r['config_key']}`")
                if r.get("reading_pt"):
                    bits.append(f"leitura: {r['reading_pt']}")
                if r.get("alternatives_pt"):
                    bits.append("alternativas: " + "; ".join(r["alternatives_pt"]))
                if r.get("option"):
                    bits.append(f"opção `{r['option']}`")
                if r["entries"] or r.get("declared_entries"):
                    bits.append("entradas: " + ", ".join(f"`{e}`" for e in r["entries"] or r["declared_entries"]))
                what = " — ".join(b for b in bits if b)
            out.append(f"| {r['label_pt']} | {STATUS_PT[r['status']]} | {what.replace('|', '/')} |")
        out.append("")
    return "\n".join(out)
