"""The PostgreSQL text of the second wall (row-level security), shared by the migrations that put
policies on tables, the `flask tenancy grant-app-role` command and the tests. No Flask here.

A tenant table's policy: the row's municipality is the transaction's, or the row has none and
the transaction is a platform administrator's, or the transaction declared it crosses
municipalities (core/tenancy.py sets the three settings). A child table that reaches a
municipality only through a parent's foreign key gets "its parent row is visible": the EXISTS
runs under the parent's own policy.
"""

SETTING_MUNICIPALITY = "motofiscal.municipality_id"
SETTING_PLATFORM = "motofiscal.platform"
SETTING_CROSSING = "motofiscal.crossing"
POLICY = "tenant_scope"

_CROSSING = f"current_setting('{SETTING_CROSSING}', true) = 'on'"
_MUNICIPALITY = f"NULLIF(current_setting('{SETTING_MUNICIPALITY}', true), '')::integer"
_PLATFORM = f"current_setting('{SETTING_PLATFORM}', true) = 'on'"


def tenant_condition(nullable=False):
    condition = f"{_CROSSING} OR municipality_id = {_MUNICIPALITY}"
    if nullable:  # platform administrators' own rows (user, audit_log) have no municipality
        condition += f" OR (municipality_id IS NULL AND {_PLATFORM})"
    return condition


def municipality_condition():
    """The `municipality` table's own rows: its id is the transaction's municipality (no platform
    clause: a platform administrator reads the one picked; lists of all of them declare the crossing)."""
    return f"{_CROSSING} OR id = {_MUNICIPALITY}"


def child_condition(table, column, parent):
    return f'{_CROSSING} OR EXISTS (SELECT 1 FROM "{parent}" p WHERE p.id = "{table}"."{column}")'


def enable(table, condition):
    """ENABLE + FORCE (the table's owner is bound too, unless superuser or BYPASSRLS)."""
    return [f'ALTER TABLE "{table}" ENABLE ROW LEVEL SECURITY',
            f'ALTER TABLE "{table}" FORCE ROW LEVEL SECURITY',
            f'DROP POLICY IF EXISTS {POLICY} ON "{table}"',
            f'CREATE POLICY {POLICY} ON "{table}" USING ({condition}) WITH CHECK ({condition})']


def disable(table):
    return [f'DROP POLICY IF EXISTS {POLICY} ON "{table}"',
            f'ALTER TABLE "{table}" NO FORCE ROW LEVEL SECURITY',
            f'ALTER TABLE "{table}" DISABLE ROW LEVEL SECURITY']


def grants(role, schema="public"):
    """What the application's role may do: read and write rows (never DDL, never TRUNCATE, which
    row-level security does not filter), on today's tables and, through default privileges, on
    the ones later migrations create (run this as the role that runs the migrations)."""
    r, s = f'"{role}"', f'"{schema}"'
    return [f"GRANT USAGE ON SCHEMA {s} TO {r}",
            f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {s} TO {r}",
            f"GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA {s} TO {r}",
            f"ALTER DEFAULT PRIVILEGES IN SCHEMA {s} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {r}",
            f"ALTER DEFAULT PRIVILEGES IN SCHEMA {s} GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO {r}"]


def _quoted(text):
    return "'" + text.replace("'", "''") + "'"


def create_role(role, password=None):
    """The application's role: may log in, is bound by the policies (NOSUPERUSER, NOBYPASSRLS),
    owns nothing. Left alone when it exists already (several databases of one cluster share it)."""
    login = f"LOGIN PASSWORD {_quoted(password)}" if password else "LOGIN"
    return (f'DO $$ BEGIN CREATE ROLE "{role}" {login} NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE; '
            "EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$")


ROLE_CHECK = "SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = %(role)s"
