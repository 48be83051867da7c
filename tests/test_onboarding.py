"""Onboarding without the demo (issue 21): `flask municipality create`, `flask users create-admin`,
the platform administrator's screen, and a municipality whose law has no rule pack yet."""
from helpers import csrf_token, login

from server.core.audit import AuditLog
from server.extensions import db
from server.modules.accounts.models import User
from server.modules.credentials.models import IssuerKey
from server.modules.registry.models import Municipality, Ponto
from server.modules.registry.legal import LEGAL_PONTOS
from server.rules.compose import read_packs

PASSWORD = "senha-forte-123"


def _create(runner, *extra, ibge="5107875", name="Sapezal", pack="sapezal-lei-125-1999"):
    return runner.invoke(args=["municipality", "create", "--ibge", ibge, "--name", name, "--uf", "MT", "--pack", pack,
                               "--public-base-url", "https://motofiscal.sapezal.mt.gov.br", *extra])


def test_cli_creates_municipality_with_key_and_legal_pontos(app, runner):
    result = _create(runner)
    assert result.exit_code == 0, result.output
    # The municipality's own address is the one its crachás print (registry.public_address): said, not warned.
    assert "https://motofiscal.sapezal.mt.gov.br" in result.output and "PUBLIC_BASE_URL" not in result.output
    with app.app_context():
        muni = Municipality.query.one()
        assert (muni.slug, muni.ibge_code, muni.settings["time_zone"]) == ("sapezal", "5107875", "America/Cuiaba")
        key = IssuerKey.query.filter_by(municipality_id=muni.id).one()
        assert key.status == "active" and key.kid == 1
        assert sorted(p.legal_basis for p in Ponto.query.filter_by(municipality_id=muni.id)) == \
            sorted(b for _, _, b in LEGAL_PONTOS["sapezal"])
        assert AuditLog.query.filter_by(action="create", entity="municipality").count() == 1
    again = _create(runner)
    assert again.exit_code != 0 and "código IBGE" in again.output


def test_cli_refuses_bad_input_naming_the_field(app, runner):
    bad_ibge = _create(runner, ibge="51078")
    assert bad_ibge.exit_code != 0 and "ibge_code" in bad_ibge.output and "7 dígitos" in bad_ibge.output
    bad_pack = _create(runner, pack="lei-inexistente")
    assert bad_pack.exit_code != 0 and "sapezal-lei-125-1999" in bad_pack.output and "nenhum" in bad_pack.output
    bad_zone = _create(runner, "--time-zone", "Cuiaba/Centro")
    assert bad_zone.exit_code != 0 and "time_zone" in bad_zone.output
    bad_url = runner.invoke(args=["municipality", "create", "--ibge", "5107875", "--name", "Sapezal", "--uf", "MT",
                                  "--pack", "nenhum", "--public-base-url", "https://x.br/motofiscal"])
    assert bad_url.exit_code != 0 and "public_base_url" in bad_url.output
    with app.app_context():
        assert Municipality.query.count() == 0


def test_cli_admin_for_municipality_and_platform(app, runner):
    assert _create(runner).exit_code == 0
    short = runner.invoke(args=["users", "create-admin", "--municipality", "sapezal", "--username", "adm.sapezal",
                                "--name", "Adm Sapezal", "--password", "curta"])
    assert short.exit_code != 0 and "10 caracteres" in short.output
    ok = runner.invoke(args=["users", "create-admin", "--municipality", "sapezal", "--username", "adm.sapezal",
                             "--name", "Adm Sapezal", "--password", PASSWORD])
    assert ok.exit_code == 0, ok.output
    platform = runner.invoke(args=["users", "create-admin", "--username", "plataforma", "--name", "Adm Plataforma",
                                   "--password", PASSWORD])
    assert platform.exit_code == 0, platform.output
    missing = runner.invoke(args=["users", "create-admin", "--municipality", "cuiaba", "--username", "x.y.z",
                                  "--name", "Ninguém", "--password", PASSWORD])
    assert missing.exit_code != 0 and "não encontrado" in missing.output
    with app.app_context():
        users = {u.username: (u.role, u.municipality_id) for u in User.query}
        muni_id = Municipality.query.one().id
        assert users == {"adm.sapezal": ("admin", muni_id), "plataforma": ("admin", None)}


