"""`flask demo load`: demo data for a fresh database; `flask registry expire`: daily expiry job."""
import click
from flask.cli import with_appcontext

from .demo import DEMO_PASSWORD, demo_logins, load_demo
from .operations import expire_due_permits


@click.group("demo")
def demo_cli():
    """Demo data."""


@demo_cli.command("load")
@with_appcontext
def demo_load():
    """Load demo data when the database is empty (never touches existing data)."""
    logins = load_demo()
    if logins is None:
        click.echo("Banco já contém dados: carga de demonstração não executada.")
        return
    click.echo(f"Dados de demonstração carregados ({len(logins)} logins; veja `flask demo logins`).")


@demo_cli.command("logins")
@with_appcontext
def demo_logins_command():
    """Print the demo logins that still use the demo password."""
    rows = demo_logins()
    if not rows:
        click.echo("Nenhum login de demonstração ativo.")
        return
    click.echo("Logins de demonstração (senha: %s):" % DEMO_PASSWORD)
    for username, role, muni in rows:
        click.echo(f"  {username:28} {role:11} {muni}")


@click.group("registry")
def registry_cli():
    """Registry maintenance."""


@registry_cli.command("expire")
@with_appcontext
def registry_expire():
    """Mark permits past their validity as vencido (run daily, e.g. from cron)."""
    click.echo(f"{expire_due_permits()} permissões marcadas como vencidas.")
