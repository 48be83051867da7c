"""Vistorias from the field app (issue 11): the sync push accepts records of kind "vistoria" and
files exactly one issuance Vistoria per record (issuance/vistoria_sync.py); duplicates and
conflicts file nothing more; malformed ones are rejected naming the field; an approval the
answers contradict is kept in review, never counted as approved; municipality scoping."""
from datetime import timedelta

import pytest
from fieldsync_device import FakeDevice, sha256_hex

from server.core.audit import AuditLog
from server.core.clock import local_today
from server.extensions import db
from server.modules.issuance.models import Vistoria

TODAY = local_today()
# Sapezal Lei 125/1999, art. 12, II: two mirrors; one fails "Dois retrovisores".
GOOD = {"equipment.mirrors_count": 2, "vehicle.condition_ok": True, "equipment.grab_handle": True}
BAD = {**GOOD, "equipment.mirrors_count": 1}
FIX = [{"fact": "equipment.mirrors_count", "label_pt": "Dois retrovisores", "citation": "Lei 125/1999, art. 12, II"}]


@pytest.fixture
def phone(client, demo):
    return FakeDevice(client, "fiscal.sapezal")


def _permit(app, slug="sapezal"):
    from server.modules.registry.models import Municipality, Permit
    with app.app_context():
        m = Municipality.query.filter_by(slug=slug).one()
        permit = (Permit.query.filter(Permit.municipality_id == m.id, Permit.status == "ativo",
                                      Permit.vehicle_id.isnot(None)).order_by(Permit.id).first())
        return {"permit_id": permit.id, "vehicle_id": permit.vehicle_id, "number": permit.number}


def _vistoria(phone, target, result="reprovada", answers=None, **extra):
    fields = {"vehicle_id": target["vehicle_id"], "permit_id": target["permit_id"], "permit_number": target["number"],
              "plate": "ABC1D23", "vistoria_kind": "periodica", "inspected_on": TODAY.isoformat(),
              "answers": BAD if answers is None else answers, "answer_sources": {}, "item_photos": {},
              "result": result, "items_to_fix": FIX if result == "reprovada" else [],
              "return_on": (TODAY + timedelta(days=10)).isoformat() if result == "reprovada" else None, "notes": None}
    fields.update(extra)
    return phone.record(phone.body("vistoria", **fields))


def _vistorias(app, **filters):
    with app.app_context():
        return [{"result": v.result, "kind": v.kind, "items_to_fix": v.items_to_fix, "return_on": v.return_on,
                 "inspector_name": v.inspector_name, "recorded_by_id": v.recorded_by_id, "photos": v.photo_hashes,
                 "permit_id": v.permit_id, "vehicle_id": v.vehicle_id, "record": v.field_record_id,
                 "review_note": v.review_note, "items": v.items, "id": v.id}
                for v in Vistoria.query.filter_by(**filters).order_by(Vistoria.id)]


def _gate(app, permit_id):
    from server.modules.issuance.requirements import checklist
    from server.modules.registry.models import Municipality, Permit
    with app.app_context():
        permit = db.session.get(Permit, permit_id)
        m = db.session.get(Municipality, permit.municipality_id)
        return {i.key: i.state for i in checklist(m, permit, TODAY)}["sap.req.vistoria"]


def test_a_rejection_files_one_vistoria_and_replays_file_nothing(app, phone):
    from server.modules.accounts.models import User
    from server.modules.fieldsync.field_data import vehicle_rows
    target = _permit(app)
    photo = sha256_hex("foto-retrovisor")
    item = _vistoria(phone, target, item_photos={"equipment.mirrors_count": [photo]})
    first = phone.push([item]).json["results"][0]
    assert first["status"] == "accepted" and first["missing_photos"] == [photo]
    [stored] = _vistorias(app, field_record_id=item["id"])
    with app.app_context():
        fiscal = User.query.filter_by(username="fiscal.sapezal").one()
        assert stored["inspector_name"] == fiscal.name and stored["recorded_by_id"] == fiscal.id
        audit = AuditLog.query.filter_by(action="create", entity="vistoria", entity_id=str(stored["id"])).one()
        assert item["id"] in audit.reason
        m_id = fiscal.municipality_id
        row = vehicle_rows(m_id, [target["vehicle_id"]])[0]
    assert (stored["result"], stored["kind"], stored["permit_id"]) == ("reprovada", "periodica", target["permit_id"])
    assert stored["items_to_fix"] == "Dois retrovisores (Lei 125/1999, art. 12, II)"
    assert stored["return_on"] == TODAY + timedelta(days=10) and stored["photos"] == [photo]
    assert stored["items"]["equipment.mirrors_count"] == 1
    # The phones learn it: the crachá verdict shows "reprovada".
    assert row["vistoria_result"] == "reprovada" and row["vistoria_on"] == TODAY.isoformat()
    assert _gate(app, target["permit_id"]) == "missing"
    # The same record again: a duplicate; another body under its id: a conflict. Still one vistoria.
    assert phone.push([item]).json["results"][0]["status"] == "duplicate"
    import json
    other = json.loads(item["body"])
    other["result"], other["items_to_fix"], other["return_on"] = "aprovada", [], None
    altered = {**phone.record(other), "id": item["id"]}
    assert phone.push([altered]).json["results"][0]["status"] == "conflict"
    assert len(_vistorias(app, field_record_id=item["id"])) == 1
    assert [v["result"] for v in _vistorias(app, vehicle_id=target["vehicle_id"]) if v["record"]] == ["reprovada"]


