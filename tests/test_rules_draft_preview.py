"""The back office previews a draft pack before it is published to phones (issue 38): the checker
in the law's terms, the checklist on a date, the verdicts for answers typed in and the auto as it
would print; nothing is stored. The amendment TEST FIXTURE (tests/fixtures/amendments/) is the
draft: before its date the old wording, from it the new one."""
import io
import json
from pathlib import Path

from helpers import csrf_token, login

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "amendments" / "paranatinga-lei-311-2007-alterada-lei-999-2026.json"
PAGE = "/bo/regras/rascunho"


def _post(client, data, pack_bytes=None, law_bytes=None):
    form = {"csrf_token": csrf_token(client, PAGE), **data}
    if pack_bytes is not None:
        form["pack_file"] = (io.BytesIO(pack_bytes), "pacote.json")
    if law_bytes is not None:
        form["law_file"] = (io.BytesIO(law_bytes), "lei.txt")
    return client.post(PAGE, data=form, content_type="multipart/form-data")


def test_an_amendment_draft_is_previewed_by_date_before_it_reaches_phones(app, client, demo):
    login(client, "backoffice.paranatinga")
    assert "Prévia de pacote" in client.get("/bo/regras/").get_data(as_text=True)
    before = _post(client, {"date": "2026-02-28"}, FIXTURE.read_bytes())
    page = before.get_data(as_text=True)
    assert before.status_code == 200, page[:500]
    assert "Nenhum problema encontrado." in page, page.split('id="draft-problems"')[1][:3000]
    assert "1 entrada nova, 11 com nova redação" in page
    assert 'data-fact="equipment.chain_guard"' not in page            # the added item is not yet law
    after = _post(client, {"date": "2026-03-01", "pack_json": FIXTURE.read_text(encoding="utf-8"),
                           "f:equipment.chain_guard": "false", "f:equipment.mata_cachorro": "true"})
    page = after.get_data(as_text=True)
    assert 'data-fact="equipment.chain_guard"' in page
    assert "incluído pela Lei 999/2026, art. 3º" in page
    verdict = page.split('id="draft-verdict"')[1]
    assert "Protetor da corrente de transmissão" in verdict
    assert "Lei 311/2007, art. 50, II, alínea “a” (redação dada pela Lei 999/2026, art. 2º)" in verdict
    assert "40 UFIR = R$ 42,56" in verdict
    assert "Recurso escrito ao Secretário de Infraestrutura: prazo fixado em decreto: a fixar pelo município" in verdict
    auto = page.split('id="draft-auto"')[1]
    assert "Local, data e hora" in auto and "01/03/2026 10:00" in auto
    # Nothing was published: the phones' rules are the shipped law's.
    from helpers import api_token
    rules = client.get("/api/v1/rules/paranatinga", headers=api_token(client, "fiscal.paranatinga")).json
    assert not any(p.get("amends") for p in rules["packs"])


def test_a_broken_draft_is_explained_in_the_law_s_terms(app, client, demo):
    login(client, "backoffice.paranatinga")
    pack = json.loads(FIXTURE.read_text(encoding="utf-8"))
    pack["requirements"][1]["on_fail"] = ["par.inf.g2_z"]
    pack["requirements"][1]["citation"]["amended_by"]["art"] = "3"
    page = _post(client, {"date": "2026-03-01"}, json.dumps(pack).encode()).get_data(as_text=True)
    assert ("Lei 311/2007, art. 8º, V, alínea “f” (requisito par.req.protetor_corrente)</strong>: a entrada aponta "
            "para um id que não existe (ou de outra seção): “par.inf.g2_z”") in page
    assert "Corrija os erros acima para ver o checklist e a decisão." in page


def test_bad_uploads_are_refused_naming_the_field(app, client, demo):
    login(client, "backoffice.paranatinga")
    empty = _post(client, {"date": "2026-03-01"})
    assert empty.status_code == 422 and "Envie o arquivo do pacote (JSON)." in empty.get_data(as_text=True)
    broken = _post(client, {"date": "2026-03-01"}, b'{"id": "x",')
    assert broken.status_code == 422 and "O arquivo não é um JSON válido: linha 1" in broken.get_data(as_text=True)
    bad_date = _post(client, {"date": "31/02/2026"}, FIXTURE.read_bytes())
    assert bad_date.status_code == 422 and "Data inválida" in bad_date.get_data(as_text=True)
    login(client, "backoffice.sapezal")
    other = _post(client, {"date": "2026-03-01"}, FIXTURE.read_bytes())
    assert other.status_code == 422 and "O pacote é de outro município (“paranatinga”)" in other.get_data(as_text=True)


def test_a_new_law_is_previewed_with_its_text_in_a_municipality_running_on_the_federal_layer(app, client, runner):
    """The analyst's first contact: the municipality exists with no pack (federal rules only), the
    law's text and its pack are uploaded together."""
    root = Path(__file__).resolve().parents[1]
    made = runner.invoke(args=["municipality", "create", "--ibge", "9900412", "--name", "Serra Azul do Norte", "--uf", "MT",
                               "--pack", "nenhum", "--public-base-url", "https://exemplo.invalid"])
    assert made.exit_code == 0, made.output
    from server.extensions import db
    from server.modules.accounts.models import User
    from server.modules.registry.models import Municipality
    with app.app_context():
        user = User(username="analista", name="Analista", role="backoffice",
                    municipality_id=Municipality.query.one().id)
        user.set_password("senha-forte-123")
        db.session.add(user)
        db.session.commit()
    login(client, "analista", "senha-forte-123")
    pack = (root / "shared_rules" / "packs" / "serra-azul-do-norte-lei-412-2015.json").read_bytes()
    page = _post(client, {"date": "2026-06-10", "f:driver.carries_fare_table": "false"}, pack,
                 (root / "shared_rules" / "laws" / "serra-azul-do-norte-lei-412-2015.txt").read_bytes()).get_data(as_text=True)
    assert "Nenhum problema encontrado." in page and "38 de 38 artigos completos" in page
    verdict = page.split('id="draft-verdict"')[1]
    assert "Tabela de tarifas não visível" in verdict and "Lei 412/2015, art. 17, I" in verdict
    assert "5 UFM" in verdict   # no UFM value configured: the unit, no reais invented
