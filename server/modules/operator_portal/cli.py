"""`flask operator code`: hand an operator a first-access code (until the back office has a button)."""
import click
from flask.cli import with_appcontext

from ...core import transaction
from ..registry.models import Municipality, Permit
from ..registry.vocabulary import vocabulary
from .operations import CODE_TTL_HOURS, create_operator_access


@click.group("operator")
def operator_cli():
    """Operator (moto-taxista) access to the field app."""


@operator_cli.command("code")
@click.option("--municipality", "slug", required=True, help="Municipality slug, e.g. sapezal.")
@click.option("--permit", "number", required=True, help="Permit number, e.g. 001/2026.")
@click.option("--hours", default=CODE_TTL_HOURS, show_default=True, help="Validity of the code.")
@with_appcontext
def operator_code(slug, number, hours):
    """Create (or replace) the first-access code of the permit's driver and print it once."""
    muni = Municipality.query.filter_by(slug=slug).first()
    permit = muni and Permit.query.filter_by(municipality_id=muni.id, number=number).first()
    if permit is None or permit.main_driver is None:
        raise click.ClickException(f"{vocabulary(muni).permit_title if muni else 'Permissão ou alvará'} {number} "
                                   f"sem condutor em {slug}.")
    code = create_operator_access(permit.main_driver, ttl_hours=hours)
    line = f"{permit.main_driver.name}: código {code} (válido por {hours} h) — abrir /app/#/operador/entrar?m={slug}"
    transaction.after_commit(lambda: click.echo(line))  # shown once it holds: a printed code always works
