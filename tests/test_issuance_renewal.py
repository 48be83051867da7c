"""Renewal instructed by each law (issue 11): Sapezal art. 10 caput (the certidões of the first
inscription, the certificate of ownership, the municipal CND) presented for THIS renewal and
within their own validity; Paranatinga arts. 13 § 1º, 22 and 23; Nortelândia silent. And the
"moto substituída sem vistoria" filter of the permit list and the dashboard."""
import re
from datetime import date, timedelta

import pytest
from backoffice_data import free_operator_and_vehicle, muni, record_renewal_documents, record_requirements
from helpers import csrf_token, login

from server.core.audit import AuditLog
from server.core.clock import local_today
from server.core.errors import ApiError
from server.extensions import db
from server.modules.issuance.operations import record_renewal_documents as record_docs, record_vistoria
from server.modules.issuance.renewal import documents_for
from server.modules.issuance.requirements import checklist
from server.modules.registry.models import Permit, Vehicle
from server.modules.permits.operations import change_permit_status, issue_permit

TODAY = local_today()
SAPEZAL_DOCS = ["operator.criminal_certificate_ok", "operator.electoral_ok", "vehicle.ownership_certificate_copy",
                "operator.municipal_debt_certificate"]


def _sapezal_permit(app, issued):
    """A Sapezal alvará issued on `issued` with every requirement of the first alvará recorded."""
    op_id, vehicle_id = free_operator_and_vehicle(app, "sapezal")
    record_requirements(app, "sapezal", op_id, vehicle_id, on=issued)
    with app.app_context():
        permit = issue_permit(muni("sapezal"), {
            "number": "880/2026", "kind": "alvara", "holder_operator_id": op_id, "vehicle_id": vehicle_id,
            "issued_on": issued, "valid_from": issued, "issqn_status": "em_dia", "taxpayer_number": "12.345-6",
            "driver_ids": []}, today=issued)
        db.session.commit()  # as the clerk's request
        return permit.id


def _renewal_refusal(app, ident):
    with app.app_context():
        with pytest.raises(ApiError) as err:
            change_permit_status(db.session.get(Permit, ident), "renew", "Renovação anual")
        assert err.value.status == 422
        return err.value.fields["requisitos"]


def _states(app, ident):
    with app.app_context():
        permit = db.session.get(Permit, ident)
        return {i.key: i for i in checklist(muni("sapezal"), permit) if i.key.startswith("renewal.")}


def _answers(valid_until, **over):
    answers = {fact: {"value": True, "valid_until": valid_until} for fact in SAPEZAL_DOCS}
    answers.update(over)
    return answers


def test_sapezal_renewal_needs_the_documents_of_art_10_presented_for_this_renewal(app, demo):
    issued = TODAY - timedelta(days=100)
    ident = _sapezal_permit(app, issued)
    # The certidões checked for the first alvará satisfy the pack's requirement of art. 6º…
    with app.app_context():
        items = {i.key: i for i in checklist(muni("sapezal"), db.session.get(Permit, ident))}
    assert items["sap.req.processo_criminal"].state == "ok"
    # …but they instructed the issue: the renewal wants them again, with the CRV copy and the CND.
    refusal = _renewal_refusal(app, ident)
    for label in ("Certidão negativa criminal", "Certidão de quitação eleitoral",
                  "Cópia autenticada do certificado original de propriedade do veículo",
                  "Certidão Negativa de Débitos com a Fazenda Pública Municipal"):
        line = next(r for r in refusal if r.startswith(label))
        assert "Lei 125/1999, art. 10, caput" in line and "não atendido" in line
        assert f"o que foi conferido até {issued:%d/%m/%Y} instruiu a emissão" in line
    with app.app_context():
        permit, m = db.session.get(Permit, ident), muni("sapezal")
        # A check dated on or before the act that gave the current validity cannot instruct this renewal.
        with pytest.raises(ApiError) as err:
            record_docs(m, permit, issued, _answers(TODAY + timedelta(days=30)))
        assert "posterior a" in err.value.fields["checked_on"][0]
        # A certidão already expired when it was presented is refused, naming the document.
        with pytest.raises(ApiError) as err:
            record_docs(m, permit, TODAY, _answers(TODAY - timedelta(days=1)))
        assert "já estava vencida" in err.value.fields["doc:operator.criminal_certificate_ok"][0]
        # Its validity not recorded: unknown, which refuses like a missing document (never "em dia").
        record_docs(m, permit, TODAY - timedelta(days=10), _answers(None))
        db.session.commit()  # the test plays the request that would have committed it
    states = _states(app, ident)
    assert states["renewal.operator.criminal_certificate_ok"].state == "unknown"
    assert states["renewal.vehicle.ownership_certificate_copy"].state == "ok"  # not a certidão: no validity
    assert any("Certidão negativa criminal" in r and "desconhecido" in r for r in _renewal_refusal(app, ident))
    with app.app_context():
        permit, m = db.session.get(Permit, ident), muni("sapezal")
        # The validity printed on the certidão counts: one that ended before the renewal day is expired.
        record_docs(m, permit, TODAY - timedelta(days=9), _answers(TODAY - timedelta(days=2)))
        db.session.commit()
    states = _states(app, ident)
    assert states["renewal.operator.criminal_certificate_ok"].state == "missing"
    assert "vencida em" in states["renewal.operator.criminal_certificate_ok"].hint
    with app.app_context():
        permit, m = db.session.get(Permit, ident), muni("sapezal")
        record_docs(m, permit, TODAY, _answers(TODAY + timedelta(days=30), **{
            "operator.electoral_ok": {"value": True, "no_printed_validity": True}}))
        assert AuditLog.query.filter_by(action="create", entity="document_check",
                                        reason="Documento da renovação da permissão 880/2026").count() == 4 * 3
        db.session.commit()
    states = _states(app, ident)
    assert {k: i.state for k, i in states.items()} == {f"renewal.{f}": "ok" for f in SAPEZAL_DOCS}
    assert "sem prazo de validade impresso" in states["renewal.operator.electoral_ok"].label
    with app.app_context():
        renewed = change_permit_status(db.session.get(Permit, ident), "renew", "Renovação anual")
        assert renewed.status == "ativo"
        db.session.commit()  # as the clerk's request
    # The next renewal needs its own documents: these instructed this one.
    assert {i.state for i in _states(app, ident).values()} == {"missing"}


