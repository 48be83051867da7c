"""`flask tenancy app-role`: the role the application connects as, bound by row-level security."""
from server.extensions import db


def _postgres(app):
    with app.app_context():
        return db.engine.dialect.name == "postgresql"


def test_the_app_role_is_granted_and_a_role_policies_skip_is_refused(app, runner):
    result = runner.invoke(args=["tenancy", "app-role", "motofiscal_app"])
    if not _postgres(app):
        assert result.exit_code != 0 and "Só no PostgreSQL" in result.output
        return
    assert result.exit_code == 0, result.output
    assert "Papel motofiscal_app pronto" in result.output
    with app.app_context():
        granted = db.session.execute(db.text(
            "SELECT has_table_privilege('motofiscal_app', 'permit', 'SELECT, INSERT, UPDATE, DELETE'), "
            "has_table_privilege('motofiscal_app', 'permit', 'TRUNCATE')")).one()
    assert tuple(granted) == (True, False)
    # A superuser skips every policy: the command says so instead of handing it the rows.
    refused = runner.invoke(args=["tenancy", "app-role", "postgres"])
    assert refused.exit_code != 0 and "BYPASSRLS" in refused.output
