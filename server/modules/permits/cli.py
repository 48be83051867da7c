"""`flask registry expire`: the expiry task alone (the daily command, `flask jobs run-daily`, runs it
with the others)."""
import click
from flask.cli import with_appcontext

from .operations import expire_due_permits


@click.group("registry")
def registry_cli():
    """Registry maintenance."""


@registry_cli.command("expire")
@with_appcontext
def registry_expire():
    """Mark permits past their validity as vencido (run daily, e.g. from cron)."""
    # Every municipality at once: each law's word would be wrong for the others'.
    click.echo(f"{expire_due_permits()} permissões, alvarás ou autorizações vencidos.")