def test_renewal_documents_form_records_each_certidao_with_its_validity(app, client, demo):
    ident = _sapezal_permit(app, TODAY - timedelta(days=40))
    login(client, "backoffice.sapezal")
    page = client.get(f"/bo/permissoes/{ident}").get_data(as_text=True)
    assert f"/bo/permissoes/{ident}/renovacao/documentos" in page
    path = f"/bo/permissoes/{ident}/renovacao/documentos"
    form = client.get(path).get_data(as_text=True)
    assert "Lei 125/1999, art. 10, caput, c/c art. 6º, II" in form and "Não tem prazo impresso" in form
    base = {"csrf_token": csrf_token(client, path), "checked_on": TODAY.isoformat()}
    # Both a printed date and "no printed validity": refused next to the document, nothing recorded.
    bad = client.post(path, data={**base, "doc:operator.criminal_certificate_ok": "sim",
                                  "valid:operator.criminal_certificate_ok": (TODAY + timedelta(days=9)).isoformat(),
                                  "noval:operator.criminal_certificate_ok": "1"})
    assert bad.status_code == 422
    assert "não os dois" in bad.get_data(as_text=True)
    good = client.post(path, data={
        **base, "doc:operator.criminal_certificate_ok": "sim",
        "valid:operator.criminal_certificate_ok": (TODAY + timedelta(days=9)).isoformat(),
        "doc:operator.electoral_ok": "sim", "noval:operator.electoral_ok": "1",
        "doc:vehicle.ownership_certificate_copy": "sim", "doc:operator.municipal_debt_certificate": "nao"})
    assert good.status_code == 302
    states = _states(app, ident)
    assert states["renewal.operator.criminal_certificate_ok"].state == "ok"
    assert f"válida até {TODAY + timedelta(days=9):%d/%m/%Y}" in states["renewal.operator.criminal_certificate_ok"].label
    assert states["renewal.operator.electoral_ok"].state == "ok"
    assert states["renewal.operator.municipal_debt_certificate"].state == "missing"  # presented, does not meet


def test_paranatinga_termo_is_extended_only_with_the_gestor_s_approval(app, demo):
    with app.app_context():
        m = muni("paranatinga")
        # The demo's permit closest to lapsing has presented nothing for its renewal yet.
        permit = (Permit.query.filter_by(municipality_id=m.id, status="ativo")
                  .order_by(Permit.valid_until, Permit.id).first())
        assert permit.kind == "termo_permissao"
        assert [d.fact for d in documents_for(m, permit)] == ["permit.extension_approved"]
        ident = permit.id
        alvara = Permit(municipality_id=m.id, kind="alvara")
        assert {d.fact: d.basis for d in documents_for(m, alvara)} == {
            "permit.renewal_fee_paid": "Lei 311/2007, art. 13, § 1º",
            "operator.municipal_debt_certificate": "Lei 311/2007, art. 13, § 1º"}
    refusal = _renewal_refusal(app, ident)
    assert any("Aprovação expressa do órgão gestor" in r and "Lei 311/2007, arts. 22 e 23" in r for r in refusal)
    record_renewal_documents(app, ident)
    with app.app_context():
        renewed = change_permit_status(db.session.get(Permit, ident), "renew", "Prorrogação aprovada pela SINFRA")
        assert renewed.status == "ativo"


