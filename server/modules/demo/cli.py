"""`flask demo load`: demo data for a fresh database; `flask demo logins`: who can log in with it."""
import time

import click
from flask.cli import with_appcontext

from ...core.auth import ROLE_LABELS_PT
from ..operator_portal.operations import CODE_TTL_HOURS, create_operator_access
from ..registry.models import Municipality, Permit
from ..registry.vocabulary import vocabulary
from .dataset import DEMO_PASSWORD, demo_logins, load_demo


@click.group("demo")
def demo_cli():
    """Demo data."""


@demo_cli.command("load")
@with_appcontext
def demo_load():
    """Load demo data when the database is empty (never touches existing data)."""
    start = time.monotonic()
    # A step line as tools/step prints them: the load takes a while and said nothing before.
    click.echo(f"{'• Dados de demonstração':34}", nl=False)
    logins = load_demo(example=True)
    click.echo("já existem" if logins is None else f"ok ({time.monotonic() - start:.1f} s)")
    if logins is None:
        click.echo("Banco já contém dados: carga de demonstração não executada.")
        return
    click.echo(f"Dados de demonstração carregados ({len(logins)} logins; veja `.venv/bin/flask --app server demo logins`).")
    click.echo(_demo_operator_code())


def _demo_operator_code():
    """One first-access code so a newcomer can open the operator's digital crachá at once."""
    muni = Municipality.query.filter_by(slug="sapezal").one()
    permit = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first()
    code = create_operator_access(permit.main_driver)  # committed with the demo, by the command
    # The law's word for the permit (issue 34, item 4): Sapezal's is an "alvará de autorização".
    return (f"Operador de demonstração: {permit.main_driver.name} (Sapezal, {vocabulary(muni).permit} {permit.number}). "
            f"Em /app/ → Sou mototaxista → Sapezal → código {code} (válido por {CODE_TTL_HOURS // 24} dias; "
            f"novo código: .venv/bin/flask --app server operator code --municipality sapezal --permit {permit.number}).")


@demo_cli.command("logins")
@with_appcontext
def demo_logins_command():
    """Print the demo logins that still use the demo password."""
    rows = demo_logins()
    if not rows:
        click.echo("Nenhum login de demonstração ativo.")
        return
    click.echo("Logins de demonstração (senha: %s):" % DEMO_PASSWORD)
    for username, role, muni in rows:  # the role as the screens name it, never its code
        click.echo(f"  {username:28} {ROLE_LABELS_PT.get(role, role):14} {muni}")
