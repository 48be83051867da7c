"""Registry validation from the rule packs, and the municipality's rule configuration page."""
import re
from datetime import date

import pytest

from helpers import csrf_token, login
from server.core.clock import local_today
from server.core.errors import ApiError
from server.extensions import db
from server.modules.registry import facts as registry_facts
from server.modules.registry.models import Municipality, Vehicle
from server.modules.permits.entities import save_entity
from server.modules.rules.service import composed_for

TODAY = local_today()


def _vehicle(**over):
    data = {"plate": "QWE1R23", "renavam": "00000000019", "chassis": "9C2KC1670FR500001",
            "make": "Honda", "model": "CG 160", "year_manufacture": TODAY.year, "engine_cc": 160,
            "plate_category": "aluguel", "plate_colour": "vermelha"}
    data.update(over)
    return data


def _muni(slug):
    return Municipality.query.filter_by(slug=slug).one()


def test_every_mapped_registry_fact_is_declared_in_a_pack(app, demo):
    with app.app_context():
        declared = {}
        for slug in ("nortelandia", "sapezal", "paranatinga"):
            declared.update(composed_for(_muni(slug)).facts)
    mapped = set(registry_facts.OPERATOR_FACTS) | set(registry_facts.VEHICLE_FACTS)
    assert mapped - set(declared) == set()
    for name in mapped:
        assert declared[name]["source"] == "registry"


# 124 cc: a "125" registered below 125,0 passes under the default reading (LEGAL.md, issue 7 item 8).
@pytest.mark.parametrize("cc, refused", [(122, True), (124, False), (125, False), (350, False), (351, True)])
def test_sapezal_engine_limits_cite_the_article(app, demo, cc, refused):
    with app.app_context():
        muni = _muni("sapezal")
        if refused:
            with pytest.raises(ApiError) as err:
                save_entity(Vehicle, muni, _vehicle(engine_cc=cc))
            assert err.value.status == 422
            assert any("Lei 125/1999, art. 5º" in m for m in err.value.fields["engine_cc"])
            assert Vehicle.query.filter_by(plate="QWE1R23").first() is None
        else:
            assert save_entity(Vehicle, muni, _vehicle(engine_cc=cc)).engine_cc == cc


def test_vetoed_vehicle_age_is_not_enforced_until_the_municipality_decides(app, demo):
    old = _vehicle(year_manufacture=TODAY.year - 12, plate="OLD1A23")
    with app.app_context():
        muni = _muni("paranatinga")
        # Veto 002/2007 pending: the 7-year limit of art. 8 must not refuse anything.
        assert save_entity(Vehicle, muni, old).year_manufacture == TODAY.year - 12
        muni.settings = {**muni.settings, "rules": {"options": {
            key: "veto_overridden" for key in _veto_keys(muni)}}}
        db.session.commit()
        with pytest.raises(ApiError) as err:
            save_entity(Vehicle, muni, dict(old, plate="OLD2B34"))
        assert any("Lei 311/2007" in m for m in err.value.fields["year_manufacture"])


def _veto_keys(muni):
    return [v["option_key"] for v in composed_for(muni).vetoes]


def test_federal_age_rule_refuses_a_20_year_old_operator(app, demo):
    base = {"name": "Teste da Silva", "cpf": "52998224725", "cnh_number": "02650306461",
            "cnh_category": "A", "cnh_first_issue_date": date(2015, 1, 1),
            "cnh_expiry": date(TODAY.year + 3, 1, 1)}
    young = date(TODAY.year - 20, 1, 1)
    with app.app_context():
        with pytest.raises(ApiError) as err:
            save_entity(_operator_model(), _muni("sapezal"), dict(base, birth_date=young))
        assert any("Lei 12.009/2009, art. 2º, I" in m for m in err.value.fields["birth_date"])
        ok = save_entity(_operator_model(), _muni("sapezal"), dict(base, birth_date=date(TODAY.year - 30, 1, 1)))
        assert ok.id is not None


def _operator_model():
    from server.modules.registry.models import Operator
    return Operator


def test_editing_an_aged_vehicle_is_judged_only_on_what_changes(app, demo):
    with app.app_context():
        muni = _muni("sapezal")
        vehicle = save_entity(Vehicle, muni, _vehicle())
        vehicle.year_manufacture = TODAY.year - 10  # it aged in the registry
        db.session.commit()
        updated = save_entity(Vehicle, muni, {"plate_colour": "cinza", "year_manufacture": TODAY.year - 10}, vehicle)
        assert updated.plate_colour == "cinza"