def test_nortelandia_law_asks_no_renewal_documents(app, demo):
    with app.app_context():
        m = muni("nortelandia")
        permit = Permit.query.filter_by(municipality_id=m.id, status="ativo").order_by(Permit.id).first()
        assert documents_for(m, permit) == []
        assert not [i for i in checklist(m, permit) if i.key.startswith("renewal.")]


def _substitute(client, permit_id, new_id, replaced_on):
    path = f"/bo/permissoes/{permit_id}"
    return client.post(f"{path}/substituir-veiculo", data={
        "csrf_token": csrf_token(client, path), "new_vehicle_id": new_id, "replaced_on": replaced_on.isoformat(),
        "reason": "Troca de moto"})


def test_substituted_without_vistoria_filter_and_dashboard(app, client, demo):
    with app.app_context():
        m = muni("sapezal")
        permit = Permit.query.filter_by(municipality_id=m.id, status="ativo").order_by(Permit.id).first()
        permit_id, number = permit.id, permit.number
        new = Vehicle(municipality_id=m.id, plate="QSB2C34", renavam="00000000191", chassis="9BWZZZ377VT004251",
                      make="Honda", model="CG 160", year_manufacture=TODAY.year, engine_cc=160)
        db.session.add(new)
        db.session.commit()
        new_id = new.id
        # A vistoria of the substitute from before the change does not count (art. 15: after it).
        record_vistoria(m, new, {"kind": "inicial", "inspected_on": TODAY - timedelta(days=20), "result": "aprovada",
                                 "inspector_name": "Fiscal de teste"})
        db.session.commit()
    login(client, "backoffice.sapezal")
    listing = client.get("/bo/permissoes/?alerta=substituicao").get_data(as_text=True)
    assert number not in listing and 'value="substituicao"' in listing
    assert _substitute(client, permit_id, new_id, TODAY - timedelta(days=3)).status_code == 302
    listing = client.get("/bo/permissoes/?alerta=substituicao").get_data(as_text=True)
    assert f">{number}</a>" in listing and "Alerta: Moto substituída sem vistoria" in listing
    rows = re.findall(r'<tr>\s*<td data-label="Número">', listing)
    assert len(rows) == 1
    dashboard = client.get("/bo/").get_data(as_text=True)
    assert re.search(r'alerta=substituicao[^"]*"><span class="n">1</span><span>Moto substituída sem vistoria', dashboard)
    assert "Vistoria pendente" in client.get(f"/bo/permissoes/{permit_id}").get_data(as_text=True)
    with app.app_context():
        record_vistoria(muni("sapezal"), db.session.get(Vehicle, new_id), {
            "kind": "substituicao", "inspected_on": TODAY, "result": "aprovada", "inspector_name": "Fiscal de teste"})
        db.session.commit()
    listing = client.get("/bo/permissoes/?alerta=substituicao").get_data(as_text=True)
    assert f">{number}</a>" not in listing
    dashboard = client.get("/bo/").get_data(as_text=True)
    assert re.search(r'alerta=substituicao[^"]*"><span class="n">0</span>', dashboard)


def test_renewal_documents_screen_is_scoped(app, client, demo):
    with app.app_context():
        other = Permit.query.filter_by(municipality_id=muni("paranatinga").id).first().id
    login(client, "backoffice.sapezal")
    assert client.get(f"/bo/permissoes/{other}/renovacao/documentos").status_code == 404
    assert client.post(f"/bo/permissoes/{other}/renovacao/documentos", data={
        "csrf_token": csrf_token(client, "/bo/permissoes/"), "checked_on": TODAY.isoformat()}).status_code == 404


def test_cycle_start_uses_the_last_renewal(app, demo):
    """After a renewal the documents checked before it no longer count (date(…) on the history).
    A permit never renewed starts its cycle on its issue date (a fresh one: in the first 30 days of a
    Sapezal cycle the demo's permits in force are renewed ones)."""
    from server.modules.issuance.renewal import cycle_start
    fresh = _sapezal_permit(app, TODAY - timedelta(days=30))
    with app.app_context():
        fresh = db.session.get(Permit, fresh)
        assert cycle_start(fresh) == (fresh.issued_on, "issue")
        m = muni("sapezal")
        permit = Permit.query.filter_by(municipality_id=m.id, status="ativo").order_by(Permit.id).first()
        record_renewal_documents(app, permit.id)
        permit = db.session.get(Permit, permit.id)
        change_permit_status(permit, "renew", "Renovação anual")
        db.session.commit()  # as the clerk's request
        assert cycle_start(db.session.get(Permit, permit.id)) == (TODAY, "renew")
        assert isinstance(cycle_start(permit)[0], date)


