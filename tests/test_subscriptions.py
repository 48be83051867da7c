"""server/subscriptions.py is the one place receivers are connected (issue 23): every app has all
of them, in a set order, however many apps the process builds."""
from server.modules.autos.signals import auto_case_changed
from server.modules.calendar.signals import closure_added
from server.modules.registry.signals import permit_status_changed
from server.subscriptions import connect_subscribers


def _receivers():
    return {s.name: list(s.receivers_for(object())) for s in (auto_case_changed, permit_status_changed, closure_added)}


def test_the_app_connects_the_case_and_permit_receivers_once(app):
    from server.modules.autos.process_operations import case_voided, move_appeal_dues
    from server.modules.credentials.operations import on_permit_status_changed
    from server.modules.dashboard.operations import case_changed
    from server.modules.issuance.operations import move_issqn_due_dates
    from server.modules.permits.operations import move_grace_ends
    from server.modules.selection.operations import move_motorcycle_dues
    expected = {"auto-case-changed": [case_voided, case_changed],
                "permit-status-changed": [on_permit_status_changed],
                "calendar-closure-added": [move_issqn_due_dates, move_grace_ends, move_motorcycle_dues,
                                           move_appeal_dues]}
    assert _receivers() == expected
    connect_subscribers()  # another create_app: nothing connected twice
    assert _receivers() == expected