def test_municipality_without_pack_runs_on_federal_layer_and_says_so(app, runner, client):
    result = _create(runner, ibge="5107925", name="Sorriso", pack="nenhum")
    assert result.exit_code == 0, result.output
    assert "só as regras federais" in result.output
    assert runner.invoke(args=["users", "create-admin", "--municipality", "sorriso", "--username", "adm.sorriso",
                               "--name", "Adm Sorriso", "--password", PASSWORD]).exit_code == 0
    federal_ids = {r["id"] for _, p in read_packs() if p.get("kind") == "federal" for r in p.get("requirements", [])}
    with app.app_context():
        from server.modules.rules.service import composed_for
        muni = Municipality.query.one()
        assert muni.regimes == ["federal-base"]
        composed = composed_for(muni)
        ids = {r["id"] for r in composed.requirements}
        assert ids and ids <= federal_ids
    login(client, "adm.sorriso", PASSWORD)
    for path in ("/bo/", "/bo/regras/"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert "Sem regras da lei municipal" in page.get_data(as_text=True), path


def test_platform_screen_creates_municipality_and_admin(app, runner, client):
    assert runner.invoke(args=["users", "create-admin", "--username", "plataforma", "--name", "Adm Plataforma",
                               "--password", PASSWORD]).exit_code == 0
    login(client, "plataforma", PASSWORD)
    token = csrf_token(client, "/bo/plataforma/municipios")
    form = {"csrf_token": token, "ibge_code": "5106307", "name": "Paranatinga", "uf": "MT",
            "pack": "paranatinga-lei-311-2007", "time_zone": "America/Cuiaba", "public_base_url": "ftp://x"}
    bad = client.post("/bo/plataforma/municipios", data=form)
    assert bad.status_code == 422 and "Endereço público inválido" in bad.get_data(as_text=True)
    no_csrf = client.post("/bo/plataforma/municipios", data={**form, "csrf_token": ""})
    assert no_csrf.status_code == 400
    ok = client.post("/bo/plataforma/municipios", data={**form, "public_base_url": "https://motofiscal.exemplo.br"})
    assert ok.status_code == 302
    with app.app_context():
        muni = Municipality.query.one()
        assert muni.slug == "paranatinga" and IssuerKey.query.filter_by(municipality_id=muni.id).count() == 1
        muni_id = muni.id
    created = client.post(f"/bo/plataforma/municipios/{muni_id}/administrador",
                          data={"csrf_token": token, "username": "adm.paranatinga", "name": "Adm Paranatinga",
                                "password": PASSWORD})
    assert created.status_code == 302
    with app.app_context():
        assert db.session.query(User).filter_by(username="adm.paranatinga", municipality_id=muni_id).count() == 1


def test_platform_screen_is_for_the_platform_admin_only(app, runner, client):
    assert _create(runner).exit_code == 0
    assert runner.invoke(args=["users", "create-admin", "--municipality", "sapezal", "--username", "adm.sapezal",
                               "--name", "Adm Sapezal", "--password", PASSWORD]).exit_code == 0
    login(client, "adm.sapezal", PASSWORD)
    assert client.get("/bo/plataforma/municipios").status_code == 403
    token = csrf_token(client, "/bo/")
    refused = client.post("/bo/plataforma/municipios", data={"csrf_token": token, "ibge_code": "5106000",
                                                            "name": "Nortelândia", "uf": "MT", "pack": "nenhum",
                                                            "time_zone": "America/Cuiaba",
                                                            "public_base_url": "https://x.br"})
    assert refused.status_code == 403
    with app.app_context():
        assert Municipality.query.count() == 1
