"""Issue 11 follow-ups that link the records of the administrative life: a Paranatinga permit goes
to a selected (or called) candidate of an edital (Lei 311/2007, arts. 21, 33 e 34) and marks them;
a vehicle substitution's pending vistoria (Sapezal Lei 125/1999, art. 15) is satisfied by an
approved Vistoria record of the new vehicle."""
from datetime import timedelta

import pytest
from backoffice_data import free_operator_and_vehicle, muni, record_requirements, selected_candidate_id
from helpers import csrf_token, login

from server.core.audit import AuditLog
from server.core.clock import local_today
from server.core.errors import ApiError
from server.extensions import db
from server.modules.registry.models import Permit
from server.modules.permits.operations import issue_permit
from server.modules.selection.models import Candidate

TODAY = local_today()


def _form(op_id, vehicle_id, number="801/2026", **extra):
    return {"number": number, "kind": "termo_permissao", "holder_operator_id": op_id, "vehicle_id": vehicle_id,
            "issued_on": TODAY, "valid_from": TODAY, "issqn_status": "em_dia", "driver_ids": [], **extra}


def _ready(app, n=1):
    op_id, vehicle_id = free_operator_and_vehicle(app, "paranatinga", n)
    record_requirements(app, "paranatinga", op_id, vehicle_id)
    return op_id, vehicle_id


def _refused_field(data):
    m = muni("paranatinga")
    with pytest.raises(ApiError) as err:
        issue_permit(m, data)
    db.session.rollback()
    assert Permit.query.filter_by(number=data["number"]).count() == 0
    return err.value.fields


def test_paranatinga_permit_without_a_selected_candidate_is_refused_citing_art_21(app, demo):
    op_id, vehicle_id = _ready(app)
    with app.app_context():
        fields = _refused_field(_form(op_id, vehicle_id))
        assert "arts. 21, 33 e 34" in fields["candidate_id"][0]
        # A suplente not (yet) called does not receive a permit (art. 34: only to fill a vacancy).
        suplente = selected_candidate_id(op_id, status="suplente")
        fields = _refused_field(_form(op_id, vehicle_id, candidate_id=suplente))
        assert "Suplente" in fields["candidate_id"][0] and "convocado" in fields["candidate_id"][0]
        # The holder must be the candidate: the permit is personal (art. 30).
        other_op, _ = free_operator_and_vehicle(app, "paranatinga", 7)
        fields = _refused_field(_form(op_id, vehicle_id, candidate_id=selected_candidate_id(other_op)))
        assert "mesmo CPF" in fields["holder_operator_id"][0]


@pytest.mark.parametrize("status", ["selecionado", "convocado"])
def test_selected_or_called_candidate_receives_the_permit_and_is_marked(app, demo, status):
    op_id, vehicle_id = _ready(app)
    with app.app_context():
        cand_id = selected_candidate_id(op_id, status=status)
        permit = issue_permit(muni("paranatinga"), _form(op_id, vehicle_id, candidate_id=cand_id))
        cand = db.session.get(Candidate, cand_id)
        assert cand.status == "permissionario" and cand.permit_id == permit.id
        assert permit.holder_operator.cpf == cand.cpf
        entry = AuditLog.query.filter_by(action="grant_permit", entity="candidate", entity_id=str(cand_id)).one()
        assert entry.after["permit_id"] == permit.id and entry.before["status"] == status
        # Once served, the same candidate cannot receive a second permit.
        fields = _refused_field(_form(op_id, vehicle_id, number="802/2026", candidate_id=cand_id))
        assert "Permissão emitida" in fields["candidate_id"][0]


def test_municipalities_without_selection_refuse_a_candidate(app, demo):
    with app.app_context():
        from server.modules.selection.operations import candidate_for_permit
        with pytest.raises(ApiError) as err:
            candidate_for_permit(muni("sapezal"), 1, None)
        assert "não prevê seleção" in err.value.fields["candidate_id"][0]
        assert candidate_for_permit(muni("sapezal"), None, None) is None


def test_permit_form_lists_receivable_candidates_and_issues_to_one(app, client, demo):
    op_id, vehicle_id = _ready(app)
    with app.app_context():
        cand_id = selected_candidate_id(op_id)
    login(client, "backoffice.paranatinga")
    html = client.get("/bo/permissoes/nova").get_data(as_text=True)
    assert 'name="candidate_id"' in html and f'value="{cand_id}"' in html
    form = {"csrf_token": csrf_token(client), "number": "803/2026", "kind": "termo_permissao",
            "holder_operator_id": str(op_id), "vehicle_id": str(vehicle_id), "candidate_id": str(cand_id),
            "issued_on": TODAY.isoformat(), "valid_from": TODAY.isoformat(), "issqn_status": "em_dia"}
    response = client.post("/bo/permissoes/nova", data=form)
    assert response.status_code == 302
    with app.app_context():
        assert db.session.get(Candidate, cand_id).permit.number == "803/2026"


