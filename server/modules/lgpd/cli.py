"""`flask lgpd retention`: the anonymisation of one municipality on demand (the daily task runs
it for all), with a dry run that lists who would be anonymised."""
import click
from flask.cli import with_appcontext

from ...core.clock import local_today
from ..registry.models import Municipality
from .anonymise import run_retention
from .retention import READINGS, SOURCE_KEYS, retention_settings


@click.group("lgpd")
def lgpd_cli():
    """LGPD: retention and anonymisation."""


@lgpd_cli.command("retention")
@click.option("--municipality", "slug", required=True, help="Município (slug, ex.: sapezal).")
@click.option("--date", "on_date", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
              help="Dia a considerar (AAAA-MM-DD); padrão: hoje no fuso do município.")
@click.option("--dry-run", is_flag=True, help="Só listar quem seria anonimizado; nada é gravado.")
@with_appcontext
def retention_command(slug, on_date, dry_run):
    """Anonymise the operators of one municipality whose retention lapsed."""
    municipality = Municipality.query.filter_by(slug=slug).first()
    if municipality is None:
        raise click.BadParameter(f"município não encontrado: {slug}", param_hint="--municipality")
    settings = retention_settings(municipality)
    today = on_date.date() if on_date else local_today()
    out = run_retention(municipality, today, dry_run=dry_run)
    if not out["configured"]:
        click.echo("Prazos de retenção não configurados (Administração → Retenção de dados): nada anonimizado.", err=True)
        raise SystemExit(1)
    for key, (label, _) in READINGS.items():
        click.echo(f"{label}: {settings[key]} anos ({settings[SOURCE_KEYS[key]]})")
    verb = "seriam anonimizados" if dry_run else "anonimizados"
    click.echo(f"{len(out['parcial'])} {verb} em parte (autos ainda retidos): {out['parcial'] or '—'}")
    click.echo(f"{len(out['total'])} {verb} por completo: {out['total'] or '—'}")
