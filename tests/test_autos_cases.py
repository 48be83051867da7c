"""Autos de infração received from the field open one case each, waiting for review; a case is
homologated or declared void with a justification, audited, never deleted."""
import pytest

from fieldsync_device import FakeDevice
from server.core.errors import ApiError


@pytest.fixture
def phone(client, demo):
    return FakeDevice(client, "fiscal.sapezal")


def _cases(app):
    from server.modules.autos.models import AutoCase
    with app.app_context():
        return [(c.record_id, c.number, c.state) for c in AutoCase.query.order_by(AutoCase.id)]


def test_each_received_auto_opens_one_case_even_when_replayed(app, phone):
    numbers = phone.reserve(2)
    inspection = phone.body("inspection")
    batch = [phone.record(inspection), phone.auto(numbers[0], inspection_id=inspection["id"]),
             phone.auto(numbers[1], inspection_id=inspection["id"])]
    for _ in range(3):
        assert phone.push(batch).status_code == 200
    assert _cases(app) == [(batch[1]["id"], numbers[0], "recebido"), (batch[2]["id"], numbers[1], "recebido")]


def _decide(app, action, reason):
    from server.extensions import db
    from server.modules.autos.models import AutoCase
    from server.modules.autos.operations import decide
    with app.app_context():
        case = AutoCase.query.one()
        try:
            decide(case, action, reason)
        except ApiError as exc:
            db.session.rollback()
            return exc
        db.session.commit()  # the test plays the request that would have committed it
        return case.state


def test_decisions_need_a_justification_and_follow_the_transitions(app, phone):
    from server.core.audit import AuditLog
    numbers = phone.reserve(1)
    phone.push([phone.auto(numbers[0])])
    short = _decide(app, "auto_homologate", "ok")
    assert short.status == 422 and "reason" in short.fields
    assert _decide(app, "auto_homologate", "Fatos confirmados pelas fotos.") == "homologado"
    again = _decide(app, "auto_homologate", "Fatos confirmados pelas fotos.")
    assert again.status == 409
    assert _decide(app, "auto_void", "Placa anotada não confere com o veículo.") == "insubsistente"
    assert _decide(app, "auto_homologate", "Reconsideração indevida aqui.").status == 409
    with app.app_context():
        actions = [a.action for a in AuditLog.query.filter_by(entity="auto_case").order_by(AuditLog.id)]
    assert actions == ["auto_homologate", "auto_void"]
