"""`flask rules check` and `flask rules evaluate`."""
import json
import sys
from pathlib import Path

import click
from flask.cli import with_appcontext

from ...core.errors import ApiError
from ...rules import RulesError, evaluate, validate_all
from ...rules.compose import REPO_ROOT


@click.group("rules")
def rules_cli():
    """Rule packs: validation and evaluation."""


@rules_cli.command("check")
@click.option("--root", type=click.Path(exists=True, file_okay=False), default=str(REPO_ROOT),
              help="Repository root holding shared_rules/.")
def rules_check(root):
    """Validate packs, configs and vectors against the schemas; check every citation."""
    problems = validate_all(root)
    for p in problems:
        click.echo(f"{p['file']}: {p['path']}: {p['reason']}", err=True)
    if problems:
        click.echo(f"{len(problems)} problema(s) encontrado(s).", err=True)
        sys.exit(1)
    click.echo("Pacotes, configurações e vetores válidos.")


def _read_json(path, what):
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise click.BadParameter(f"{what}: {exc}") from exc


@rules_cli.command("evaluate")
@click.option("--municipality", "slug", required=True)
@click.option("--date", "on_date", required=True, help="YYYY-MM-DD")
@click.option("--facts", "facts_file", required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--history", "history_file", type=click.Path(exists=True, dir_okay=False))
@with_appcontext
def rules_evaluate(slug, on_date, facts_file, history_file):
    """Evaluate facts for a municipality on a date; print the result as JSON."""
    from ..registry.models import Municipality
    from .service import composed_for

    muni = Municipality.query.filter_by(slug=slug).first()
    if muni is None:
        raise click.BadParameter(f"município desconhecido: {slug}", param_hint="--municipality")
    facts = _read_json(facts_file, "--facts")
    history = _read_json(history_file, "--history") if history_file else []
    try:
        result = evaluate(composed_for(muni), on_date, facts, history)
    except ApiError as exc:
        raise click.ClickException(exc.message) from exc
    except RulesError as exc:
        click.echo(json.dumps(exc.to_json(), ensure_ascii=False, indent=2))
        sys.exit(2)
    click.echo(json.dumps(result, ensure_ascii=False, indent=2))
