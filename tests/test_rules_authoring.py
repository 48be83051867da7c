"""Authoring a pack without a developer (issue 38): the law text read as provisions, the scaffold,
the checker speaking in the law's terms, the coverage of every provision, and vectors as a table."""
import json
from pathlib import Path

import pytest

from server.rules.authoring import checker, coverage, law_text, scaffold
from server.rules.compose import read_packs
from server.rules.vector_table import TableError, compare, parse_csv, project, read_table, run_table

ROOT = Path(__file__).resolve().parents[1]
TEXT = """Texto sintético para teste.

PREFEITURA MUNICIPAL DE VILA TESTE

LEI Nº 7, DE 2 DE JANEIRO DE 2020.

CAPÍTULO I
DAS DISPOSIÇÕES GERAIS

Art. 1º Esta Lei regula o serviço.

Parágrafo único. O serviço é de utilidade
pública.

Art. 2º São deveres do condutor:

I – usar colete;

II – (VETADO);

III – portar o alvará, observadas:

a) a validade;

b) a cor.

§ 1º O colete terá faixa.

Art. 3º São infrações do Grupo A, punidas com multa de 5 (cinco) UFM:

I – deixar de usar colete;

II – deixar de portar o alvará.

Art. 4º A defesa será apresentada no prazo de 10 (dez) dias contados da notificação.

Art. 2º (texto de outro documento, citado depois da lei)

Publicada em 3 de janeiro de 2020.
"""
LAW = {"title": "Lei de teste", "number": "7/2020", "cite_as": "Lei 7/2020", "date": "2020-01-02",
       "jurisdiction": "municipal", "source_file": "vila.txt", "effective_from": "2020-01-03"}


def test_the_law_text_reads_as_provisions():
    provisions = law_text.parse(TEXT)
    labels = [p.label_pt for p in provisions]
    assert labels == ["Art. 1º, caput", "Art. 1º, parágrafo único", "Art. 2º, caput", "Art. 2º, I", "Art. 2º, II",
                      "Art. 2º, III", "Art. 2º, III, alínea “a”", "Art. 2º, III, alínea “b”", "Art. 2º, § 1º",
                      "Art. 3º, caput", "Art. 3º, I", "Art. 3º, II", "Art. 4º, caput"]
    by = {p.label_pt: p for p in provisions}
    assert by["Art. 1º, parágrafo único"].text == "O serviço é de utilidade pública."   # wrapped line joined
    assert by["Art. 2º, II"].vetoed and not by["Art. 2º, I"].vetoed
    assert by["Art. 2º, caput"].lead_in and by["Art. 2º, III"].lead_in and not by["Art. 4º, caput"].lead_in
    head = law_text.header(TEXT)
    assert (head["number"], head["date"], head["published"], head["synthetic"]) == ("7/2020", "2020-01-02", "2020-01-03", True)
    assert head["municipality"] == "Vila Teste"


def _pack(**extra):
    pack = {"spec_version": "1.0.0", "id": "vila-teste-lei-7-2020", "version": "1", "kind": "municipal",
            "municipality": "vila-teste", "laws": {"L": LAW},
            "facts": {"colete": {"type": "bool", "label_pt": "Colete", "source": "checklist",
                                 "checklist": {"prompt_pt": "Colete?", "compliant_if": True}}},
            "requirements": [{"id": "v.req.colete", "citation": {"law": "L", "art": "2", "inciso": "I", "text": "usar colete"},
                              "label_pt": "Colete", "holds": {"==": [{"var": "colete"}, True]}, "on_fail": ["v.inf.colete"]}],
            "infractions": [{"id": "v.inf.colete", "citation": {"law": "L", "art": "3", "inciso": "I"},
                             "label_pt": "Sem colete", "group": "A", "penalty": {"kind": "multa"},
                             "amount": {"unit": "UFM", "value": 5}}],
            "coverage": [{"art": "1", "status": "not_applicable", "why_pt": "Objeto da lei: nenhuma obrigação."},
                         {"art": "4", "status": "encoded", "why_pt": "Prazo de defesa aplicado pelo back office.",
                          "where": "autos: instâncias"}]}
    pack.update(extra)
    return pack


