"""Human-readable citations ("Lei 125/1999, art. 5º, II, §1º") from a composed rule set."""

def cite_as(law):
    """How a citation names the instrument: the pack's `cite_as` ("Res. CONTRAN 943/2022"), else
    "Lei <number>" (SPEC §3); pwa/js/fiscal/checklist-model.js citationLabel reads it the same way."""
    if law.get("cite_as"):
        return law["cite_as"]
    return f"Lei {law['number']}" if law.get("number") else law.get("title")


def _ordinal(art):
    art = str(art)
    return f"{art}º" if art.isdigit() and int(art) < 10 else art


def law_short_name(composed, law_key):
    for pack in composed.packs:
        law = (pack.get("laws") or {}).get(law_key)
        if law:
            return cite_as(law) or law_key
    return law_key


def _by(name):
    """"pela Lei …" / "pelo Decreto …": the preposition a citation of the act takes."""
    return "pelo" if name.split(" ")[0] in ("Decreto", "CTB") else "pela"


def amended_by_text(composed, amended):
    """"redação dada pela Lei 2/2025, art. 1º" (or "incluído pela …"): the act that gave a
    provision the wording applied (SPEC §3 "Amendments")."""
    name = law_short_name(composed, amended.get("law"))
    where = format_citation(composed, {k: v for k, v in amended.items() if k != "kind"}).split(", ", 1)
    tail = f", {where[1]}" if len(where) > 1 else ""
    verb = "incluído" if amended.get("kind") == "inclusao" else "redação dada"
    return f"{verb} {_by(name)} {name}{tail}"


def format_citation(composed, citation):
    if not citation:
        return ""
    parts = [law_short_name(composed, citation.get("law"))]
    if citation.get("art"):
        parts.append(f"art. {_ordinal(citation['art'])}")
    if citation.get("paragrafo"):
        p = str(citation["paragrafo"])
        parts.append("parágrafo único" if p.lower().startswith("unico") or p.lower().startswith("único")
                     else f"§{_ordinal(p)}")
    if citation.get("inciso"):
        parts.append(str(citation["inciso"]))
    if citation.get("alinea"):
        parts.append(f"alínea “{citation['alinea']}”")
    text = ", ".join(parts)
    if isinstance(citation.get("amended_by"), dict):
        text += f" ({amended_by_text(composed, citation['amended_by'])})"
    return text


PENALTY_LABELS = {
    "advertencia": "advertência", "multa": "multa", "suspensao": "suspensão", "cassacao": "cassação",
    "apreensao": "apreensão", "remocao": "remoção", "inabilitacao": "inabilitação",
    "afastamento": "afastamento", "retencao": "retenção", "recolhimento": "recolhimento",
    "notificacao": "notificação para regularizar",
}


def penalty_label(kind):
    return PENALTY_LABELS.get(kind, kind)
