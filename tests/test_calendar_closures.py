"""The municipality's calendar screen (CalendarClosure): a closure recorded by the back office is
audited, scoped, sent in the field data, and moves a deadline that ends on it, in both engines."""
import json
import subprocess
from datetime import date
from pathlib import Path

from helpers import api_token, csrf_token, login

from server.core.audit import AuditLog
from server.modules.calendar.models import CalendarClosure
from server.modules.calendar.service import calendar_of
from server.modules.registry.models import Municipality
from server.rules import legal_calendar as lc

ROOT = Path(__file__).resolve().parents[1]


def _add(client, **form):
    token = csrf_token(client, "/bo/calendario")
    return client.post("/bo/calendario", data={"csrf_token": token, **form})


def test_a_recorded_closure_moves_a_deadline_and_is_audited(client, demo, app):
    login(client, "backoffice.sapezal")
    # 10 calendar days from Thursday 2026-06-04 end on Sunday 14/06 → Monday 15/06; closing
    # Monday (Lei municipal) moves the end to Tuesday 16/06.
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        assert lc.cc_132_days(calendar_of(muni), date(2026, 6, 4), 10) == date(2026, 6, 15)
    resp = _add(client, day="2026-06-15", kind="feriado_religioso", name_pt="Padroeiro", act="Lei municipal nº 1/2000")
    assert resp.status_code == 302
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        assert lc.cc_132_days(calendar_of(muni), date(2026, 6, 4), 10) == date(2026, 6, 16)
        row = CalendarClosure.query.filter_by(municipality_id=muni.id).one()
        entry = AuditLog.query.filter_by(action="calendar_closure_add", entity_id=str(row.id)).one()
        assert entry.municipality_id == muni.id and entry.after["act"] == "Lei municipal nº 1/2000"
        other = Municipality.query.filter_by(slug="nortelandia").one()
        assert lc.cc_132_days(calendar_of(other), date(2026, 6, 4), 10) == date(2026, 6, 15)
    page = client.get("/bo/calendario").get_data(as_text=True)
    assert "Padroeiro" in page and "15/06/2026" in page


def test_the_form_names_the_bad_field_and_refuses_a_duplicate_day(client, demo):
    login(client, "backoffice.nortelandia")
    resp = _add(client, day="2026-02-30", kind="ponto_facultativo", name_pt="Carnaval", act="Decreto 1/2026")
    assert resp.status_code == 422 and "Data inválida" in resp.get_data(as_text=True)
    resp = _add(client, day="2026-02-16", kind="inventado", name_pt="Carnaval", act="Decreto 1/2026")
    assert resp.status_code == 422 and "Escolha um dos tipos" in resp.get_data(as_text=True)
    assert _add(client, day="2026-02-16", kind="ponto_facultativo", name_pt="Carnaval", act="Decreto 1/2026").status_code == 302
    resp = _add(client, day="2026-02-16", kind="fechamento", name_pt="Outro", act="Portaria 2/2026")
    assert resp.status_code == 422 and "já está no calendário" in resp.get_data(as_text=True)


def test_no_csrf_no_change_and_other_municipality_cannot_remove(client, demo, app):
    login(client, "backoffice.nortelandia")
    resp = client.post("/bo/calendario", data={"day": "2026-02-16", "kind": "fechamento", "name_pt": "X", "act": "Portaria 3"})
    assert resp.status_code in (400, 403)
    assert _add(client, day="2026-02-17", kind="ponto_facultativo", name_pt="Carnaval", act="Decreto 1/2026").status_code == 302
    with app.app_context():
        ident = CalendarClosure.query.one().id
    other = app.test_client()
    login(other, "backoffice.sapezal")
    token = csrf_token(other, "/bo/calendario")
    assert other.post(f"/bo/calendario/{ident}/excluir", data={"csrf_token": token, "reason": "engano"}).status_code == 404
    with app.app_context():
        assert CalendarClosure.query.count() == 1


