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


def _non_finite(literal):
    """NaN / Infinity / -Infinity are not JSON: Python would read them as floats silently. They
    are kept as non-finite floats so the engine refuses them naming the fact, its type and range."""
    return float(literal)


def _read_json(path, what):
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"), parse_constant=_non_finite)
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
        from ..calendar.service import calendar_of
        result = evaluate(composed_for(muni), on_date, facts, history, calendar_of(muni))
    except ApiError as exc:
        raise click.ClickException(exc.message) from exc
    except RulesError as exc:
        click.echo(json.dumps(exc.to_json(), ensure_ascii=False, indent=2))
        sys.exit(2)
    click.echo(json.dumps(result, ensure_ascii=False, indent=2))


@rules_cli.command("configure")
@click.option("--municipality", "slug", required=True)
@click.option("--kind", required=True, type=click.Choice(["decree_amounts", "deadlines", "periods", "options"]))
@click.option("--key", required=True, help="Configuration key, e.g. nortelandia.multa.luvas")
@click.option("--value", help="Number (decree amount, days, period length)")
@click.option("--unit", help="Decree amount unit: BRL, UFM, UFIR, UPF")
@click.option("--amount-kind", type=click.Choice(["value", "max"]), default="value")
@click.option("--valid-from", help="Decree amount: in force from (YYYY-MM-DD)")
@click.option("--period-unit", type=click.Choice(["days", "months", "years"]))
@click.option("--option", help="Option value (veto outcome or reading)")
@click.option("--source", required=True, help="The act that sets the value (decree, Câmara session…)")
@with_appcontext
def rules_configure(slug, kind, key, value, unit, amount_kind, valid_from, period_unit, option, source):
    """Set one configuration value, with the same checks as the back-office page (legal caps
    and units included) and an audit row."""
    from ..registry.models import Municipality
    from .service import composed_for
    from .settings import configurable_keys, parse_value, save_value

    muni = Municipality.query.filter_by(slug=slug).first()
    if muni is None:
        raise click.BadParameter(f"município desconhecido: {slug}", param_hint="--municipality")
    row = next((k for k in configurable_keys(composed_for(muni)) if k["kind"] == kind and k["key"] == key), None)
    if row is None:
        raise click.BadParameter(f"chave {key} não é configurável em {slug} como {kind}", param_hint="--key")
    form = {"value": value or "", "unit": unit or "", "amount_kind": amount_kind,
            "valid_from": valid_from or "", "period_unit": period_unit, "option": option, "source": source}
    try:
        save_value(muni, kind, key, parse_value(row, form), source)
    except ApiError as exc:
        for field, messages in (exc.fields or {}).items():
            for message in messages:
                click.echo(f"{field}: {message}", err=True)
        sys.exit(1)
    click.echo(f"{kind} {key} configurado em {slug}.")