def test_substitution_vistoria_is_satisfied_by_an_approved_vistoria_of_the_new_vehicle(app, demo):
    from server.modules.issuance.alerts import permit_alerts
    from server.modules.issuance.operations import record_vistoria
    from server.modules.issuance.requirements import checklist
    from server.modules.permits.changes_of_life import substitute_vehicle
    from server.modules.registry.life_models import VehicleSubstitution
    from server.modules.registry.models import Vehicle

    _, new_vehicle_id = free_operator_and_vehicle(app, "sapezal", 3)
    with app.app_context():
        m = muni("sapezal")
        permit = (Permit.query.filter_by(municipality_id=m.id, status="ativo")
                  .filter(Permit.holder_operator_id.isnot(None)).order_by(Permit.id).first())
        sub = substitute_vehicle(permit, m, new_vehicle_id, TODAY - timedelta(days=2), "Requerimento 7/2026")
        new_vehicle = db.session.get(Vehicle, new_vehicle_id)
        pending = [i for i in checklist(m, permit) if i.key == f"substitution.{sub.id}.vistoria"]
        assert [(i.state, i.citation) for i in pending] == [("missing", "Lei 125/1999, art. 15")]
        assert "substitution_vistoria_pending" in [a["code"] for a in permit_alerts(permit, TODAY)]
        # A rejected vistoria, or one of another vehicle, leaves it pending.
        record_vistoria(m, new_vehicle, {"kind": "inicial", "inspected_on": TODAY, "result": "reprovada",
                                         "items_to_fix": "Retrovisor", "return_on": TODAY + timedelta(days=5),
                                         "inspector_name": "Fiscal"})
        assert db.session.get(VehicleSubstitution, sub.id).vistoria_done_on is None
        approved = record_vistoria(m, new_vehicle, {"kind": "inicial", "inspected_on": TODAY, "result": "aprovada",
                                                    "inspector_name": "Fiscal"})
        sub = db.session.get(VehicleSubstitution, sub.id)
        assert sub.vistoria_id == approved.id and sub.vistoria_done_on == TODAY
        assert AuditLog.query.filter_by(action="substitution_vistoria", entity="vehicle_substitution",
                                        entity_id=str(sub.id)).count() == 1
        assert not [i for i in checklist(m, permit) if i.key.startswith("substitution.")]
        assert "substitution_vistoria_pending" not in [a["code"] for a in permit_alerts(permit, TODAY)]


def test_a_vistoria_before_the_change_of_motorcycles_does_not_count(app, demo):
    from server.modules.issuance.operations import record_vistoria
    from server.modules.issuance.substitutions import pending_substitution_vistorias
    from server.modules.permits.changes_of_life import substitute_vehicle
    from server.modules.registry.models import Vehicle

    _, new_vehicle_id = free_operator_and_vehicle(app, "sapezal", 4)
    with app.app_context():
        m = muni("sapezal")
        permit = (Permit.query.filter_by(municipality_id=m.id, status="ativo")
                  .filter(Permit.holder_operator_id.isnot(None)).order_by(Permit.id).first())
        substitute_vehicle(permit, m, new_vehicle_id, TODAY, "Requerimento 8/2026")
        record_vistoria(m, db.session.get(Vehicle, new_vehicle_id),
                        {"kind": "inicial", "inspected_on": TODAY - timedelta(days=1), "result": "aprovada",
                         "inspector_name": "Fiscal"})
        assert len(pending_substitution_vistorias(permit)) == 1


def test_a_substitute_replaced_again_before_its_vistoria_is_no_longer_pending(app, demo):
    from server.modules.issuance.substitutions import pending_substitution_vistorias
    from server.modules.permits.changes_of_life import substitute_vehicle

    _, first = free_operator_and_vehicle(app, "sapezal", 5)
    _, second = free_operator_and_vehicle(app, "sapezal", 6)
    with app.app_context():
        m = muni("sapezal")
        permit = (Permit.query.filter_by(municipality_id=m.id, status="ativo")
                  .filter(Permit.holder_operator_id.isnot(None)).order_by(Permit.id).first())
        substitute_vehicle(permit, m, first, TODAY - timedelta(days=3), "Requerimento 9/2026")
        substitute_vehicle(permit, m, second, TODAY - timedelta(days=1), "Requerimento 10/2026")
        assert [s.new_vehicle_id for s in pending_substitution_vistorias(permit)] == [second]
