"""Issuing and renewing by the law (issue 11): every gate refuses naming its article and accepts
once met, per municipality; validity computed from each law (Sapezal's 31 March cycle, its
suspension and 30-day caducidade run by the daily job); crachás capped by the permit; vistorias;
insurance (ISSQN: test_issuance_issqn.py)."""
from datetime import date, timedelta
from decimal import Decimal

import pytest
from backoffice_data import (free_operator_and_vehicle, muni, per_person_covers, record_renewal_documents,
                             record_requirements, selected_candidate_id)
from helpers import csrf_token, login

from server.core.audit import AuditLog
from server.core.clock import local_today
from server.core.errors import ApiError
from server.extensions import db
from server.modules.issuance.models import InsurancePolicy, IssqnCharge, Vistoria
from server.modules.registry.models import Company, Operator, Permit, PermitStatusChange, Vehicle
from server.modules.permits.operations import change_permit_status, issue_permit

TODAY = local_today()


def _one_year(day):
    """The same date a year later (Lei 810/1949 art. 1º); from 29 February, 1 March (art. 3º)."""
    try:
        return day.replace(year=day.year + 1)
    except ValueError:  # 29 February
        return date(day.year + 1, 3, 1)


def _sapezal_until(day):
    """The last 31 March within one year of `day` (art. 11 "um ano" with art. 10 § 1º)."""
    return date(day.year, 3, 31) if day < date(day.year, 3, 31) else date(day.year + 1, 3, 31)


def _form(slug, op_id, vehicle_id, number="777/2026", **extra):
    data = {"number": number, "kind": "termo_permissao" if slug == "paranatinga" else "alvara",
            "vehicle_id": vehicle_id, "issued_on": TODAY, "valid_from": TODAY, "issqn_status": "em_dia",
            "taxpayer_number": "12.345-6", "driver_ids": []}
    if slug == "nortelandia":
        with db.session.no_autoflush:
            company = Company.query.filter_by(municipality_id=muni(slug).id).order_by(Company.id).first()
        data.update(holder_company_id=company.id, driver_ids=[op_id])
    else:
        data["holder_operator_id"] = op_id
    if slug == "paranatinga":  # the permit goes to a selected candidate (Lei 311/2007, arts. 21 e 33)
        data["candidate_id"] = selected_candidate_id(op_id)
    data.update(extra)
    return data


def _people(app, slug):
    op_id, vehicle_id = free_operator_and_vehicle(app, slug)
    if slug == "nortelandia":  # the driver works for the company holding the alvará (art. 10, V)
        with app.app_context():
            op = db.session.get(Operator, op_id)
            op.company_id = Company.query.filter_by(municipality_id=op.municipality_id).order_by(Company.id).first().id
            db.session.commit()
    return op_id, vehicle_id


def _refusal(app, slug, op_id, vehicle_id, **extra):
    with app.app_context():
        with pytest.raises(ApiError) as err:
            issue_permit(muni(slug), _form(slug, op_id, vehicle_id, **extra))
        db.session.rollback()
        assert err.value.status == 422 and err.value.code == "requirements_unmet"
        assert Permit.query.filter_by(number="777/2026").count() == 0
        return " | ".join(err.value.fields["requisitos"])


# (municipality, what is left unrecorded, fragments the refusal must name: requirement and article)
GATES = [
    ("sapezal", "insurance", ["Seguro contra terceiros", "Lei 125/1999, art. 4º", "desconhecido"]),
    ("sapezal", "vistoria", ["Vistoria da moto válida", "Lei 125/1999, art. 14"]),
    ("sapezal", "documents", ["certidão negativa", "Lei 125/1999, art. 6º, II",
                              "Aprovado no curso especializado", "Lei 12.009/2009, art. 2º, III"]),
    ("nortelandia", "insurance", ["Seguro de vida", "Lei 030/1998, art. 11, parágrafo único"]),
    ("nortelandia", "vistoria", ["Vistoria da moto válida", "Lei 030/1998, art. 2º, parágrafo único"]),
    ("nortelandia", "documents", ["Certidões negativas", "Lei 030/1998, art. 12, III"]),
    ("paranatinga", "insurance", ["Seguro em vigor", "Lei 311/2007, art. 28, II"]),
    ("paranatinga", "vistoria", ["Vistoria periódica válida", "Lei 311/2007, art. 9º"]),
    ("paranatinga", "documents", ["Taxa de licença paga", "Lei 311/2007, art. 28, I", "IPVA",
                                  "Laudo psicológico", "Lei 311/2007, art. 11, XIV"]),
]


