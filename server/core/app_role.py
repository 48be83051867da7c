"""The application's PostgreSQL role made ready: created when missing (if the connected role may),
refused when policies would not bind it, granted the rows (core/rls_sql.py). Used by
`flask tenancy app-role` and by `flask backup restore` (a restored database has no grants: the
archive is dumped without privileges). Run connected as the owner of the tables
(docs/operations.md, "Row-level security"); what the owner may not do is answered in pt-BR, with
the command that does it, never a traceback."""
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from . import rls_sql

INSUFFICIENT_PRIVILEGE = "42501"


class AppRoleError(Exception):
    """A pt-BR message for the operator; nothing was changed (the transaction is rolled back)."""


def _sqlstate(err):
    orig = getattr(err, "orig", None)
    return getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)


def role_attributes(conn, role):
    """(superuser, bypassrls) of `role`, or None when it does not exist."""
    row = conn.exec_driver_sql(rls_sql.ROLE_CHECK, {"role": role}).first()
    return None if row is None else (bool(row[0]), bool(row[1]))


def _create(conn, role, password):
    me = conn.exec_driver_sql("SELECT current_user").scalar()
    try:
        with conn.begin_nested():
            conn.exec_driver_sql(rls_sql.create_role(role, password))
    except DBAPIError as err:
        if _sqlstate(err) != INSUFFICIENT_PRIVILEGE:
            raise
        raise AppRoleError(
            f"O papel {role} não existe e {me} não pode criá-lo (criar papéis é do superusuário). Crie-o "
            f"uma vez como superusuário e rode este comando de novo:\n"
            f"  sudo -u postgres psql -c \"CREATE ROLE {role} LOGIN PASSWORD '…'\"") from None


def _grant(conn, role):
    me = conn.exec_driver_sql("SELECT current_user").scalar()
    try:
        with conn.begin_nested():
            for statement in rls_sql.grants(role):
                conn.execute(text(statement))
    except DBAPIError as err:
        if _sqlstate(err) != INSUFFICIENT_PRIVILEGE:
            raise
        raise AppRoleError(f"{me} não pode conceder acesso às tabelas: rode com o dono das tabelas (o "
                           "DATABASE_URL de `flask db upgrade`).") from None
    # A GRANT by a role that only holds some privileges is a warning, not an error: check the result.
    missing = conn.execute(text(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND NOT has_table_privilege("
        ":role, format('%I.%I', schemaname, tablename), 'SELECT, INSERT, UPDATE, DELETE') ORDER BY 1"),
        {"role": role}).scalars().all()
    if missing:
        raise AppRoleError(f"{me} não pôde conceder a {role} as tabelas {', '.join(missing[:5])}"
                           f"{'…' if len(missing) > 5 else ''}: rode com o dono das tabelas.")


def prepare_app_role(conn, role, password=None):
    """Create `role` when missing, refuse one that policies skip, grant it the rows. Returns True
    when the role was created here. Raises AppRoleError."""
    attributes = role_attributes(conn, role)
    created = attributes is None
    if created:
        _create(conn, role, password)
        attributes = role_attributes(conn, role)
    if any(attributes):
        raise AppRoleError(f"O papel {role} é superusuário ou tem BYPASSRLS: as políticas não o alcançariam. "
                           "Use outro papel para o aplicativo.")
    _grant(conn, role)
    return created
