"""Legal fidelity of the rule packs, checked against the seed law texts themselves.

Reads only what the repository holds (shared_rules/laws/, the packs, docs/): every article of each
law has a row in docs/legal-coverage.md, every pack citation names an article that exists in its law
text, the ids in the coverage table exist, and the fine amounts written in the packs are the ones
printed in the laws (never invented). Where the team's seed texts sit beside the checkout
(../shared/seeds/), one more test proves the copies in shared_rules/laws/ are those seeds verbatim.
"""
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAWS = ROOT / "shared_rules" / "laws"
SEEDS = ROOT.parent / "shared" / "seeds"  # present only in the team's workspace, not in a public clone
PACKS = ROOT / "shared_rules" / "packs"
COVERAGE = ROOT / "docs" / "legal-coverage.md"
MUNICIPAL = {
    "nortelandia-lei-030-1998": "000_2172ae73a121ce10.txt",
    "sapezal-lei-125-1999": "001_3e57f9d914a9d0b2.txt",
    "paranatinga-lei-311-2007": "002_188b11ba7f25bd80.txt",
}
HEADING = re.compile(r"(?m)^\s*Art\.?\s*(\d+)")


def seed_text(name):
    """The law text as the repository holds it (shared_rules/laws/, checked against the seeds)."""
    return (LAWS / name).read_text(encoding="utf-8")


def flat(text):
    return re.sub(r"\s+", " ", text)


def law_text_part(text):
    """The law proper, without the appended veto (whose own arts. 1-2 are not law articles)."""
    return text.split("VETO Nº", 1)[0]


def pack(pack_id):
    return json.loads((PACKS / f"{pack_id}.json").read_text(encoding="utf-8"))


def citations(node, owner=None):
    if isinstance(node, dict):
        owner = node.get("id", owner)
        for key in ("citation", "veto_ref"):
            if isinstance(node.get(key), dict):
                yield owner, node[key]
        for k, v in node.items():
            if k not in ("citation", "veto_ref"):
                yield from citations(v, owner)
    elif isinstance(node, list):
        for x in node:
            yield from citations(x, owner)


def coverage_rows():
    """{pack id: {article label: [ids]}} parsed from docs/legal-coverage.md."""
    rows, current = {}, None
    for line in COVERAGE.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^## .*\(`packs/([a-z0-9-]+)\.json`\)", line)
        if m:
            current = rows.setdefault(m.group(1), {})
            continue
        m = re.match(r"^\| ([^|]+?) \| ([^|]*) \|", line)
        if current is not None and m and m.group(1) not in ("art.", "---", "act, article"):
            current[m.group(1)] = re.findall(r"`([a-z0-9_.-]+)`", m.group(2))
    return rows


@pytest.mark.parametrize("pack_id,seed", sorted(MUNICIPAL.items()))
def test_every_article_of_the_law_is_in_the_coverage_table(pack_id, seed):
    articles = set(HEADING.findall(law_text_part(seed_text(seed))))
    assert len(articles) >= 18
    table = coverage_rows()[pack_id]
    missing = sorted((a for a in articles if a not in table), key=int)
    assert not missing, f"articles without a coverage row: {missing}"


def test_paranatinga_skipped_article_14_is_recorded_not_invented():
    text = law_text_part(seed_text(MUNICIPAL["paranatinga-lei-311-2007"]))
    assert "14" not in HEADING.findall(text)
    assert "Does not exist" in " ".join(
        line for line in COVERAGE.read_text(encoding="utf-8").splitlines() if line.startswith("| 14 |"))
    errata = {e["id"] for e in pack("paranatinga-lei-311-2007")["errata"]}
    assert "par.err.art14_inexistente" in errata


def test_coverage_ids_exist_in_the_packs():
    known = set()
    for p in PACKS.glob("*.json"):
        known |= {owner for owner, _ in citations(json.loads(p.read_text(encoding="utf-8")))}
    for pack_id, rows in coverage_rows().items():
        for art, ids in rows.items():
            unknown = [i for i in ids if i not in known]
            assert not unknown, f"{pack_id} art. {art}: {unknown}"


