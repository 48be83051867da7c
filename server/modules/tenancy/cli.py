"""`flask tenancy app-role ROLE`: the PostgreSQL role the application connects as, bound by the
row-level security policies (docs/operations.md, "Row-level security"). Run it connected as the
role that owns the tables and runs the migrations (core/app_role.py does the work)."""
import os

import click
from sqlalchemy.exc import DBAPIError, OperationalError

from ...core.app_role import AppRoleError, prepare_app_role
from ...extensions import db


@click.group("tenancy")
def tenancy_cli():
    """Row-level security: the application's database role."""


@tenancy_cli.command("app-role")
@click.argument("role", default="motofiscal_app")
def app_role(role):
    """Create ROLE (if missing and allowed; password from MOTOFISCAL_APP_DB_PASSWORD) and grant it the rows."""
    if db.engine.dialect.name != "postgresql":
        raise click.ClickException("Só no PostgreSQL: o SQLite não tem segurança por linha.")
    password = os.environ.get("MOTOFISCAL_APP_DB_PASSWORD")
    try:
        with db.engine.begin() as conn:
            created = prepare_app_role(conn, role, password)
    except AppRoleError as err:
        raise click.ClickException(str(err)) from None
    except OperationalError as err:
        raise click.ClickException(f"Não foi possível conectar ao banco (DATABASE_URL): {err.orig}".strip()) from None
    except DBAPIError as err:  # anything else the database refuses: its own words, no traceback
        raise click.ClickException(f"O PostgreSQL recusou: {err.orig}".strip()) from None
    if password and not created:
        click.echo(f"O papel {role} já existia: a senha não foi alterada (\\password {role} no psql, como "
                   "superusuário, para trocá-la).")
    click.echo(f"Papel {role} pronto: conecte o aplicativo com ele (DATABASE_URL) e rode as migrações "
               "com o dono das tabelas.")
