"""Sapezal Lei 125/1999, art. 4º, § 1º: the policy covers third parties, the driver and the
passenger "individualmente" (issue 19, point 10). The requirement is met only when each of the
three is covered, names who is not, and stays unknown for a policy recorded with one set of
amounts (before migration 0026)."""
from datetime import timedelta
from decimal import Decimal

import pytest
from backoffice_data import free_operator_and_vehicle, muni, per_person_covers, record_requirements
from flask_migrate import downgrade, upgrade
from helpers import csrf_token, login
from sqlalchemy import text
from test_migrations import MIGRATIONS, fresh_db  # noqa: F401  (the fixture)

from server.core.clock import local_today
from server.extensions import db
from server.modules.issuance.models import InsurancePolicy
from server.modules.issuance.operations import save_policy
from server.modules.issuance.requirements import checklist
from server.modules.registry.models import Permit, Vehicle

TODAY = local_today()
REQUIREMENT = "sap.req.seguro_coberturas"


def _coverage_item(app, covers, copy_filed=True):
    """The art. 4º § 1º item of the issuing checklist once a policy with `covers` is recorded."""
    op_id, vehicle_id = free_operator_and_vehicle(app, "sapezal")
    record_requirements(app, "sapezal", op_id, vehicle_id, skip=("insurance",))
    with app.app_context():
        m, vehicle = muni("sapezal"), db.session.get(Vehicle, vehicle_id)
        save_policy(m, vehicle, {"kind": "terceiros_app", "insurer": "Seguradora", "policy_number": "P-77",
                                 "starts_on": TODAY, "ends_on": TODAY + timedelta(days=365),
                                 "copy_filed": copy_filed, **covers})
        permit = Permit(municipality_id=m.id, holder_operator_id=op_id, vehicle_id=vehicle_id, kind="alvara")
        items = {i.key: i for i in checklist(m, permit, TODAY, "issue")}
        db.session.rollback()
        return items[REQUIREMENT]


def test_a_policy_covering_only_third_parties_fails_naming_driver_and_passenger(app, demo):
    item = _coverage_item(app, per_person_covers(("third_parties",)) | {
        "driver_death": 15000, "driver_temporary_disability": 2000, "driver_permanent_disability": 8000,
        "driver_personal_accidents": False, "passenger_personal_accidents": False})
    assert item.state == "missing" and item.citation == "Lei 125/1999, art. 4º, §1º"
    assert item.hint == "sem a cobertura mínima individual: motorista, passageiro"


def test_one_cover_below_the_minimum_for_one_person_names_that_person(app, demo):
    item = _coverage_item(app, per_person_covers() | {"passenger_permanent_disability": Decimal("7999.99")})
    assert item.state == "missing" and item.hint == "sem a cobertura mínima individual: passageiro"


def test_all_three_covered_passes(app, demo):
    assert _coverage_item(app, per_person_covers()).state == "ok"


def test_an_old_single_amount_policy_is_unknown_and_says_so(app, demo):
    item = _coverage_item(app, {"cover_temporary_disability": 2000, "cover_permanent_disability": 8000,
                                "cover_death": 15000, "cover_personal_accidents": True})
    assert item.state == "unknown" and item.blocking
    assert item.hint == ("apólice registrada com um só conjunto de valores — coberturas por pessoa a confirmar: "
                         "terceiros, motorista, passageiro")