def test_phone_alert_before_lapse_lists_the_documents_still_to_bring(app, demo):
    from server.modules.issuance.alerts import permit_alerts
    issued = TODAY - timedelta(days=100)
    ident = _sapezal_permit(app, issued)
    with app.app_context():
        permit = db.session.get(Permit, ident)
        day = permit.valid_until - timedelta(days=10)  # inside the 30 days before 31 March
        message = next(a["message"] for a in permit_alerts(permit, day) if a["code"] == "permit_validity")
        assert "Para renovar, apresente: Certidão negativa criminal; Certidão de quitação eleitoral;" in message
        assert "(Lei 125/1999, art. 10, caput)" in message
        # Checked on the alert's day when that is past: from 1 April to early July the permit issued
        # 100 days ago ended on the last 31 March, and a certidão valid to it was refused "today".
        record_docs(muni("sapezal"), permit, min(day, TODAY), _answers(permit.valid_until))
        message = next(a["message"] for a in permit_alerts(permit, day) if a["code"] == "permit_validity")
        assert "Para renovar" not in message  # everything presented, each certidão valid on that day


def test_sapezal_may_ask_every_document_of_the_first_alvara_art_10_par_4(app, client, demo):
    ident = _sapezal_permit(app, TODAY - timedelta(days=30))
    with app.app_context():
        assert "operator.resident_in_municipality" not in {d.fact for d in documents_for(muni("sapezal"),
                                                                                         db.session.get(Permit, ident))}
    login(client, "backoffice.sapezal")
    path = f"/bo/permissoes/{ident}/renovacao/documentos"
    assert "Lei 125/1999, art. 10, § 4º" in client.get(path).get_data(as_text=True)
    token = csrf_token(client, path)
    # The act that decides it is required.
    client.post(f"/bo/permissoes/{ident}/renovacao/exigencia", data={"csrf_token": token, "required": "1"})
    with app.app_context():
        assert not muni("sapezal").setting("renewal_requires_first_documents")
    done = client.post(f"/bo/permissoes/{ident}/renovacao/exigencia",
                       data={"csrf_token": token, "required": "1", "source": "Decreto 15/2026"})
    assert done.status_code == 302
    with app.app_context():
        m = muni("sapezal")
        docs = {d.fact: d.basis for d in documents_for(m, db.session.get(Permit, ident))}
        assert docs["operator.resident_in_municipality"] == "Lei 125/1999, art. 10, § 4º"
        assert docs["operator.criminal_certificate_ok"].startswith("Lei 125/1999, art. 10, caput")
        entry = AuditLog.query.filter_by(action="configure_renewal_documents").one()
        assert entry.after == {"renewal_requires_first_documents": True, "renewal_documents_source": "Decreto 15/2026"}
    assert any("Reside em Sapezal" not in r and "Comprovante de residência" in r and "art. 10, § 4º" in r
               for r in _renewal_refusal(app, ident))
    with app.app_context():
        from server.modules.issuance.operations import set_renewal_first_documents
        with pytest.raises(ApiError) as err:
            set_renewal_first_documents(muni("paranatinga"), True, "Decreto 1/2026")
        assert err.value.status == 409


def test_a_renewal_to_another_date_needs_a_reason_and_is_audited(app, demo):
    with app.app_context():
        m = muni("sapezal")
        permit = Permit.query.filter_by(municipality_id=m.id, status="ativo").order_by(Permit.id).first()
        ident, law = permit.id, date(permit.valid_until.year + 1, 3, 31)
    record_renewal_documents(app, ident)
    other = law - timedelta(days=31)
    with app.app_context():
        with pytest.raises(ApiError) as err:
            change_permit_status(db.session.get(Permit, ident), "renew", "Renovação", valid_until=other)
        assert f"A validade pela lei é {law:%d/%m/%Y}" in err.value.fields["validity_exception_reason"][0]
        renewed = change_permit_status(db.session.get(Permit, ident), "renew", "Renovação", valid_until=other,
                                       exception_reason="Decisão do secretário, processo 44/2026")
        assert renewed.valid_until == other
        entry = AuditLog.query.filter_by(action="validity_exception", entity_id=str(ident)).one()
        assert entry.before == {"valid_until": law.isoformat()} and entry.reason.startswith("Decisão do secretário")