def test_coverage_accounts_for_every_provision_or_names_what_is_missing():
    rep = coverage.report([_pack()], "L", TEXT)
    status = {r["label_pt"]: r["status"] for a in rep["articles"] for r in a["provisions"]}
    assert status["Art. 1º, parágrafo único"] == "not_applicable"        # the article's declaration covers it
    assert status["Art. 2º, I"] == "encoded"
    assert status["Art. 2º, II"] == "not_applicable"                      # vetoed: nothing to encode
    assert status["Art. 3º, I"] == "encoded"
    assert status["Art. 4º, caput"] == "encoded"
    assert rep["missing"] == ["Art. 2º, III, alínea “a”", "Art. 2º, III, alínea “b”", "Art. 2º, § 1º", "Art. 3º, II"]
    assert status["Art. 2º, caput"] == status["Art. 2º, III"] == "lead_in"  # each inciso/alínea has its own status
    declared = _pack(coverage=_pack()["coverage"] + [
        {"art": "2", "inciso": "III", "status": "decree", "why_pt": "A lista sai por decreto.", "config_key": "v.alvara"},
        {"art": "2", "paragrafo": "1", "status": "reading", "why_pt": "Faixa: leitura declarada.",
         "reading_pt": "faixa retrorrefletiva", "alternatives_pt": ["qualquer faixa"]},
        {"art": "3", "inciso": "II", "status": "not_applicable", "why_pt": "Conferido no cadastro, não na rua."}])
    rep = coverage.report([declared], "L", TEXT)
    status = {r["label_pt"]: r["status"] for a in rep["articles"] for r in a["provisions"]}
    assert rep["missing"] == [] and all(a["complete"] for a in rep["articles"])
    assert status["Art. 2º, III, alínea “b”"] == "decree"                # under the declared inciso
    assert status["Art. 2º, caput"] == "lead_in" and status["Art. 3º, caput"] == "lead_in"
    assert status["Art. 2º, III"] == "decree"                             # declared, not a mere lead-in
    text = coverage.as_text(rep)
    assert "Art. 2º, § 1º: leitura declarada" in text and "Art. 2º, I: codificado — v.req.colete" in text


def _check(pack, texts=None):
    federal = [p for _, p in read_packs() if p.get("kind") == "federal"]
    return checker.check_pack(pack, federal, {"municipality": "vila-teste"}, texts or {"vila.txt": TEXT},
                              lambda name, decl: None, file="vila.json")[0]


def test_the_checker_explains_each_problem_in_the_law_s_terms_with_the_fix():
    bad = _pack()
    bad["requirements"][0]["on_fail"] = ["v.inf.colet"]
    problems = _check(bad)
    ref = next(p for p in problems if "não existe (ou de outra seção)" in p["problem_pt"])
    assert ref["where_pt"] == "Lei 7/2020, art. 2º, I (requisito v.req.colete)"
    assert ref["problem_pt"].endswith("“v.inf.colet”") and "on_fail → infrações" in ref["fix_pt"]
    assert ref["severity"] == "erro" and ref["path"] == "/requirements/0/on_fail/0"

    wrong = _pack()
    wrong["infractions"][0]["citation"] = {"law": "L", "art": "3", "inciso": "IX"}
    wrong["requirements"][0]["citation"]["text"] = "usar capacete"
    problems = _check(wrong)
    assert any(p["problem_pt"].startswith("Lei 7/2020, art. 3º, IX não existe no texto: o artigo tem Art. 3º, caput, "
                                          "Art. 3º, I, Art. 3º, II") for p in problems)
    assert any(p["severity"] == "aviso" and "o trecho citado não aparece" in p["problem_pt"] for p in problems)
    missing = [p["where_pt"] for p in problems if p["problem_pt"] == "o dispositivo não foi codificado nem declarado"]
    assert "Lei 7/2020, art. 2º, § 1º" in missing
    unreached = _pack(infractions=_pack()["infractions"] + [{
        "id": "v.inf.alvara", "citation": {"law": "L", "art": "3", "inciso": "II"}, "label_pt": "Sem alvará",
        "group": "A", "penalty": {"kind": "multa"}, "note": "A CONFERIR: gerada do texto"}])
    problems = _check(unreached)
    assert any(p["where_pt"] == "Lei 7/2020, art. 3º, II (infração v.inf.alvara)" and "nenhum requisito propõe" in p["problem_pt"]
               for p in problems)
    assert any("ainda não conferida" in p["problem_pt"] for p in problems)
    assert "Como corrigir:" in checker.as_text(problems)