@pytest.mark.parametrize("pack_id,seed", sorted(MUNICIPAL.items()))
def test_every_citation_names_an_article_of_its_seed_text(pack_id, seed):
    doc = pack(pack_id)
    heads = set(HEADING.findall(seed_text(seed)))
    checked = 0
    for owner, cit in citations(doc):
        law = doc["laws"][cit["law"]]
        if law.get("jurisdiction") == "federal":
            # A federal law a municipal reading rests on (e.g. Lei 9.093 art. 2º for Good Friday): no
            # municipal seed holds it; it must say where its text is published.
            assert law.get("source_url", "").startswith("https://www.planalto.gov.br/"), (owner, cit)
            continue
        assert law.get("source_file") == seed, (owner, cit)
        assert cit["art"] in heads, f"{owner}: art. {cit['art']} not in {seed}"
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("pack_id,seed", sorted(MUNICIPAL.items()))
def test_citation_excerpts_are_quoted_from_the_law(pack_id, seed):
    """Excerpts must be the text as written (whitespace and '...' elisions aside)."""
    flat = re.sub(r"\s+", " ", seed_text(seed))
    doc = pack(pack_id)
    for owner, cit in citations(doc):
        excerpt = cit.get("text")
        if not excerpt or doc["laws"][cit["law"]].get("jurisdiction") == "federal":
            continue  # a federal law's words are not in the municipal seed (checked above by its source)
        for piece in re.split(r"\s*\.\.\.\s*", excerpt):
            piece = re.sub(r"\s+", " ", piece).strip()
            assert piece in flat, f"{owner}: '{piece}' not found verbatim"


@pytest.mark.skipif(not SEEDS.is_dir(), reason="../shared/seeds/ is not beside this checkout (a public clone "
                    "has only shared_rules/laws/); the comparison runs in the team's workspace and CI")
def test_law_copies_are_the_seeds_verbatim():
    for seed in MUNICIPAL.values():
        assert (LAWS / seed).read_bytes() == (SEEDS / seed).read_bytes()


def test_paranatinga_group_amounts_are_the_ones_printed_in_art_50():
    text = seed_text(MUNICIPAL["paranatinga-lei-311-2007"])
    printed = {g: int(n) for g, n in re.findall(r"Grupo (I{1,3}|IV|VI?) - (\d+) ", text)}
    assert printed == {"I": 29, "II": 36, "III": 43, "IV": 51, "V": 58, "VI": 65}
    infs = [i for i in pack("paranatinga-lei-311-2007")["infractions"] if i.get("group")]
    assert len(infs) == 34  # a-f, a-i, a-c, a-e, a-c, a-h
    for inf in infs:
        assert inf["amount"] == {"unit": "UFIR", "value": printed[inf["group"]]}, inf["id"]
    art45 = next(i for i in pack("paranatinga-lei-311-2007")["infractions"] if i["id"] == "par.inf.art45_sem_alvara")
    assert "132 (cento e trinta e duas) UFIR" in flat(text) and art45["amount"] == {"unit": "UFIR", "value": 132}


def test_nortelandia_fines_are_caps_of_10_ufm_raised_to_100_on_recidivism():
    text = re.sub(r"\s+", " ", seed_text(MUNICIPAL["nortelandia-lei-030-1998"]))
    assert "Multa de até 10 (dez) UFM" in text and "reincidência, ser de até 100 (cem ) UFM" in text
    doc = pack("nortelandia-lei-030-1998")
    for inf in doc["infractions"]:
        assert inf["amount"]["unit"] == "UFM" and inf["amount"]["max"] == 10 and "value" not in inf["amount"], inf["id"]
        assert inf["recidivism"] == "nl.reincidencia"
    rule = doc["recidivism"][0]
    assert rule["effect"] == {"set_max": 100} and "config_key" in rule["window"]


def test_sapezal_never_states_an_amount_the_law_leaves_to_a_decree():
    doc = pack("sapezal-lei-125-1999")
    for inf in doc["infractions"]:
        assert set(inf["amount"]) <= {"decree_key", "note"}, inf["id"]
    assert all("config_key" in d or d.get("days") for d in doc["deadlines"])
    defence = next(d for d in doc["deadlines"] if d["kind"] == "defesa")
    assert "days" not in defence and defence["config_key"]


def test_vetoed_age_limit_is_marked_and_tied_to_a_config_option():
    doc = pack("paranatinga-lei-311-2007")
    req = next(r for r in doc["requirements"] if r["id"] == "par.req.idade_veiculo_7_anos")
    veto = next(v for v in doc["vetoes"] if v["id"] == req["veto"])
    assert req["status"] == "vetoed"
    assert (req["citation"]["art"], req["citation"]["inciso"], req["citation"]["alinea"]) == ("8", "V", "d")
    assert veto["option_key"] == "paranatinga.veto_002_2007_outcome"
    assert "VETADO PARCIALMENTE à alínea “d”, inciso V, Art. 8°" in flat(seed_text(MUNICIPAL["paranatinga-lei-311-2007"]))