def test_an_approval_opens_the_issuance_gate(app, phone):
    target = _permit(app)
    assert phone.push([_vistoria(phone, target)]).json["results"][0]["status"] == "accepted"
    assert _gate(app, target["permit_id"]) == "missing"
    approved = _vistoria(phone, target, result="aprovada", answers=GOOD, vistoria_kind="retorno")
    assert phone.push([approved]).json["results"][0]["status"] == "accepted"
    [stored] = _vistorias(app, field_record_id=approved["id"])
    assert (stored["result"], stored["kind"], stored["review_note"]) == ("aprovada", "retorno", None)
    assert _gate(app, target["permit_id"]) == "ok"


def test_an_approval_the_answers_contradict_waits_for_review(app, phone):
    from server.modules.fieldsync.models import FieldRecord
    target = _permit(app)
    item = _vistoria(phone, target, result="aprovada", answers=BAD)
    result = phone.push([item]).json["results"][0]
    assert result["status"] == "accepted"
    [stored] = _vistorias(app, field_record_id=item["id"])
    assert stored["result"] == "em_revisao"
    assert "Dois retrovisores" in stored["review_note"] and "art. 12, II" in stored["review_note"]
    with app.app_context():
        assert "vistoria_approval_failed" in db.session.get(FieldRecord, item["id"]).flags
    assert _gate(app, target["permit_id"]) != "ok"
    # Replayed, the flag is what the server holds.
    assert "vistoria_approval_failed" in phone.push([item]).json["results"][0]["flags"]


@pytest.mark.parametrize("change, field", [
    ({"vistoria_kind": "anual"}, "body.vistoria_kind"),
    ({"result": "talvez"}, "body.result"),
    ({"return_on": None}, "body.return_on"),
    ({"items_to_fix": []}, "body.items_to_fix"),
    ({"return_on": (TODAY - timedelta(days=1)).isoformat()}, "body.return_on"),
    ({"vehicle_id": "12"}, "body.vehicle_id"),
    ({"inspected_on": "31/12/2026"}, "body.inspected_on"),
])
def test_malformed_vistorias_are_rejected_naming_the_field(app, phone, change, field):
    target = _permit(app)
    item = _vistoria(phone, target, **change)
    result = phone.push([item]).json["results"][0]
    assert result["status"] == "rejected" and field in result["errors"], result
    assert all(isinstance(m, str) and m for m in result["errors"][field])
    assert _vistorias(app, field_record_id=item["id"]) == []


def test_another_municipality_s_vehicle_or_permit_is_never_touched(app, client, demo):
    phone = FakeDevice(client, "fiscal.sapezal")
    own, foreign = _permit(app, "sapezal"), _permit(app, "paranatinga")
    item = _vistoria(phone, foreign, result="aprovada", answers={})
    assert phone.push([item]).json["results"][0]["status"] == "accepted"  # the signed record is kept
    assert _vistorias(app, field_record_id=item["id"]) == []
    assert _vistorias(app, vehicle_id=foreign["vehicle_id"]) == [] or all(
        v["record"] is None for v in _vistorias(app, vehicle_id=foreign["vehicle_id"]))
    from server.modules.fieldsync.models import FieldRecord
    with app.app_context():
        assert "vistoria_vehicle_unknown" in db.session.get(FieldRecord, item["id"]).flags
    # Its own vehicle named with a foreign permit: filed on the vehicle's own permit.
    mixed = _vistoria(phone, {**own, "permit_id": foreign["permit_id"]})
    assert phone.push([mixed]).json["results"][0]["status"] == "accepted"
    [stored] = _vistorias(app, field_record_id=mixed["id"])
    assert stored["vehicle_id"] == own["vehicle_id"] and stored["permit_id"] != foreign["permit_id"]


def test_the_vistoria_body_is_in_the_openapi_document(client):
    schemas = client.get("/api/v1/openapi.json").json["components"]["schemas"]
    body = schemas["VistoriaRecordBody"]["properties"]
    assert body["vistoria_kind"]["enum"] == ["inicial", "periodica", "retorno", "substituicao"]
    assert body["result"]["enum"] == ["aprovada", "reprovada"]
    assert "vistoria" in schemas["InspectionRecordBody"]["properties"]["kind"]["enum"]


def test_the_permit_page_shows_field_vistorias_with_fiscal_photos_and_review(app, client, phone):
    from helpers import login
    target = _permit(app)
    photo = sha256_hex("foto-moto")
    phone.push([_vistoria(phone, target, result="aprovada", answers=BAD, photos=[photo])])
    login(client, "backoffice.sapezal")
    html = client.get(f"/bo/permissoes/{target['permit_id']}").get_data(as_text=True)
    assert "Aprovação em revisão" in html and "aplicativo de campo" in html
    assert "Assinada como aprovada no aplicativo de campo" in html and "Dois retrovisores" in html
    assert f"/bo/revisao/fotos/{photo}" in html
    login(client, "backoffice.paranatinga")  # another municipality's permit page stays closed
    assert client.get(f"/bo/permissoes/{target['permit_id']}").status_code == 404
