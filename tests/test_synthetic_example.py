"""The fourth regime is an example, not a customer (issue 38): Serra Azul do Norte's pack ships so
the demo and tests can use it, marked as a synthetic example everywhere it appears, and never
offered as a real municipality in production onboarding without an explicit flag."""
from datetime import date

from helpers import login

from server.extensions import db
from server.modules.registry.models import Municipality, Permit

PACK = "serra-azul-do-norte-lei-412-2015"


def _create(runner, *extra):
    return runner.invoke(args=["municipality", "create", "--ibge", "9900412", "--name", "Serra Azul do Norte",
                               "--uf", "MT", "--pack", PACK, "--public-base-url", "https://exemplo.invalid", *extra])


def test_onboarding_refuses_the_synthetic_pack_without_the_explicit_flag(app, runner):
    from server.modules.onboarding.operations import municipal_packs

    assert PACK not in municipal_packs() and PACK in municipal_packs(include_synthetic=True)
    refused = _create(runner)
    assert refused.exit_code != 0 and "exemplo sintético" in refused.output and "--allow-synthetic-example" in refused.output
    assert PACK not in refused.output.split("Disponíveis:")[1]  # the list of packs offered leaves it out
    with app.app_context():
        assert Municipality.query.count() == 0
    made = _create(runner, "--allow-synthetic-example")
    assert made.exit_code == 0, made.output
    assert "exemplo sintético" in made.output
    with app.app_context():
        muni = Municipality.query.one()
        assert muni.synthetic_example and muni.settings["permit_label"] == "Alvará de autorização"
        assert muni.regimes == ["federal-base", PACK]


def test_the_platform_screen_never_offers_the_synthetic_pack(app, client):
    from server.modules.accounts.models import User

    with app.app_context():
        admin = User(username="plataforma", name="Adm", role="admin")
        admin.set_password("senha-forte-123")
        db.session.add(admin)
        db.session.commit()
    login(client, "plataforma", "senha-forte-123")
    page = client.get("/bo/plataforma/municipios").get_data(as_text=True)
    assert "sapezal-lei-125-1999" in page and PACK not in page


def test_real_packs_name_the_permit_as_their_law_does(app, runner):
    made = runner.invoke(args=["municipality", "create", "--ibge", "5106307", "--name", "Paranatinga", "--uf", "MT",
                               "--pack", "paranatinga-lei-311-2007", "--public-base-url", "https://p.invalid"])
    assert made.exit_code == 0, made.output
    with app.app_context():
        muni = Municipality.query.one()
        assert muni.settings["permit_label"] == "Termo de permissão" and not muni.synthetic_example


def test_the_full_demo_holds_the_example_marked_and_working(app, client):
    from server.modules.demo.dataset import load_demo
    from server.modules.issuance.validity import issue_validity, rule_for

    with app.app_context():
        logins = load_demo(credentials=False, example=True)
        db.session.commit()  # the loader stages; `flask demo load` commits
        assert ("fiscal.serra-azul-do-norte", "fiscal", "Serra Azul do Norte (exemplo fictício)") in logins
        muni = Municipality.query.filter_by(slug="serra-azul-do-norte").one()
        assert muni.synthetic_example and muni.ibge_code.startswith("99")  # no state has code 99
        # Its permits last the year its pack declares (art. 5º), by Lei 810/1949.
        rule = rule_for(muni, "alvara")
        assert (rule.months, rule.basis) == (12, "Lei 412/2015, art. 5º")
        assert issue_validity(muni, "alvara", date(2024, 2, 29)) == date(2025, 3, 1)
        assert Permit.query.filter_by(municipality_id=muni.id).count() == 11
    login(client, "backoffice.serra-azul-do-norte")
    page = client.get("/bo/").get_data(as_text=True)
    assert "Exemplo fictício." in page and "texto sintético" in page
    login(client, "backoffice.sapezal")
    assert "Exemplo fictício." not in client.get("/bo/").get_data(as_text=True)


def test_the_light_demo_leaves_the_example_out(app, demo):
    with app.app_context():
        assert Municipality.query.count() == 3
        assert Municipality.query.filter_by(slug="serra-azul-do-norte").first() is None


def test_the_back_office_asks_for_the_documents_the_pack_declares(app, client):
    from server.modules.demo.dataset import load_demo
    from server.modules.issuance.models import DocumentCheck

    with app.app_context():
        load_demo(credentials=False, example=True)
        db.session.commit()  # the loader stages; `flask demo load` commits
        muni = Municipality.query.filter_by(slug="serra-azul-do-norte").one()
        permit = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first()
        operator_id, vehicle_id = permit.holder_operator_id, permit.vehicle_id
        # The demo answered them as the clerk would: the transitional ones "no".
        answers = {r.fact: r.value for r in DocumentCheck.query.filter_by(subject_id=operator_id, subject="operator")}
        assert answers["operator.cnh_ear"] is True and answers["operator.registered_under_previous_law"] is False
    login(client, "backoffice.serra-azul-do-norte")
    page = client.get(f"/bo/documentos/operator/{operator_id}").get_data(as_text=True)
    assert "A CNH traz a anotação de que exerce atividade remunerada (EAR)?" in page
    assert "As taxas do alvará e da vistoria (art. 14) e as multas vencidas estão quitadas (comprovante)?" in page
    vehicle_page = client.get(f"/bo/documentos/vehicle/{vehicle_id}").get_data(as_text=True)
    assert "prorrogação de 2 anos" in vehicle_page and "EAR" not in vehicle_page