def test_federal_licence_age_is_the_stricter_two_years_and_replaces_the_municipal_one():
    fed = pack("federal-base")
    req = next(r for r in fed["requirements"] if r["id"] == "fed.req.habilitacao_2_anos")
    assert (req["citation"]["law"], req["citation"]["art"], req["citation"]["inciso"]) == ("L12009", "2", "II")
    assert fed["laws"]["L12009"]["effective_from"] == "2009-07-30"
    par = pack("paranatinga-lei-311-2007")
    for rid in ("par.req.habilitacao_1_ano", "par.req.habilitacao_minimo_1_ano"):
        r = next(x for x in par["requirements"] if x["id"] == rid)
        assert r["effective_to"] == "2009-07-29" and "12.009" in r["note"]


def test_every_entry_has_a_portuguese_label_and_a_known_status():
    for p in PACKS.glob("*.json"):
        doc = json.loads(p.read_text(encoding="utf-8"))
        for kind in ("requirements", "infractions", "deadlines", "auto_fields", "recidivism", "escalations"):
            for e in doc.get(kind, []):
                assert e.get("label_pt", "").strip(), (p.name, e["id"])
                assert e.get("status", "in_force") in ("in_force", "vetoed", "superseded")
        errata = {e["id"] for e in doc.get("errata", [])}
        for e in doc.get("requirements", []) + doc.get("infractions", []):
            assert set(e.get("errata", [])) <= errata, e["id"]


def test_law_vectors_make_every_requirement_and_infraction_fail_at_least_once():
    """Every pack entry that can fail is exercised by a hand-written law vector: each requirement
    appears in some expected `failed` (or, vetoed, as `vetoed_pending`), each infraction in some
    expected `infractions` list."""
    reqs, infs = set(), set()
    for p in PACKS.glob("*.json"):
        doc = json.loads(p.read_text(encoding="utf-8"))
        reqs |= {r["id"] for r in doc.get("requirements", [])}
        infs |= {i["id"] for i in doc.get("infractions", [])}
    failed, proposed, cases = set(), set(), 0
    for f in (ROOT / "shared_rules" / "vectors").glob("law-*.json"):
        for case in json.loads(f.read_text(encoding="utf-8"))["cases"]:
            cases += 1
            exp = case["expected"]
            failed |= {x["requirement"] for x in exp.get("failed", [])}
            failed |= {x["id"] for x in exp.get("undecided", []) if x.get("reason") == "vetoed_pending"}
            proposed |= {x["id"] for x in exp.get("infractions", [])}
    # Vectors written as tables (shared_rules/vectors/tables/*.csv): their hand-written cells.
    from server.rules.vector_table import NAME, _items, read_table, table_files
    for table in table_files(ROOT):
        for row in read_table(table.read_text(encoding="utf-8"))[1]:
            if row["cells"][NAME].startswith("@"):
                continue
            cases += 1
            failed |= set(_items(row["cells"].get("falhas", ""))) | set(_items(row["cells"].get("avisos", "")))
            proposed |= set(_items(row["cells"].get("infrações", "")))
    assert cases >= 150
    assert reqs - failed == set()
    assert infs - proposed == set()


def _starts(node, found):
    if isinstance(node, dict):
        if isinstance(node.get("starts"), str):
            found.add(node["starts"])
        for value in node.values():
            _starts(value, found)
    elif isinstance(node, list):
        for value in node:
            _starts(value, found)
    return found


def test_spec_lists_every_deadline_start_event_the_packs_use():
    """Issue 7 item 6: each start event is defined in SPEC.md's table (with the article using it)."""
    spec = (ROOT / "shared_rules" / "SPEC.md").read_text(encoding="utf-8")
    table = {m.group(1) for m in re.finditer(r"^\| `([a-z_]+)` \|", spec, re.M)}
    used = set()
    for path in sorted(PACKS.glob("*.json")):
        _starts(json.loads(path.read_text(encoding="utf-8")), used)
    assert {"fim_prazo_renovacao", "inicio_afastamento", "notificacao"} <= used
    assert used - table == set()


def test_sapezal_lapse_clock_runs_from_the_end_of_the_renewal_deadline_not_a_notice():
    pack = json.loads((PACKS / "sapezal-lei-125-1999.json").read_text(encoding="utf-8"))
    vencido = next(i for i in pack["infractions"] if i["id"] == "sap.inf.alvara_vencido")
    assert [m["deadline"]["starts"] for m in vencido["measures"]] == ["fim_prazo_renovacao"]
    par = json.loads((PACKS / "paranatinga-lei-311-2007.json").read_text(encoding="utf-8"))
    absence = next(d for d in par["deadlines"] if d["id"] == "par.prazo.afastamento")
    assert absence["starts"] == "inicio_afastamento" and absence["citation"]["paragrafo"] == "2"
