"""A law text as its provisions: articles, paragraphs (§, parágrafo único), incisos and alíneas,
each with its words, in the order of the text. Read from the published layout: a provision starts
a line ("Art. 6º", "§ 1º", "Parágrafo único.", "IV –", "a)"), wrapped lines continue it, chapter
headings end it. Vetoed provisions ("IV – (VETADO);") are marked.

Keys follow the packs' citations (SPEC §3): art "6", "139-A"; paragrafo "1" or "unico"; inciso
the roman numeral; alinea the letter."""
import re
from dataclasses import dataclass, field
from pathlib import Path

_ART = re.compile(r"^Art\.\s*(\d+)(?:-([A-Z])\b)?\s*[º°o]?\s*\.?\s*[-–—]?\s*(.*)$")
_PAR = re.compile(r"^(?:§|Par[áa]grafo)\s*(\d+)\s*[º°o]?\s*\.?\s*[-–—]?\s*(.*)$")
_UNICO = re.compile(r"^Par[áa]grafo\s+[úu]nico\s*[.:]?\s*[-–—]?\s*(.*)$", re.IGNORECASE)
# "IV – …"; some laws divide an article in "Grupo II - …" headings, cited as incisos.
_INCISO = re.compile(r"^(?:Grupo\s+)?([IVXLC]+)\s*[-–—]\s*(.*)$")
_ALINEA = re.compile(r"^([a-z])\)\s*(.*)$")
_HEADING = re.compile(r"^(CAP[ÍI]TULO|Cap[íi]tulo|SEÇÃO|Seção|SUBSEÇÃO|T[ÍI]TULO)\b")
_VETOED = re.compile(r"^\(?\s*VETAD[OA]\s*\)?\s*[.;]?$", re.IGNORECASE)
_END = re.compile(r"^(Gabinete do Prefeito|Publicad[ao] n|Prefeitura Municipal de .*, em \d)", re.IGNORECASE)


@dataclass
class Provision:
    art: str
    paragrafo: str | None = None
    inciso: str | None = None
    alinea: str | None = None
    text: str = ""
    line: int = 0
    children: list = field(default_factory=list)

    @property
    def key(self):
        return (self.art, self.paragrafo, self.inciso, self.alinea)

    @property
    def vetoed(self):
        return bool(_VETOED.match(self.text.strip()))

    @property
    def lead_in(self):
        """An article's or paragraph's opening words that only introduce its incisos ("São
        requisitos …:"): accounted for by its incisos."""
        return bool(self.children) and self.text.rstrip().endswith(":")

    @property
    def label_pt(self):
        return label_pt(self.key)


def _ordinal(n):
    return f"{n}º" if n.isdigit() and int(n) < 10 else n


def label_pt(key):
    """'Art. 19, IV', 'Art. 3º, § 2º', 'Art. 16, parágrafo único', 'Art. 4º, caput'."""
    art, par, inc, ali = (list(key) + [None] * 4)[:4]
    parts = [f"Art. {_ordinal(str(art))}"]
    if par:
        parts.append("parágrafo único" if str(par).lower().startswith(("unico", "único")) else f"§ {_ordinal(str(par))}")
    if inc:
        parts.append(str(inc))
    if ali:
        parts.append(f"alínea “{ali}”")
    if len(parts) == 1:
        parts.append("caput")
    return ", ".join(parts)


def citation_key(citation):
    """The provision key a pack citation names (paragrafo "único" read as "unico")."""
    par = citation.get("paragrafo")
    if isinstance(par, str) and par.lower() in ("único", "unico"):
        par = "unico"
    return (str(citation.get("art")), par or None, citation.get("inciso") or None, citation.get("alinea") or None)


