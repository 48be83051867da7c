"""The transaction boundary at work (server/core/transaction.py): a request commits what it staged
when it answers < 400 and nothing when it answers an error; a command commits when it ends well; a
job's unit commits or rolls back as a whole; after_commit runs only for what held.

Each case stages audit records (the real table) and reads them back on a connection of its own,
which sees only what was committed.
"""
import click
import pytest
from sqlalchemy import select

from server.core import audit, transaction
from server.core.audit import AuditLog
from server.core.errors import ApiError
from server.core.tenancy import crossing_municipalities
from server.extensions import db

pytestmark = pytest.mark.db


def _held(app, action):
    """How many audit rows named `action` a new session sees (a new app context: only what was
    committed). Crossing municipalities: the rows belong to none, and as the application's role
    row-level security would hide them otherwise."""
    with app.app_context(), crossing_municipalities("test: read back what the boundary committed"):
        return len(db.session.execute(select(AuditLog.id).where(AuditLog.action == action)).all())


def _stage(action):
    # Rows of no municipality: written crossing (as the application's role, row-level security
    # refuses them otherwise).
    with crossing_municipalities("test: stage an audit row of no municipality"):
        audit.record(action, "test", 1)
        db.session.flush()  # written to the database inside the transaction, not yet committed


@pytest.fixture
def told(app, client):
    """Routes that stage and answer in each way; `told` lists what after_commit callbacks ran."""
    ran = []

    def two_then(outcome):
        def view():
            _stage(f"{outcome}-first")
            _stage(f"{outcome}-second")
            transaction.after_commit(lambda: ran.append(outcome))
            if outcome == "refused":
                raise ApiError(422, "validation_error", "Dados inválidos.", {"campo": ["motivo"]})
            if outcome == "kept":
                transaction.keep_on_error()
                raise ApiError(429, "too_many", "Tentativas demais.")
            if outcome == "crashed":
                raise RuntimeError("a bug after the first operation")
            if outcome == "redirected":
                return "", 303, {"Location": "/"}
            return {"ok": True}
        return view

    for outcome in ("done", "refused", "kept", "crashed", "redirected"):
        app.add_url_rule(f"/api/test-tx/{outcome}", f"test_tx_{outcome}", two_then(outcome), methods=["POST"])
    return ran


@pytest.mark.parametrize("outcome,status,held", [
    ("done", 200, 1), ("redirected", 303, 1), ("refused", 422, 0), ("kept", 429, 1), ("crashed", 500, 0)])
def test_a_request_commits_everything_or_nothing(app, client, told, outcome, status, held):
    response = client.post(f"/api/test-tx/{outcome}", json={})
    assert response.status_code == status
    assert (_held(app, f"{outcome}-first"), _held(app, f"{outcome}-second")) == (held, held)
    # What only tells the outside world runs for a change that held, and never for one that did not.
    assert told == ([outcome] if held else [])


@pytest.fixture
def command(app, runner):
    @click.command("test-tx")
    @click.argument("outcome")
    def test_tx(outcome):
        _stage(f"cli-{outcome}")
        if outcome == "failed":
            raise click.ClickException("recusado")
        if outcome == "exit1":
            raise SystemExit(1)
        if outcome == "exit0":
            click.get_current_context().exit(0)

    app.cli.add_command(test_tx)
    transaction.commit_each_command(app.cli)  # as server/cli.py does for every command
    return lambda outcome: runner.invoke(args=["test-tx", outcome])


@pytest.mark.parametrize("outcome,exit_code,held", [("ok", 0, 1), ("exit0", 0, 1), ("failed", 1, 0), ("exit1", 1, 0)])
def test_a_command_is_one_unit(app, command, outcome, exit_code, held):
    result = command(outcome)
    assert result.exit_code == exit_code, result.output
    assert _held(app, f"cli-{outcome}") == held


def test_wrapping_a_command_twice_commits_once(app):
    # create_app wraps every command; wrapping the same group again must leave them as they are.
    callbacks = {name: c.callback for name, c in app.cli.commands.items() if not isinstance(c, click.Group)}
    transaction.commit_each_command(app.cli)
    assert {name: c.callback for name, c in app.cli.commands.items() if name in callbacks} == callbacks
    assert all(getattr(cb, "transaction_boundary", False) for cb in callbacks.values())


def test_a_job_unit_commits_or_rolls_back_as_a_whole(app):
    ran = []
    with app.app_context():
        with transaction.unit_of_work():
            _stage("unit-done")
            transaction.after_commit(lambda: ran.append("done"))
        with pytest.raises(ValueError):
            with transaction.unit_of_work():
                _stage("unit-failed")
                transaction.after_commit(lambda: ran.append("failed"))
                raise ValueError("the unit's second step failed")
        # The failed unit's callback is gone: the next unit's commit must not run it.
        with transaction.unit_of_work():
            _stage("unit-after")
    assert (_held(app, "unit-done"), _held(app, "unit-failed"), _held(app, "unit-after")) == (1, 0, 1)
    assert ran == ["done"]