@pytest.mark.parametrize("slug,missing,fragments", GATES, ids=[f"{g[0]}-{g[1]}" for g in GATES])
def test_each_gate_refuses_with_its_article_and_accepts_once_met(app, demo, slug, missing, fragments):
    op_id, vehicle_id = _people(app, slug)
    record_requirements(app, slug, op_id, vehicle_id, skip=(missing,))
    message = _refusal(app, slug, op_id, vehicle_id)
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    record_requirements(app, slug, op_id, vehicle_id, skip=tuple({"documents", "vistoria", "insurance"} - {missing}))
    with app.app_context():
        permit = issue_permit(muni(slug), _form(slug, op_id, vehicle_id))
        assert permit.status == "ativo"


def test_validity_is_the_law_s_for_each_municipality(app, demo):
    expected = {"sapezal": _sapezal_until(TODAY),  # Lei 125/1999, art. 10 § 1º and art. 11
                "nortelandia": _one_year(TODAY),  # Lei 030/1998, art. 6º
                "paranatinga": _one_year(_one_year(TODAY))}  # Lei 311/2007, art. 20
    for slug, until in expected.items():
        op_id, vehicle_id = _people(app, slug)
        record_requirements(app, slug, op_id, vehicle_id)
        with app.app_context():
            assert issue_permit(muni(slug), _form(slug, op_id, vehicle_id)).valid_until == until, slug


def test_another_validity_needs_a_reason_and_is_audited(app, demo):
    op_id, vehicle_id = _people(app, "sapezal")
    record_requirements(app, "sapezal", op_id, vehicle_id)
    five_years = TODAY + timedelta(days=5 * 365)
    with app.app_context():
        with pytest.raises(ApiError) as err:
            issue_permit(muni("sapezal"), _form("sapezal", op_id, vehicle_id, valid_until=five_years))
        db.session.rollback()
        assert "31/03/" in err.value.fields["validity_exception_reason"][0]
        permit = issue_permit(muni("sapezal"), _form("sapezal", op_id, vehicle_id, valid_until=five_years,
                                                     validity_exception_reason="Decisão do secretário no processo 12/2026"))
        entry = AuditLog.query.filter_by(action="validity_exception", entity_id=str(permit.id)).one()
        assert entry.reason == "Decisão do secretário no processo 12/2026"
        assert entry.before["valid_until"] == _sapezal_until(TODAY).isoformat()


def test_unknown_issqn_is_never_presumed_paid(app, demo):
    op_id, vehicle_id = _people(app, "sapezal")
    record_requirements(app, "sapezal", op_id, vehicle_id)
    with app.app_context():
        form = _form("sapezal", op_id, vehicle_id)
        del form["issqn_status"]  # the model's default: "sem_info"
        with pytest.raises(ApiError) as err:
            issue_permit(muni("sapezal"), form)
        db.session.rollback()
    assert any("Lei 125/1999, art. 6º, III" in m and "desconhecido" in m for m in err.value.fields["requisitos"])


def test_insurance_below_the_minimum_coverage_is_refused(app, demo):
    from server.modules.issuance.operations import save_policy
    op_id, vehicle_id = _people(app, "sapezal")
    record_requirements(app, "sapezal", op_id, vehicle_id, skip=("insurance",))
    with app.app_context():
        save_policy(muni("sapezal"), db.session.get(Vehicle, vehicle_id), {
            "kind": "terceiros_app", "insurer": "Seguradora", "policy_number": "P-1", "starts_on": TODAY,
            "ends_on": TODAY + timedelta(days=365), "copy_filed": False,
            **per_person_covers(), "driver_death": Decimal("10000")})
        db.session.commit()  # the test plays the request that would have committed it
    message = _refusal(app, "sapezal", op_id, vehicle_id)
    assert "coberturas mínimas" in message and "Lei 125/1999, art. 4º, §1º" in message
    assert "não atendido — sem a cobertura mínima individual: motorista" in message
    assert "Cópia autenticada da apólice" in message and "art. 4º, § 3º" in message