def test_the_form_records_each_person_and_refuses_bad_input_naming_the_field(app, client, demo):
    with app.app_context():
        m = muni("sapezal")
        permit = Permit.query.filter_by(municipality_id=m.id, status="ativo").order_by(Permit.id).first()
        ident, vehicle_id = permit.id, permit.vehicle_id
    login(client, "backoffice.sapezal")
    url = f"/bo/veiculos/{vehicle_id}/seguros/novo?permissao={ident}"
    html = client.get(url).get_data(as_text=True)
    assert all(legend in html for legend in ("Cobertura de terceiros", "Cobertura do motorista",
                                              "Cobertura do passageiro"))
    form = {"csrf_token": csrf_token(client, url), "kind": "terceiros_app", "insurer": "Seguradora Teste",
            "policy_number": "AP-9090", "starts_on": TODAY.isoformat(),
            "ends_on": (TODAY + timedelta(days=365)).isoformat(), "copy_filed": "sim",
            **{k: ("sim" if v is True else str(v)) for k, v in per_person_covers().items()}}
    response = client.post(url, data={**form, "driver_death": "quinze mil", "passenger_personal_accidents": "talvez"})
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert 'id="f-driver_death-err"' in html and 'id="f-passenger_personal_accidents-err"' in html
    assert "Informe um valor em reais, por exemplo 15.000,00." in html and "Escolha sim ou não." in html
    assert 'id="f-third_parties_death-err"' not in html
    with app.app_context():
        assert InsurancePolicy.query.filter_by(policy_number="AP-9090").count() == 0
    response = client.post(url, data={**form, "passenger_death": "14.999,99", "driver_death": "15.000,00"})
    assert response.status_code == 302
    with app.app_context():
        row = InsurancePolicy.query.filter_by(policy_number="AP-9090").one()
        assert row.driver_death == 15000 and str(row.passenger_death) == "14999.99"
        assert row.third_parties_personal_accidents is True and row.cover_death is None
    html = client.get(f"/bo/permissoes/{ident}").get_data(as_text=True)
    assert "sem a cobertura mínima individual: passageiro" in html


@pytest.mark.db
def test_migration_leaves_old_policies_unknown_per_person_and_downgrades(fresh_db):  # noqa: F811
    """A policy recorded at 0025 with one set of amounts keeps it and gets no invented per-person cover."""
    with fresh_db.app_context():
        upgrade(directory=MIGRATIONS, revision="0025_tenancy_rls")
        with db.engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO municipality (id, slug, ibge_code, name, uf, regimes, settings, created_at) "
                "VALUES (1, 'sapezal', '5107875', 'Sapezal', 'MT', '[]', '{}', '2024-01-01 00:00:00')"))
            conn.execute(text(
                "INSERT INTO vehicle (id, municipality_id, plate, renavam, chassis, make, model, "
                "year_manufacture, engine_cc, plate_category, plate_colour, created_at, updated_at) VALUES "
                "(1, 1, 'ABC1D23', '12345678900', '9C2ABCDEFGH123456', 'Honda', 'CG 160', 2020, 162, "
                "'aluguel', 'vermelha', '2024-01-01 00:00:00', '2024-01-01 00:00:00')"))
            conn.execute(text(
                "INSERT INTO insurance_policy (id, municipality_id, vehicle_id, kind, insurer, policy_number, "
                "starts_on, ends_on, cover_temporary_disability, cover_permanent_disability, cover_death, "
                "cover_personal_accidents, copy_filed, created_at) VALUES (1, 1, 1, 'terceiros_app', 'S', "
                "'P-1', '2024-01-01', '2025-01-01', 2000, 8000, 15000, true, true, '2024-01-01 00:00:00')"))
        upgrade(directory=MIGRATIONS, revision="0026_insurance_per_person")
        with db.engine.connect() as conn:
            row = conn.execute(text("SELECT cover_death, third_parties_death, driver_death, passenger_death, "
                                    "driver_personal_accidents FROM insurance_policy WHERE id = 1")).one()
        assert float(row[0]) == 15000 and list(row[1:]) == [None, None, None, None]
        downgrade(directory=MIGRATIONS, revision="0025_tenancy_rls")
        with db.engine.connect() as conn:
            assert float(conn.execute(text("SELECT cover_death FROM insurance_policy")).scalar()) == 15000
            columns = list(conn.execute(text("SELECT * FROM insurance_policy")).keys())
        assert "driver_death" not in columns and "cover_death" in columns