def test_rules_configuration_page_saves_veto_outcome_with_audit(client, app, demo):
    login(client, "backoffice.paranatinga")
    page = client.get("/bo/regras/configuracao")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "não configurado" in html
    with app.app_context():
        key = _veto_keys(_muni("paranatinga"))[0]
    token = csrf_token(client, "/bo/regras/configuracao")
    missing_source = client.post("/bo/regras/configuracao", data={
        "csrf_token": token, "kind": "options", "key": key, "option": "veto_upheld", "source": ""})
    assert missing_source.status_code == 422
    assert "Informe o ato" in missing_source.get_data(as_text=True)
    saved = client.post("/bo/regras/configuracao", data={
        "csrf_token": token, "kind": "options", "key": key, "option": "veto_upheld",
        "source": "Veto mantido na sessão da Câmara de 15/10/2007"})
    assert saved.status_code == 302
    with app.app_context():
        from server.core.audit import AuditLog
        muni = _muni("paranatinga")
        assert muni.settings["rules"]["options"][key] == "veto_upheld"
        entry = AuditLog.query.filter_by(action="configure_rules").one()
        assert entry.after == {"options": {key: "veto_upheld"}}
        assert "Câmara" in entry.reason


def test_decree_amount_configuration_validates_fields(client, app, demo):
    login(client, "backoffice.sapezal")
    with app.app_context():
        from server.modules.rules.settings import configurable_keys
        keys = [k for k in configurable_keys(composed_for(_muni("sapezal"))) if k["kind"] == "decree_amounts"]
    assert keys, "Sapezal leaves fines to a decree: there must be decree keys to configure"
    token = csrf_token(client, "/bo/regras/configuracao")
    bad = client.post("/bo/regras/configuracao", data={
        "csrf_token": token, "kind": "decree_amounts", "key": keys[0]["key"], "value": "abc",
        "unit": "BRL", "valid_from": "2024-01-01", "source": "Decreto 1/2024"})
    assert bad.status_code == 422 and "Informe um número." in bad.get_data(as_text=True)
    good = client.post("/bo/regras/configuracao", data={
        "csrf_token": token, "kind": "decree_amounts", "key": keys[0]["key"], "value": "150,00",
        "unit": "BRL", "amount_kind": "value", "valid_from": "2024-01-01", "source": "Decreto 1/2024"})
    assert good.status_code == 302
    with app.app_context():
        rows = _muni("sapezal").settings["rules"]["decree_amounts"][keys[0]["key"]]
    assert rows == [{"valid_from": "2024-01-01", "unit": "BRL", "value": 150.0, "decree": "Decreto 1/2024"}]


def test_fiscal_cannot_open_rules_configuration(client, demo):
    response = client.post("/login", data={"username": "fiscal.sapezal", "password": "demo-motofiscal",
                                           "csrf_token": csrf_token(client)})
    assert response.status_code == 401
    assert "Fiscais usam o aplicativo de campo" in response.get_data(as_text=True)
    assert client.get("/bo/regras/configuracao").status_code == 302  # to the login page


def test_catalogue_lists_every_infraction_with_citation(client, app, demo):
    login(client, "backoffice.paranatinga")
    html = client.get("/bo/regras/").get_data(as_text=True)
    with app.app_context():
        composed = composed_for(_muni("paranatinga"))
    for inf in composed.infractions:
        assert inf["label_pt"] in html.replace("&#34;", '"').replace("&#39;", "'") or \
            re.sub(r"\s+", " ", inf["label_pt"])[:30] in html