def test_the_checker_refuses_a_registry_fact_the_product_cannot_fill_unless_the_pack_declares_its_document():
    from server.modules.registry.facts import fact_source

    pack = _pack()
    pack["facts"]["operator.ear"] = {"type": "bool", "label_pt": "EAR", "source": "registry"}
    pack["requirements"].append({"id": "v.req.ear", "citation": {"law": "L", "art": "2", "paragrafo": "1"},
                                 "label_pt": "EAR", "holds": {"==": [{"var": "operator.ear"}, True]}})
    federal = [p for _, p in read_packs() if p.get("kind") == "federal"]
    problems = checker.check_pack(pack, federal, {"municipality": "vila-teste"}, {"vila.txt": TEXT}, fact_source)[0]
    assert any(p["where_pt"] == "Fato operator.ear" and "não sabe preencher" in p["problem_pt"] for p in problems)
    pack["facts"]["operator.ear"]["document"] = {"prompt_pt": "CNH com a observação EAR?", "subject": "operator"}
    problems = checker.check_pack(pack, federal, {"municipality": "vila-teste"}, {"vila.txt": TEXT}, fact_source)[0]
    assert not any(p["where_pt"] == "Fato operator.ear" for p in problems)


def test_scaffold_drafts_infractions_and_deadlines_from_the_text():
    pack, config, table, sheet = scaffold.scaffold(TEXT, "vila-teste", "vila.txt", "v")
    assert pack["id"] == "vila-teste-lei-7-2020" and pack["synthetic"] is True
    assert pack["laws"]["L"]["effective_from"] == "2020-01-03" and pack["laws"]["L"]["cite_as"] == "Lei 7/2020"
    assert [(i["id"], i["group"], i["amount"]) for i in pack["infractions"]] == [
        ("v.inf.art3_i", "A", {"unit": "UFM", "value": 5}), ("v.inf.art3_ii", "A", {"unit": "UFM", "value": 5})]
    assert [(d["id"], d["kind"], d["days"]) for d in pack["deadlines"]] == [("v.prazo.art4", "defesa", 10)]
    assert all(e["note"].startswith("A CONFERIR") for e in pack["infractions"] + pack["deadlines"])
    assert config == {"spec_version": "1.0.0", "municipality": "vila-teste", "unit_values": {}, "decree_amounts": {},
                      "deadlines": {}, "periods": {}, "options": {}}
    assert read_table(table)[1][0]["cells"]["caso"] == "@conforme"
    assert '"Art. 2º, II",vetado,"(VETADO);"' in sheet


def test_csv_cells_quoted_as_spreadsheets_write_them():
    assert parse_csv('caso;nota\n"a;b";"diz ""sim"""\r\nc;\n') == [["caso", "nota"], ["a;b", 'diz "sim"'], ["c", ""]]
    assert parse_csv("caso,nota\nx,\"linha\nquebrada\"\n") == [["caso", "nota"], ["x", "linha\nquebrada"]]
    with pytest.raises(TableError, match="coluna desconhecida"):
        read_table("caso,cilindrada\n")