def test_a_vistoria_failing_an_item_cannot_be_approved_and_a_rejection_blocks(app, demo):
    from server.modules.issuance.operations import record_vistoria
    op_id, vehicle_id = _people(app, "sapezal")
    record_requirements(app, "sapezal", op_id, vehicle_id, skip=("vistoria",))
    with app.app_context():
        m, vehicle = muni("sapezal"), db.session.get(Vehicle, vehicle_id)
        base = {"kind": "inicial", "inspected_on": TODAY, "inspector_name": "Fiscal"}
        with pytest.raises(ApiError) as err:
            record_vistoria(m, vehicle, {**base, "result": "aprovada"}, {"equipment.mirrors_count": 1})
        db.session.rollback()
        assert "Dois retrovisores" in err.value.fields["result"][0] and "art. 12, II" in err.value.fields["result"][0]
        with pytest.raises(ApiError) as err:
            record_vistoria(m, vehicle, {**base, "result": "reprovada"})
        db.session.rollback()
        assert "items_to_fix" in err.value.fields
        record_vistoria(m, vehicle, {**base, "result": "reprovada", "items_to_fix": "Instalar o segundo retrovisor",
                                     "return_on": TODAY + timedelta(days=10)}, {"equipment.mirrors_count": 1})
        db.session.commit()  # the test plays the request that would have committed it
    assert "Vistoria da moto válida (Lei 125/1999, art. 14): não atendido" in _refusal(app, "sapezal", op_id, vehicle_id)


def _sapezal_permit_until(app, until, number="801/2025"):
    """A Sapezal alvará valid until `until`, issued with its requirements recorded a year before."""
    op_id, vehicle_id = _people(app, "sapezal")
    issued = until - timedelta(days=364)
    record_requirements(app, "sapezal", op_id, vehicle_id, on=issued)
    with app.app_context():
        permit = issue_permit(muni("sapezal"), _form("sapezal", op_id, vehicle_id, number=number, issued_on=issued,
                                                     valid_from=issued), today=issued)
        assert permit.valid_until == until
        db.session.commit()  # as the clerk's request
        return permit.id, op_id, vehicle_id


def test_sapezal_renewal_requested_after_march_keeps_the_cycle(app, demo):
    from server.modules.jobs.registry import run_daily
    year = TODAY.year - 1
    ident, op_id, vehicle_id = _sapezal_permit_until(app, date(year, 3, 31))
    with app.app_context():
        run_daily(date(year, 4, 1), only={"registry.expire"})
        permit = db.session.get(Permit, ident)
        # Art. 10 § 2º: not renewed by the end of March → suspended automatically, 30 days at most.
        assert permit.status == "suspenso" and permit.suspended_until == date(year, 4, 30)
    record_requirements(app, "sapezal", op_id, vehicle_id, on=date(year, 4, 9))
    record_renewal_documents(app, ident, on=date(year, 4, 9))  # art. 10, caput
    with app.app_context():
        permit = change_permit_status(db.session.get(Permit, ident), "renew", "Renovação fora do prazo",
                                      today=date(year, 4, 10))
        # Late renewal: until the next 31 March, not a year from the request.
        assert permit.status == "ativo" and permit.valid_until == date(year + 1, 3, 31)
        assert permit.suspended_until is None


def test_sapezal_caducidade_30_days_after_by_the_daily_job_twice(app, demo):
    from server.modules.jobs.registry import run_daily
    year = TODAY.year - 1
    ident, _, _ = _sapezal_permit_until(app, date(year, 3, 31))
    with app.app_context():
        run_daily(date(year, 4, 1))
        run_daily(date(year, 4, 30))  # the 30th day of the suspension: still within the term
        assert db.session.get(Permit, ident).status == "suspenso"
        for _ in range(2):
            results = dict((task.name, count) for task, count in run_daily(date(year, 5, 1)))
            assert db.session.get(Permit, ident).status == "caducado"
        assert results["registry.lapse"] == 0  # the second run changed nothing
        actions = [h.action for h in PermitStatusChange.query.filter_by(permit_id=ident).order_by(PermitStatusChange.id)]
        assert actions == ["issue", "expire_suspend", "lapse"]


