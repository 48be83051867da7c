"""`flask notices send`: send the notices that are due (run every minute: docs/operations.md)."""
import click
from flask.cli import with_appcontext

from .jobs import send_due


@click.group("notices")
def notices_cli():
    """Avisos aos operadores (e-mail, SMS, WhatsApp)."""


@notices_cli.command("send")
@click.option("--limit", default=100, show_default=True, help="Quantos avisos no máximo nesta execução.")
@with_appcontext
def send(limit):
    """Envia os avisos na fila e tenta de novo os que falharam, quando chega a vez."""
    counts = send_due(limit=limit)
    click.echo(f"enviados: {counts['sent']}; falharam (nova tentativa marcada): {counts['failed']}; "
               f"tentativas esgotadas: {counts['gave_up']}")