def _table(tmp_path, text, name="sapezal.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return run_table(path)


def test_a_table_row_is_a_case_and_a_wrong_expectation_is_named(tmp_path):
    text = ("caso,base,data,vehicle.engine_cc,passenger.present,infrações,falhas,nota\n"
            "@perfil,,2024-05-10,150,não,,,\n"
            "moto de 400 cc,@perfil,,400,,sap.inf.cilindrada,sap.req.cilindrada,art. 5º\n"
            "esperado errado,@perfil,10/05/2024,400,,-,,art. 5º\n"
            "cilindrada inválida,@perfil,,muito,,,,art. 5º\n")
    rows = _table(tmp_path, text)
    assert [r["line"] for r in rows] == [3, 4, 5]
    assert rows[0]["problems"] == [] and rows[0]["case"]["facts"] == {"vehicle.engine_cc": 400, "passenger.present": False}
    assert rows[1]["problems"] == ["infrações: esperado -, obtido sap.inf.cilindrada"]
    assert rows[2]["problems"] == ["linha 5, coluna vehicle.engine_cc: “muito” não é número"]


def test_projection_and_errors_as_the_table_reads_them():
    actual = {"error": {"code": "fact_error", "fact": "vehicle.engine_cc", "reason": "out_of_range"}}
    assert project(actual) == {"erro": "fact_error:vehicle.engine_cc:out_of_range"}
    assert compare({"erro": "fact_error:vehicle.engine_cc:out_of_range"}, project(actual)) == []
    assert compare({"infrações": "x"}, project(actual)) == ["infrações: a avaliação deu erro “fact_error:vehicle.engine_cc:out_of_range”"]


def test_shipped_vector_tables_have_a_municipality_pack():
    from server.rules.vector_table import table_files
    slugs = {p.get("municipality") for _, p in read_packs() if p.get("municipality")}
    for table in table_files(ROOT):
        assert table.name.split(".")[0] in slugs, table
    json.dumps(slugs, default=list)


SYNTHETIC_PACK = "serra-azul-do-norte-lei-412-2015"


def test_the_fourth_law_lints_clean_and_its_coverage_accounts_for_every_article():
    from server.modules.rules.cli import lint_pack

    problems, rules, reports, pack = lint_pack(ROOT, SYNTHETIC_PACK)
    assert problems == [], checker.as_text(problems)
    assert pack["synthetic"] is True and rules is not None
    rep = reports["L412"]
    assert [a["art"] for a in rep["articles"]] == [str(n) for n in range(1, 39)]
    assert all(a["complete"] for a in rep["articles"]) and rep["missing"] == []
    status = {r["label_pt"]: r for a in rep["articles"] for r in a["provisions"]}
    assert status["Art. 19, IV"]["status"] == "not_applicable"                  # (VETADO)
    # The drafting error: encoded, and the option that chooses its reading cites it too.
    assert status["Art. 20, VIII"]["entries"] == ["saz.inf.art20_viii", "serra-azul-do-norte.art20_viii_leitura"]
    assert status["Art. 35, caput"]["status"] == "reading" and status["Art. 35, caput"]["option"]
    assert status["Art. 2º, VIII"]["status"] == "decree"
    assert {r["status"] for r in status.values()} == {"encoded", "not_applicable", "decree", "reading", "lead_in"}


def test_the_published_coverage_page_is_the_tool_s_current_output():
    from click.testing import CliRunner

    from server.modules.rules.cli import rules_cli

    out = CliRunner().invoke(rules_cli, ["coverage", "--pack", SYNTHETIC_PACK, "--format", "markdown"])
    assert out.exit_code == 0, out.output
    page = (ROOT / "docs" / "legal-coverage-serra-azul-do-norte.md").read_text(encoding="utf-8")
    assert out.output == page, "run: flask rules coverage --pack serra-azul-do-norte-lei-412-2015 --format markdown --out docs/legal-coverage-serra-azul-do-norte.md"


def test_rules_lint_exits_non_zero_and_explains_a_broken_pack(tmp_path):
    import shutil

    from click.testing import CliRunner

    from server.modules.rules.cli import rules_cli

    root = tmp_path / "repo"
    shutil.copytree(ROOT / "shared_rules", root / "shared_rules", ignore=shutil.ignore_patterns("NOTES"))
    path = root / "shared_rules" / "packs" / f"{SYNTHETIC_PACK}.json"
    pack = json.loads(path.read_text(encoding="utf-8"))
    pack["requirements"][0]["citation"]["inciso"] = "XI"
    path.write_text(json.dumps(pack, ensure_ascii=False), encoding="utf-8")
    out = CliRunner().invoke(rules_cli, ["lint", "--pack", SYNTHETIC_PACK, "--root", str(root)])
    assert out.exit_code == 1
    assert "Lei 412/2015, art. 4º, XI (requisito saz.req.idade_21): Lei 412/2015, art. 4º, XI não existe no texto" in out.output
    assert "Lei 412/2015, art. 4º, I: o dispositivo não foi codificado nem declarado" in out.output
    assert "Como corrigir:" in out.output


def _constructs(pack):
    """Every construct of the format a pack uses: its keys (not its own names: facts, laws,
    options), the expression operators, and the kinds, start events and statuses it picks."""
    names = set(pack.get("facts") or {}) | set(pack.get("laws") or {}) | set(pack.get("options") or {})
    found = set()

    def walk(node, expression=False):
        if isinstance(node, dict):
            for key, value in node.items():
                if key not in names:
                    found.add(key)
                if key != "labels_pt":        # its keys are the fact's own values
                    walk(value, expression or key in ("holds", "applies_when", "proposed_when", "ask_when"))
        elif isinstance(node, list):
            for item in node:
                walk(item, expression)

    walk(pack)
    found -= {"$date"}
    found |= {i["penalty"]["kind"] for i in pack["infractions"]}
    found |= {m["kind"] for i in pack["infractions"] for m in i.get("measures") or []}
    found |= {d["kind"] for d in pack["deadlines"]} | {d["starts"] for d in pack["deadlines"]}
    found |= {c["status"] for c in pack["coverage"]}
    return found


def test_the_guide_names_every_construct_the_fourth_law_used():
    import re

    from server.rules.vector_table import read_table
    pack = json.loads((ROOT / "shared_rules" / "packs" / f"{SYNTHETIC_PACK}.json").read_text(encoding="utf-8"))
    guide = (ROOT / "docs" / "guia-codificacao-de-leis.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`([^`\s]+)`", guide)) | {w for span in re.findall(r"`([^`]+)`", guide) for w in re.findall(r"[\w$-]+", span)}
    constructs = _constructs(pack)
    assert {"requires_prior", "alternatives_only_if", "covers", "groups", "amended_by"} - constructs == {"amended_by"}
    assert sorted(constructs - named) == []
    header, _ = read_table((ROOT / "shared_rules" / "vectors" / "tables" / "serra-azul-do-norte.csv").read_text(encoding="utf-8"))
    columns = {c for c in header if "." not in c}
    assert sorted(columns - named) == []