def test_a_penalty_suspension_does_not_lapse_nor_renew(app, demo):
    from server.modules.permits.operations import lapse_unrenewed_permits
    year = TODAY.year - 1
    ident, _, _ = _sapezal_permit_until(app, date(year, 3, 31))
    with app.app_context():
        change_permit_status(db.session.get(Permit, ident), "suspend", "Penalidade aplicada em processo")
        assert lapse_unrenewed_permits(date(year, 6, 1)) == 0
        with pytest.raises(ApiError) as err:
            change_permit_status(db.session.get(Permit, ident), "renew", "Renovar durante a suspensão")
        assert err.value.status == 409


def test_cracha_never_outlives_the_permit(app, demo):
    from server.modules.credentials.operations import create_key, effective_status, issue_credential
    with app.app_context():
        m = muni("sapezal")
        create_key(m)
        db.session.commit()  # as `flask keys create`
        permit = Permit.query.filter_by(municipality_id=m.id, status="ativo").order_by(Permit.id).first()
        record_renewal_documents(app, permit.id)
        renewed = change_permit_status(permit, "renew", "Renovação anual")
        assert renewed.valid_until <= date(TODAY.year + 2, 3, 31)  # never years ahead
        credential = issue_credential(renewed, reason="renovação")
        assert credential.expires_on == renewed.valid_until
        change_permit_status(renewed, "suspend", "Penalidade")
        assert effective_status(credential) == "suspenso"


def test_insurance_expiring_alert_and_renewal_clears_it(app, demo):
    from server.modules.backoffice.permit_views import permit_list_query
    from server.modules.issuance.operations import save_policy
    with app.app_context():
        m = muni("sapezal")
        permit = Permit.query.filter_by(municipality_id=m.id, status="ativo").order_by(Permit.id).first()
        ident, vehicle = permit.id, permit.vehicle
        InsurancePolicy.query.filter_by(vehicle_id=vehicle.id).delete()
        db.session.commit()
        policy = {"kind": "terceiros_app", "insurer": "S", "policy_number": "P-10", "cover_death": 20000,
                  "cover_temporary_disability": 2000, "cover_permanent_disability": 8000,
                  "cover_personal_accidents": True, "copy_filed": True}
        assert ident in [p.id for p in permit_list_query(m.id, alert="seguro")]
        save_policy(m, vehicle, {**policy, "starts_on": TODAY - timedelta(days=355), "ends_on": TODAY + timedelta(days=10)})
        assert ident in [p.id for p in permit_list_query(m.id, alert="seguro15")]
        assert ident not in [p.id for p in permit_list_query(m.id, alert="seguro")]
        save_policy(m, vehicle, {**policy, "policy_number": "P-11", "starts_on": TODAY + timedelta(days=10),
                                 "ends_on": TODAY + timedelta(days=375)})
        assert ident not in [p.id for p in permit_list_query(m.id, alert="seguro15")]


