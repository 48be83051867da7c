"""Inabilitação reached by applied penalties alone (issue 19, point 7): Paranatinga art. 42
§ único counts 2 multas in 1 year; the driver is disqualified even if no stop shows it, the
back office records the curso de reabilitação that ends it, phones receive both."""
from datetime import date, timedelta

from autos_process_helpers import first_operator_and_permit, homologated_case
from helpers import csrf_token, login
from test_autos_process import _today, notify, run_daily


def _operator(app, operator_id):
    from server.extensions import db
    from server.modules.registry.models import Operator
    with app.app_context():
        op = db.session.get(Operator, operator_id)
        db.session.expunge(op)
        return op


def test_two_applied_fines_disqualify_the_driver_until_the_rehabilitation_course(app, client, demo):
    from server.core.audit import AuditLog
    from server.modules.autos.disqualification import reached
    from server.modules.fieldsync.field_data import operator_rows
    from server.modules.registry.models import Municipality
    operator_id, _, _ = first_operator_and_permit(app, "paranatinga")
    first, phone = homologated_case(app, client, "paranatinga", days_ago=40)
    second, _ = homologated_case(app, client, "paranatinga", days_ago=30, phone=phone)
    served = _today() - timedelta(days=20)  # the appeal deadline (3 days) has run: applied at once
    notify(app, first, "pessoal", served)
    assert _operator(app, operator_id).disqualified_on is None  # one fine alone: not yet
    notify(app, second, "pessoal", served + timedelta(days=1))  # 2 multas in a year (art. 42 § único b)
    day = _today()
    op = _operator(app, operator_id)
    assert op.disqualified_on == day and "art. 42" in op.disqualified_basis
    with app.app_context():
        muni = Municipality.query.filter_by(slug="paranatinga").one()
        [row] = operator_rows(muni.id, [operator_id])
        assert row["disqualified_on"] == day.isoformat() and "rehabilitation_course_on" not in row
        assert AuditLog.query.filter_by(action="operator_disqualified", entity_id=str(operator_id)).count() == 1
    run_daily(app, day)  # found once
    with app.app_context():
        assert AuditLog.query.filter_by(action="operator_disqualified", entity_id=str(operator_id)).count() == 1

    login(client, "backoffice.paranatinga")
    page = client.get(f"/bo/operadores/{operator_id}").get_data(as_text=True)
    assert f"Inabilitado desde {day.strftime('%d/%m/%Y')}" in page
    token = csrf_token(client, f"/bo/operadores/{operator_id}")
    refused = client.post(f"/bo/operadores/{operator_id}/reabilitacao",
                          data={"csrf_token": token, "course_on": _today().isoformat(), "reference": " "},
                          follow_redirects=True)
    assert "Informe o certificado ou ato" in refused.get_data(as_text=True)
    future = client.post(f"/bo/operadores/{operator_id}/reabilitacao",
                         data={"csrf_token": token, "course_on": (_today() + timedelta(days=1)).isoformat(),
                               "reference": "Certificado 12/2026"}, follow_redirects=True)
    assert "não pode ser futura" in future.get_data(as_text=True)
    assert _operator(app, operator_id).disqualified_on == day
    course = _today() - timedelta(days=1)
    done = client.post(f"/bo/operadores/{operator_id}/reabilitacao",
                       data={"csrf_token": token, "course_on": course.isoformat(), "reference": "Certificado 12/2026"},
                       follow_redirects=True)
    assert "Curso de reabilitação registrado" in done.get_data(as_text=True)
    op = _operator(app, operator_id)
    assert (op.disqualified_on, op.rehabilitation_course_on) == (None, course)
    with app.app_context():
        muni = Municipality.query.filter_by(slug="paranatinga").one()
        entry = AuditLog.query.filter_by(action="operator_rehabilitated", entity_id=str(operator_id)).one()
        assert entry.before["disqualified_on"] == day.isoformat()
        [row] = operator_rows(muni.id, [operator_id])
        assert row["rehabilitation_course_on"] == course.isoformat() and "disqualified_on" not in row
        # the fines before the course no longer reach it, though still in the 1-year window
        assert reached(muni, _operator(app, operator_id), _today()) is None
        assert reached(muni, _operator(app, operator_id).__class__(
            municipality_id=muni.id, rehabilitation_course_on=None, id=operator_id), _today()) is not None


def test_rehabilitation_form_is_scoped_and_needs_csrf(app, client, demo):
    operator_id, _, _ = first_operator_and_permit(app, "paranatinga")
    login(client, "backoffice.sapezal")
    token = csrf_token(client, "/bo/")
    other = client.post(f"/bo/operadores/{operator_id}/reabilitacao",
                        data={"csrf_token": token, "course_on": date(2026, 1, 5).isoformat(), "reference": "X"})
    assert other.status_code == 404
    login(client, "backoffice.paranatinga")
    assert client.post(f"/bo/operadores/{operator_id}/reabilitacao",
                       data={"course_on": "2026-01-05", "reference": "X"}).status_code in (400, 403)
    assert _operator(app, operator_id).rehabilitation_course_on is None