def parse(text):
    """[Provision] in text order. Headings and the signature block end the provision before them;
    an article numbered below the previous one starts an annex (a veto quoting the law): the
    law's provisions end there."""
    provisions, current, art, par, inc = [], None, None, None, None
    heading_title = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if _END.match(line):
            current = None
            continue
        if _HEADING.match(line):
            current, heading_title = None, True
            continue
        if heading_title and current is None and line.upper() == line and not _ART.match(line):
            continue                                   # the chapter's title ("DOS VEÍCULOS")
        heading_title = False
        m = _ART.match(line)
        if m:
            if art is not None and int(m[1]) < int(art.split("-")[0]):
                break                                  # numbering restarts: an annex quoting the law (a veto)
            art = m[1] + (f"-{m[2]}" if m[2] else "")
            par = inc = None
            current = Provision(art, text=m[3], line=number)
            provisions.append(current)
            continue
        if art is None:
            continue                                   # the preamble before Art. 1º
        m = _PAR.match(line) or _UNICO.match(line)
        if m:
            par = m[1] if m.re is _PAR else "unico"
            inc = None
            current = Provision(art, par, text=m.groups()[-1], line=number)
            provisions.append(current)
            continue
        m = _INCISO.match(line)
        if m and current is not None:
            inc = m[1]
            current = Provision(art, par, inc, text=m[2], line=number)
            provisions.append(current)
            continue
        m = _ALINEA.match(line)
        if m and inc is not None:
            current = Provision(art, par, inc, m[1], text=m[2], line=number)
            provisions.append(current)
            continue
        if current is not None:
            current.text = f"{current.text} {line}".strip()
    by_key = {p.key: p for p in provisions}
    for p in provisions:
        parent = _parent_key(p.key)
        if parent in by_key:
            by_key[parent].children.append(p)
    return provisions


def _parent_key(key):
    art, par, inc, ali = key
    if ali:
        return (art, par, inc, None)
    if inc:
        return (art, par, None, None)
    return None


def load_texts(root):
    """{file name: text} of the law texts the packs cite (shared_rules/laws/ under `root`)."""
    folder = Path(root) / "shared_rules" / "laws"
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.txt"))}


def articles(provisions):
    """{art: [its provisions]} in text order."""
    out = {}
    for p in provisions:
        out.setdefault(p.art, []).append(p)
    return out


def header(text):
    """What the text says of itself: number, date, municipality, publication date, synthetic mark."""
    months = {m: i for i, m in enumerate(["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho",
                                          "agosto", "setembro", "outubro", "novembro", "dezembro"], start=1)}

    def when(day, month, year):
        return f"{int(year):04d}-{months[month.lower()]:02d}-{int(day):02d}" if month.lower() in months else None

    out = {"number": None, "date": None, "published": None, "municipality": None,
           "synthetic": "sintético" in text[:300].lower() or "fictício" in text[:300].lower(), "ementa": None}
    m = re.search(r"LEI\s+(?:COMPLEMENTAR\s+)?N[º°o]\.?\s*(\d+)\s*,?\s*DE\s+(\d{1,2})[º°o]?\s+DE\s+(\w+)\s+DE\s+(\d{4})",
                  text, re.IGNORECASE)
    if m:
        out["number"] = f"{int(m[1])}/{m[4]}"
        out["date"] = when(m[2], m[3], m[4])
    # The publication note after the signature ("Publicada no Jornal Oficial … em 11 de março de 2015").
    m = re.search(r"^Publicad[ao]\b[^\n]*(?:\n[^\n]*){0,2}?\bem\s+(\d{1,2})[º°o]?\s+de\s+(\w+)\s+de\s+(\d{4})",
                  text, re.MULTILINE)
    if m:
        out["published"] = when(m[1], m[2], m[3])
    m = re.search(r"PREFEITURA MUNICIPAL DE ([A-ZÁÂÃÀÉÊÍÓÔÕÚÇ ]+)", text)
    if m:
        out["municipality"] = m[1].strip().title().replace(" Do ", " do ").replace(" Da ", " da ").replace(" De ", " de ")
    m = re.search(r"[“\"]([^”\"]{20,600})[”\"]", text)
    if m:
        out["ementa"] = " ".join(m[1].split())
    return out