def test_permit_page_vistoria_form_and_issqn_page(app, client, demo):
    with app.app_context():
        m = muni("sapezal")
        permit = Permit.query.filter_by(municipality_id=m.id, status="ativo").order_by(Permit.id).first()
        ident, vehicle_id = permit.id, permit.vehicle_id
        foreign_vehicle = Vehicle.query.filter_by(municipality_id=muni("paranatinga").id).first().id
    login(client, "backoffice.sapezal")
    html = client.get(f"/bo/permissoes/{ident}").get_data(as_text=True)
    assert "Requisitos para emitir/renovar" in html and "Lei 125/1999, art. 14" in html and "✓" in html
    form_url = f"/bo/veiculos/{vehicle_id}/vistorias/nova?permissao={ident}"
    html = client.get(form_url).get_data(as_text=True)
    assert "Dois retrovisores" in html or "retrovisores" in html  # the packs' vehicle checklist
    assert client.get(f"/bo/veiculos/{foreign_vehicle}/vistorias/nova").status_code == 404
    token = csrf_token(client, form_url)
    response = client.post(form_url, data={"csrf_token": token, "kind": "periodica", "inspected_on": TODAY.isoformat(),
                                           "inspector_name": "Fiscal Teste", "result": "reprovada",
                                           "item:equipment.mirrors_count": "1"})
    assert response.status_code == 422 and "itens a corrigir" in response.get_data(as_text=True)
    response = client.post(form_url, data={"csrf_token": token, "kind": "periodica", "inspected_on": TODAY.isoformat(),
                                           "inspector_name": "Fiscal Teste", "result": "aprovada",
                                           "item:equipment.mirrors_count": "2"})
    assert response.status_code == 302
    with app.app_context():
        row = Vistoria.query.filter_by(vehicle_id=vehicle_id, inspector_name="Fiscal Teste").one()
        assert row.items == {"equipment.mirrors_count": 2} and row.permit_id == ident
    assert client.get("/bo/issqn/").status_code == 404  # Sapezal's law charges no monthly ISSQN
    login(client, "backoffice.nortelandia")
    html = client.get("/bo/issqn/").get_data(as_text=True)
    assert "Lei 030/1998, art. 14" in html
    with app.app_context():
        charge = IssqnCharge.query.filter(IssqnCharge.paid_on.is_(None)).first()
        charge_id = charge.id if charge else None
    if charge_id is not None:  # the current month's charge, not yet due, is open
        token = csrf_token(client, "/bo/issqn/")
        response = client.post(f"/bo/issqn/{charge_id}/pagamento", data={"csrf_token": token,
                                                                         "paid_on": "2999-01-01"})
        assert response.status_code == 422
        response = client.post(f"/bo/issqn/{charge_id}/pagamento", data={"csrf_token": token,
                                                                         "paid_on": TODAY.isoformat()})
        assert response.status_code == 302


def test_migration_moves_insurance_and_vistoria_into_records(tmp_path):
    from flask_migrate import upgrade
    from sqlalchemy import text

    from test_migrations import MIGRATIONS, PG_URL
    if PG_URL:
        pytest.skip("covered on SQLite; the PostgreSQL schema juggling lives in test_migrations")
    from server import create_app
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'm.db'}", "SECRET_KEY": "x"})
    app.instance_path = str(tmp_path)
    with app.app_context():
        upgrade(directory=MIGRATIONS, revision="0007_auto_case")
        with db.engine.begin() as conn:
            conn.execute(text("INSERT INTO municipality (id, slug, ibge_code, name, uf, regimes, settings, created_at) "
                              "VALUES (1, 'sapezal', '5107875', 'Sapezal', 'MT', '[]', '{}', '2024-01-01 00:00:00')"))
            conn.execute(text(
                "INSERT INTO vehicle (id, municipality_id, plate, renavam, chassis, make, model, year_manufacture, "
                "engine_cc, plate_category, plate_colour, created_at, updated_at) VALUES (1, 1, 'ABC1D23', "
                "'12345678900', '9C2ABCDEFGH123456', 'Honda', 'CG 160', 2020, 162, 'aluguel', 'vermelha', "
                "'2024-01-01 00:00:00', '2024-01-01 00:00:00')"))
            conn.execute(text(
                "INSERT INTO permit (id, municipality_id, number, kind, vehicle_id, issued_on, valid_from, valid_until, "
                "status, status_changed_at, issqn_status, insurance_policy, insurance_expiry, last_vistoria_date, "
                "created_at, updated_at) VALUES (1, 1, '001/2024', 'alvara', 1, '2024-01-01', '2024-01-01', "
                "'2025-03-31', 'ativo', '2024-01-01 00:00:00', 'atrasado', 'APS-1', '2025-01-01', '2024-02-02', "
                "'2024-01-01 00:00:00', '2024-01-01 00:00:00')"))
        upgrade(directory=MIGRATIONS)
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT issqn_status FROM permit")).scalar() == "atrasado"
            assert conn.execute(text("SELECT inspected_on, result, permit_id FROM vistoria")).one() == \
                ("2024-02-02", "aprovada", 1)
            assert conn.execute(text("SELECT policy_number, ends_on FROM insurance_policy")).one() == \
                ("APS-1", "2025-01-01")


