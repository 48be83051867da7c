"""`flask tenancy app-role ROLE`: the PostgreSQL role the application connects as, bound by the
row-level security policies (docs/operations.md, "Row-level security"). Run it connected as the
role that owns the tables and runs the migrations."""
import os

import click
from sqlalchemy import text

from ...core import rls_sql
from ...extensions import db


@click.group("tenancy")
def tenancy_cli():
    """Row-level security: the application's database role."""


@tenancy_cli.command("app-role")
@click.argument("role", default="motofiscal_app")
def app_role(role):
    """Create ROLE (if missing; password from MOTOFISCAL_APP_DB_PASSWORD) and grant it the rows."""
    if db.engine.dialect.name != "postgresql":
        raise click.ClickException("Só no PostgreSQL: o SQLite não tem segurança por linha.")
    with db.engine.begin() as conn:
        conn.exec_driver_sql(rls_sql.create_role(role, os.environ.get("MOTOFISCAL_APP_DB_PASSWORD")))
        for statement in rls_sql.grants(role):
            conn.execute(text(statement))
        superuser, bypass = conn.exec_driver_sql(rls_sql.ROLE_CHECK, {"role": role}).one()
    if superuser or bypass:
        raise click.ClickException(f"O papel {role} é superusuário ou tem BYPASSRLS: as políticas não o "
                                   "alcançariam. Use outro papel para o aplicativo.")
    click.echo(f"Papel {role} pronto: conecte o aplicativo com ele (DATABASE_URL) e rode as migrações "
               "com o dono das tabelas.")