def test_reading_option_of_a_drafting_error_is_configurable_and_decides_the_boundary(client, app, demo):
    """Paranatinga art. 8º II says "250 (duzentas)": 201–250 cc waits for the municipality."""
    from server.modules.rules.settings import configurable_keys
    with app.app_context():
        muni = _muni("paranatinga")
        rows = [k for k in configurable_keys(composed_for(muni)) if k["kind"] == "options" and "choices" in k
                and "pending" not in k["choices"] and k["key"] == "paranatinga.art8_ii_cc_max_reading"]
        assert rows, "the 250/200 reading must be offered for configuration"
        row = rows[0]
        assert set(row["choices"]) == {"250", "200"}
        # Undecided reading: a 230 cc motorcycle is neither refused nor accepted silently by a guess.
        assert save_entity(Vehicle, muni, _vehicle(engine_cc=230, plate="RDA1B23")).engine_cc == 230
    login(client, "backoffice.paranatinga")
    token = csrf_token(client, "/bo/regras/configuracao")
    bad = client.post("/bo/regras/configuracao", data={"csrf_token": token, "kind": "options",
                                                      "key": row["key"], "option": "300", "source": "Parecer 1/2024"})
    assert bad.status_code == 422 and "Escolha uma das opções." in bad.get_data(as_text=True)
    ok = client.post("/bo/regras/configuracao", data={"csrf_token": token, "kind": "options",
                                                     "key": row["key"], "option": "200", "source": "Parecer 1/2024"})
    assert ok.status_code == 302
    with app.app_context():
        with pytest.raises(ApiError) as err:
            save_entity(Vehicle, _muni("paranatinga"), _vehicle(engine_cc=230, plate="RDA2C34"))
        assert any("Lei 311/2007, art. 8º, II" in m for m in err.value.fields["engine_cc"])


# ---- issue 7 (legal review): every fact has a source; registry rules from the laws ----------

def _read_facts(composed):
    """Facts the composed packs read: requirement expressions and checklist ask_when."""
    names = set()
    for req in composed.requirements:
        for compiled in (req["_applies"], req["_holds"]):
            names |= {n for n in compiled.refs if not n.startswith("$")}
    for decl in composed.facts.values():
        if decl.get("_ask") is not None:
            names |= {n for n in decl["_ask"].refs if not n.startswith("$")}
    return names


def test_every_fact_a_pack_reads_has_a_registry_source_or_a_checklist_question(app, demo):
    from server.modules.registry.facts import fact_source
    with app.app_context():
        for slug in ("nortelandia", "sapezal", "paranatinga"):
            composed = composed_for(_muni(slug))
            orphans = sorted(n for n in _read_facts(composed) if fact_source(n, composed.facts[n]) is None)
            assert orphans == [], (slug, orphans)
            # Paranatinga art. 20 (the termo's validity) used to be read with no source.
            if slug == "paranatinga":
                assert fact_source("permit.term_valid_until", composed.facts["permit.term_valid_until"]) == "registry"


def test_every_registry_or_document_fact_is_declared_as_registry(app, demo):
    with app.app_context():
        declared = {}
        for slug in ("nortelandia", "sapezal", "paranatinga"):
            declared.update(composed_for(_muni(slug)).facts)
    names = (set(registry_facts.PERMIT_FACTS) | set(registry_facts.DRIVER_FACTS)
             | set(registry_facts.DOCUMENT_CHECKS))
    assert names - set(declared) == set()
    assert all(declared[n]["source"] == "registry" for n in names)


def test_paranatinga_termo_and_sapezal_taxpayer_number_reach_the_rules(app, demo):
    from server.modules.issuance.records import permit_facts
    from server.modules.registry.models import Permit
    from server.rules import evaluate
    with app.app_context():
        par = _muni("paranatinga")
        permit = Permit.query.filter_by(municipality_id=par.id, status="ativo").order_by(Permit.id).first()
        composed = composed_for(par)
        facts = permit_facts(permit, composed.facts)
        assert permit.kind == "termo_permissao"
        assert facts["permit.term_valid_until"] == permit.valid_until.isoformat()
        assert facts["permit.exists"] is True and facts["permit.status"] == "ativo"
        sap = _muni("sapezal")
        permit = Permit.query.filter_by(municipality_id=sap.id, status="ativo").order_by(Permit.id).first()
        composed = composed_for(sap)
        permit.taxpayer_number = None
        facts = permit_facts(permit, composed.facts)
        result = evaluate(composed, TODAY, facts)
        assert "sap.req.alvara_inscricao_contribuinte" in [f["requirement"] for f in result["failed"]]
        permit.taxpayer_number = "12.345-6"
        facts = permit_facts(permit, composed.facts)
        assert "sap.req.alvara_inscricao_contribuinte" in evaluate(composed, TODAY, facts)["passed"]
        db.session.rollback()