def test_field_data_carries_vistoria_and_insurance_dates_and_a_new_vistoria_resends_the_vehicle(app, demo):
    from server.modules.fieldsync.field_data import vehicle_rows
    from server.modules.registry.change_models import FieldDataEntity
    from server.modules.issuance.operations import record_vistoria
    with app.app_context():
        m = muni("sapezal")
        permit = Permit.query.filter_by(municipality_id=m.id, status="ativo").order_by(Permit.id).first()
        vehicle = permit.vehicle
        before = FieldDataEntity.query.filter_by(municipality_id=m.id, kind="vehicle", entity_id=vehicle.id).first()
        version = before.version if before else 0
        record_vistoria(m, vehicle, {"kind": "periodica", "inspected_on": TODAY, "result": "reprovada",
                                     "items_to_fix": "Farol queimado", "return_on": TODAY + timedelta(days=7),
                                     "inspector_name": "Fiscal"})
        db.session.commit()  # the test plays the request; the version is read back as committed
        row = vehicle_rows(m.id, [vehicle.id])[0]
        # A rejected vistoria leaves the vehicle without a valid one from its day on.
        assert row["vistoria_until"] == (TODAY - timedelta(days=1)).isoformat()
        assert row["insurance_until"] == max(p.ends_on for p in InsurancePolicy.query.filter_by(
            vehicle_id=vehicle.id)).isoformat()
        after = FieldDataEntity.query.filter_by(municipality_id=m.id, kind="vehicle", entity_id=vehicle.id).one()
        assert after.version > version


def test_operator_phone_gets_alerts_before_insurance_lapses(app, client, demo):
    from server.modules.issuance.operations import save_policy
    from server.modules.operator_portal.operations import create_operator_access
    with app.app_context():
        m = muni("sapezal")
        permit = Permit.query.filter_by(municipality_id=m.id, status="ativo").order_by(Permit.id).first()
        InsurancePolicy.query.filter_by(vehicle_id=permit.vehicle_id).delete()
        save_policy(m, permit.vehicle, {"kind": "terceiros_app", "insurer": "S", "policy_number": "P-20",
                                        "starts_on": TODAY - timedelta(days=300), "ends_on": TODAY + timedelta(days=4),
                                        "copy_filed": True})
        code = create_operator_access(permit.main_driver)
        db.session.commit()
    token = client.post("/api/v1/operator/activate", json={"municipality": "sapezal", "code": code}).json["token"]
    body = client.get("/api/v1/operator/me", headers={"Authorization": f"Bearer {token}"}).json
    insurance = [a for a in body["alerts"] if a["code"] == "insurance_expiring"]
    assert insurance and insurance[0]["due_on"] == (TODAY + timedelta(days=4)).isoformat()
    assert (TODAY + timedelta(days=4)).strftime("%d/%m/%Y") in insurance[0]["message"]


def test_refused_issue_form_lists_the_requirements_with_links_to_record_them(app, client, demo):
    op_id, vehicle_id = _people(app, "sapezal")
    login(client, "backoffice.sapezal")
    token = csrf_token(client, "/bo/permissoes/nova")
    response = client.post("/bo/permissoes/nova", data={
        "csrf_token": token, "number": "778/2026", "kind": "alvara", "holder_operator_id": str(op_id),
        "vehicle_id": str(vehicle_id), "issued_on": TODAY.isoformat(), "valid_from": TODAY.isoformat(),
        "issqn_status": "em_dia", "taxpayer_number": "1-2"})
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "Vistoria da moto válida (Lei 125/1999, art. 14): desconhecido" in html
    assert f"/bo/veiculos/{vehicle_id}/vistorias/nova" in html and f"/bo/documentos/operator/{op_id}" in html