def test_rules_lint_checks_an_amendment_file_before_it_is_published(tmp_path):
    from click.testing import CliRunner

    from server.modules.rules.cli import rules_cli

    fixture = ROOT / "tests" / "fixtures" / "amendments" / "paranatinga-lei-311-2007-alterada-lei-999-2026.json"
    ok = CliRunner().invoke(rules_cli, ["lint", "--pack", str(fixture)])
    assert ok.exit_code == 0 and "Nenhum problema encontrado." in ok.output, ok.output
    pack = json.loads(fixture.read_text(encoding="utf-8"))
    pack["amends"] = "paranatinga-lei-311-2008"
    broken = tmp_path / "alteracao.json"
    broken.write_text(json.dumps(pack), encoding="utf-8")
    out = CliRunner().invoke(rules_cli, ["lint", "--pack", str(broken)])
    assert out.exit_code == 1 and "o pacote diz alterar “paranatinga-lei-311-2008”" in out.output


def test_rules_scaffold_writes_the_files_a_pack_starts_from(tmp_path):
    from click.testing import CliRunner

    from server.modules.rules.cli import rules_cli

    root = tmp_path / "repo"
    for folder in ("packs", "config", "laws", "schemas"):
        (root / "shared_rules" / folder).mkdir(parents=True)
    law = tmp_path / "vila.txt"
    law.write_text(TEXT, encoding="utf-8")
    out = CliRunner().invoke(rules_cli, ["scaffold", "--law", str(law), "--municipality", "vila-teste", "--prefix", "v",
                                         "--root", str(root)])
    assert out.exit_code == 0, out.output
    assert "2 infração(ões) e 1 prazo(s) esboçados do texto" in out.output
    pack = json.loads((root / "shared_rules" / "packs" / "vila-teste-lei-7-2020.json").read_text(encoding="utf-8"))
    assert pack["laws"]["L"]["source_file"] == "vila.txt" and (root / "shared_rules" / "laws" / "vila.txt").exists()
    assert (root / "shared_rules" / "vectors" / "tables" / "vila-teste.csv").exists()
    assert (root / "shared_rules" / "NOTES" / "provisions-vila-teste-lei-7-2020.csv").exists()
    again = CliRunner().invoke(rules_cli, ["scaffold", "--law", str(law), "--municipality", "vila-teste", "--root", str(root)])
    assert again.exit_code != 0 and "já existe" in again.output   # never overwrites the analyst's work