def test_removal_needs_a_reason_and_is_audited(client, demo, app):
    login(client, "backoffice.nortelandia")
    _add(client, day="2026-02-17", kind="ponto_facultativo", name_pt="Carnaval", act="Decreto 1/2026")
    with app.app_context():
        ident = CalendarClosure.query.one().id
    token = csrf_token(client, "/bo/calendario")
    client.post(f"/bo/calendario/{ident}/excluir", data={"csrf_token": token, "reason": ""})
    with app.app_context():
        assert CalendarClosure.query.count() == 1
    client.post(f"/bo/calendario/{ident}/excluir", data={"csrf_token": token, "reason": "decreto revogado"})
    with app.app_context():
        assert CalendarClosure.query.count() == 0
        entry = AuditLog.query.filter_by(action="calendar_closure_remove").one()
        assert entry.reason == "decreto revogado" and entry.before["date"] == "2026-02-17"


def test_field_data_carries_the_closures_and_the_phone_counts_the_same(client, demo, app):
    login(client, "backoffice.nortelandia")
    _add(client, day="2026-02-16", kind="ponto_facultativo", name_pt="Carnaval", act="Decreto 1/2026")
    _add(client, day="2026-02-17", kind="ponto_facultativo", name_pt="Carnaval", act="Decreto 1/2026")
    headers = api_token(client, "fiscal.nortelandia")
    body = client.get("/api/v1/field/data", headers=headers).get_json()
    cal = body["calendar"]
    assert [c["date"] for c in cal["closures"]] == ["2026-02-16", "2026-02-17"]
    script = ("import { mergeField, fieldCalendar } from './pwa/js/fiscal/field-merge.js';"
              "import { cc132Days } from './pwa/js/rules/legal_calendar.js';"
              "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{"
              "const field = mergeField(null, JSON.parse(s));"
              "process.stdout.write(cc132Days(fieldCalendar(field), '2026-02-06', 10));});")
    out = subprocess.run(["node", "--input-type=module", "-e", script], input=json.dumps(body),
                         capture_output=True, text=True, check=True, cwd=ROOT)
    with app.app_context():
        muni = Municipality.query.filter_by(slug="nortelandia").one()
        server = lc.cc_132_days(calendar_of(muni), date(2026, 2, 6), 10).isoformat()
    # By hand: 06/02 + 10 = Monday 16/02, closed; Tuesday 17/02 closed; Wednesday 18/02.
    assert out.stdout == server == "2026-02-18"


def test_a_delta_carries_the_calendar_only_when_a_closure_changed(client, demo):
    headers = api_token(client, "fiscal.nortelandia")
    cursor = client.get("/api/v1/field/data", headers=headers).get_json()["cursor"]
    assert client.get(f"/api/v1/field/data?cursor={cursor}", headers=headers).get_json()["calendar"] is None
    login(client, "backoffice.nortelandia")
    _add(client, day="2026-02-16", kind="ponto_facultativo", name_pt="Carnaval", act="Decreto 1/2026")
    delta = client.get(f"/api/v1/field/data?cursor={cursor}", headers=headers).get_json()
    assert [c["date"] for c in delta["calendar"]["closures"]] == ["2026-02-16"]


def test_the_app_connects_the_closure_receiver_and_none_fails_the_closure(app, demo):
    """The calendar announces a closure (calendar/signals.py) instead of importing issuance above
    it; server/subscriptions.py connects issuance's move of the ISSQN due dates. Disconnected, a
    closure is refused rather than recorded without moving them."""
    import pytest

    from server.modules.calendar.operations import add_closure
    from server.modules.calendar.signals import closure_added
    from server.modules.autos.process_operations import move_appeal_dues
    from server.modules.issuance.operations import move_issqn_due_dates
    from server.modules.permits.operations import move_grace_ends
    from server.modules.selection.operations import move_motorcycle_dues
    receivers = [move_issqn_due_dates, move_grace_ends, move_motorcycle_dues, move_appeal_dues]
    assert list(closure_added.receivers_for(object())) == receivers
    for receiver in receivers:
        closure_added.disconnect(receiver)
    try:
        with app.app_context():
            muni = Municipality.query.filter_by(slug="sapezal").one()
            with pytest.raises(RuntimeError, match="Nobody receives calendar-closure-added"):
                add_closure(muni, {"day": date(2026, 6, 15), "kind": "fechamento", "name_pt": "Fechada", "act": "x"})
    finally:
        for receiver in receivers:
            closure_added.connect(receiver, weak=False)
    with app.app_context():
        assert CalendarClosure.query.count() == 0