def test_taxpayer_number_is_saved_from_the_permit_form(client, app, demo):
    from server.modules.registry.models import Permit
    login(client, "backoffice.sapezal")
    with app.app_context():
        permit = Permit.query.filter_by(municipality_id=_muni("sapezal").id, status="ativo").order_by(Permit.id).first()
        ident = permit.id
        data = {"number": permit.number, "kind": permit.kind, "holder_operator_id": str(permit.holder_operator_id),
                "vehicle_id": str(permit.vehicle_id), "issued_on": permit.issued_on.isoformat(),
                "valid_from": permit.valid_from.isoformat(), "valid_until": permit.valid_until.isoformat(),
                "issqn_status": permit.issqn_status, "taxpayer_number": "12.345-6"}
        if permit.ponto_id:
            data["ponto_id"] = str(permit.ponto_id)
    html = client.get(f"/bo/permissoes/{ident}/editar").get_data(as_text=True)
    assert 'name="taxpayer_number"' in html and "art. 9º, III" in html
    bad = client.post(f"/bo/permissoes/{ident}/editar", data={
        **data, "taxpayer_number": "12 345<6", "csrf_token": csrf_token(client, f"/bo/permissoes/{ident}/editar")})
    assert bad.status_code == 422
    response = client.post(f"/bo/permissoes/{ident}/editar", data={
        **data, "csrf_token": csrf_token(client, f"/bo/permissoes/{ident}/editar")})
    assert response.status_code == 302, response.get_data(as_text=True)[-3000:]
    with app.app_context():
        assert db.session.get(Permit, ident).taxpayer_number == "12.345-6"


@pytest.mark.parametrize("slug, article", [("sapezal", "Lei 125/1999, art. 3º"), ("nortelandia", "Lei 030/1998, art. 6º, § 1º")])
def test_permit_holder_cannot_be_changed_by_an_edit_where_the_law_forbids_transfer(app, demo, slug, article):
    from server.modules.registry.models import Company, Operator, Permit
    from server.modules.permits.operations import update_permit
    with app.app_context():
        muni = _muni(slug)
        permit = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first()
        data = {"number": permit.number, "kind": permit.kind, "vehicle_id": permit.vehicle_id,
                "issued_on": permit.issued_on, "valid_from": permit.valid_from, "valid_until": permit.valid_until,
                "driver_ids": [d.id for d in permit.drivers]}
        if permit.holder_company_id:
            other = Company.query.filter(Company.municipality_id == muni.id, Company.id != permit.holder_company_id).first()
            field, data["holder_company_id"] = "holder_company_id", other.id
        else:
            other = Operator.query.filter(Operator.municipality_id == muni.id, Operator.id != permit.holder_operator_id).first()
            field, data["holder_operator_id"] = "holder_operator_id", other.id
        before = getattr(permit, field)
        with pytest.raises(ApiError) as err:
            update_permit(permit, muni, data)
        assert err.value.status == 422
        assert any(article in m and "intransferível" in m for m in err.value.fields[field])
        db.session.rollback()
        assert getattr(db.session.get(Permit, permit.id), field) == before


def test_sapezal_art_20_pontos_are_created_with_the_municipality(app):
    """Without the demo: the three pontos of art. 20 come from the registry's legal data, once."""
    from server.modules.registry.legal import create_legal_pontos
    from server.modules.registry.models import Ponto
    with app.app_context():
        muni = Municipality(slug="sapezal", ibge_code="5107875", name="Sapezal", uf="MT", regimes=[], settings={})
        db.session.add(muni)
        db.session.flush()
        assert len(create_legal_pontos(muni)) == 3
        db.session.commit()
        assert create_legal_pontos(muni) == []  # idempotent: matched by legal basis
        rows = {(p.name, p.capacity, p.legal_basis) for p in Ponto.query.filter_by(municipality_id=muni.id)}
    assert rows == {("Cowtry Lanches", 3, "Lei 125/1999, art. 20, I"),
                    ("Loteamento Águas Claras – Lanchonete Queen", 2, "Lei 125/1999, art. 20, II"),
                    ("Hospital e Maternidade Renato Sucupira", 1, "Lei 125/1999, art. 20, III")}


def test_demo_sapezal_has_each_art_20_ponto_once(app, demo):
    from server.modules.registry.models import Ponto
    with app.app_context():
        bases = [p.legal_basis for p in Ponto.query.filter_by(municipality_id=_muni("sapezal").id)]
    assert sorted(b for b in bases if b) == ["Lei 125/1999, art. 20, I", "Lei 125/1999, art. 20, II",
                                             "Lei 125/1999, art. 20, III"]
