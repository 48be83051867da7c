"""flask fieldsync …: maintenance of the field sync."""
import click
from flask.cli import with_appcontext

from ...extensions import db
from ..registry.changes import mark_changed
from ..registry.models import Municipality
from .field_data import KINDS, ROWS

fieldsync_cli = click.Group("fieldsync", help="Sincronização com os aparelhos de campo.")


@fieldsync_cli.command("mark-all")
@click.argument("slug")
@with_appcontext
def mark_all(slug):
    """Send every entity again in the next delta (after an import that bypassed the ORM)."""
    municipality = Municipality.query.filter_by(slug=slug).first()
    if municipality is None:
        raise click.ClickException(f"Município desconhecido: {slug}")
    entities = [(kind, row["id"], False) for kind in KINDS for row in ROWS[kind](municipality.id)]
    version = mark_changed(db.session.connection(), municipality.id, entities)
    click.echo(f"{len(entities)} entidades marcadas (versão {version}).")
