"""Every infraction of the shipped packs has a title that describes the fact, and every citation
names its instrument as the instrument is spelt (Lei, Res. CONTRAN, Veto, CTB): issue 18, item 3.

The expected instrument of each law is read from the law's own title in the pack ("Resolução
CONTRAN nº 943 …" → "Res. CONTRAN"), not from the code that prints citations."""
import json
import re
from pathlib import Path

import pytest

from server.modules.rules.citations import format_citation
from server.rules.compose import load_municipality

PACKS = Path(__file__).resolve().parent.parent / "shared_rules" / "packs"
SLUGS = ("sapezal", "paranatinga", "nortelandia")

# Instrument as the law's title names it -> how a citation abbreviates it.
TITLE_INSTRUMENT = [
    (re.compile(r"^Resolução CONTRAN nº"), "Res. CONTRAN"),
    (re.compile(r"Código de Trânsito Brasileiro"), "CTB"),
    (re.compile(r"^Veto nº"), "Veto"),
    (re.compile(r"^Decreto"), "Decreto"),
    (re.compile(r"^Lei( Municipal)? nº"), "Lei"),
]


def packs():
    return [(p.name, json.loads(p.read_text(encoding="utf-8"))) for p in sorted(PACKS.glob("*.json"))]


def expected_instrument(title):
    for pattern, instrument in TITLE_INSTRUMENT:
        if pattern.search(title):
            return instrument
    raise AssertionError(f"instrument of {title!r} not recognised")


def test_every_infraction_has_a_title_that_is_not_generated():
    seen = 0
    for name, pack in packs():
        for inf in pack.get("infractions", []):
            title = inf.get("label_pt", "").strip()
            assert title, (name, inf["id"])
            assert not title.lower().startswith("descumprir"), (name, inf["id"], title)
            assert title[0].isupper() or title[0] in "“\"", (name, inf["id"], title)
            seen += 1
    assert seen > 100


def test_titles_of_one_pack_are_distinct():
    for name, pack in packs():
        titles = [inf["label_pt"] for inf in pack.get("infractions", [])]
        assert len(titles) == len(set(titles)), (name, sorted(t for t in titles if titles.count(t) > 1))


def test_the_titles_the_issue_named_describe_the_fact():
    sap = dict(packs())["sapezal-lei-125-1999.json"]
    title = {i["id"]: i["label_pt"] for i in sap["infractions"]}
    assert title["sap.inf.capacete_passageiro"].startswith("Passageiro sem capacete")
    assert title["sap.inf.fiscalizacao"] == "Dificultar a fiscalização"
    assert "brusca" in title["sap.inf.manobras"] and "sem" not in title["sap.inf.manobras"]


def test_every_law_has_its_instrument_and_number_in_cite_as():
    for name, pack in packs():
        for key, law in pack["laws"].items():
            cite = law.get("cite_as")
            assert cite, (name, key)
            instrument = expected_instrument(law["title"])
            assert cite.startswith(instrument), (name, key, cite, instrument)
            if instrument != "CTB":
                assert cite == f"{instrument} {law['number']}", (name, key, cite)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_printed_citation_starts_with_its_instrument(slug):
    composed = load_municipality(slug)
    laws = {}
    for pack in composed.packs:
        laws.update(pack["laws"])
    checked = 0
    for pack in composed.packs:
        for section in ("requirements", "infractions", "deadlines", "auto_fields"):
            for entry in pack.get(section, []):
                citation = entry.get("citation")
                if not citation:
                    continue
                law = laws[citation["law"]]
                text = format_citation(composed, citation)
                assert text.startswith(expected_instrument(law["title"])), (entry["id"], text)
                assert not re.match(r"^Lei 943", text), text
                checked += 1
    assert checked > 20


def test_the_contran_resolution_is_cited_as_a_resolution():
    composed = load_municipality("sapezal")
    r943 = next(e for p in composed.packs for e in p.get("requirements", [])
                if (e.get("citation") or {}).get("law") == "R943")
    assert format_citation(composed, r943["citation"]).startswith("Res. CONTRAN 943/2022, art.")
