"""`flask registry-import template|run`: the import of an existing registry from the command line."""
from pathlib import Path

import click
from flask.cli import with_appcontext

from ...core.csv_export import csv_text
from ..registry.models import Municipality
from ..registry.vocabulary import vocabulary
from .importer import run_import
from .jobs import work
from .reader import FileProblem
from .template import template_csv, template_xlsx


def _municipality(slug):
    muni = Municipality.query.filter_by(slug=slug).first()
    if muni is None:
        raise click.ClickException(f"Município '{slug}' não encontrado.")
    return muni


def file_kind(name):
    suffix = Path(name).suffix.lower()
    if suffix not in (".csv", ".xlsx"):
        raise click.ClickException("Use um arquivo .csv ou .xlsx (o modelo do município).")
    return suffix[1:]


@click.group("registry-import")
def registry_import_cli():
    """Import of an existing registry (CSV/XLSX)."""


@registry_import_cli.command("template")
@click.option("--municipality", "slug", required=True)
@click.argument("out", type=click.Path(dir_okay=False))
@with_appcontext
def template_command(slug, out):
    """Write the municipality's template (.csv or .xlsx by the file name)."""
    muni = _municipality(slug)
    data = template_xlsx(muni) if file_kind(out) == "xlsx" else template_csv(muni)
    Path(out).write_bytes(data)
    click.echo(f"Modelo de {muni.name} gravado em {out}.")


@registry_import_cli.command("run")
@click.option("--municipality", "slug", required=True)
@click.option("--commit", is_flag=True, help="Gravar (sem esta opção: só a verificação, nada é gravado).")
@click.option("--only-valid", is_flag=True, help="Com --commit: importar as linhas válidas mesmo havendo erros.")
@click.option("--report", type=click.Path(dir_okay=False), help="Gravar os erros (linha, coluna, motivo) em CSV.")
@click.option("--accept", "accept", multiple=True, type=int,
              help="Com --commit: aceitar a linha à espera de decisão (CNH vencida, CPF com outro nome); pode repetir.")
@click.option("--accept-all", is_flag=True, help="Com --commit: aceitar todas as linhas à espera de decisão.")
@click.option("--apply-changes", is_flag=True, help="Com --commit: aplicar as diferenças das permissões já cadastradas.")
@click.option("--act", help="Ato que concede prazo de adequação à frota existente (ex.: 'Decreto nº 12/2026').")
@click.option("--act-until", type=click.DateTime(formats=["%Y-%m-%d"]), help="Último dia desse prazo (AAAA-MM-DD).")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@with_appcontext
def run_command(slug, commit, only_valid, report, accept, accept_all, apply_changes, act, act_until, path):
    """Check (dry run) or import a registry file."""
    muni = _municipality(slug)
    try:
        result = run_import(muni, path, file_kind(path), Path(path).name, commit=commit, only_valid=only_valid,
                            accept=True if accept_all else set(accept), apply_changes=apply_changes, act=act,
                            act_until=act_until.date() if act_until else None)
    except FileProblem as err:
        raise click.ClickException(str(err)) from None
    click.echo(f"{result.rows} linhas: {result.valid} válidas ({result.existing} já cadastradas), "
               f"{result.error_rows} com erros.")
    for _line, column, message in result.warnings:
        click.echo(f"  coluna “{column}”: {message}")
    for line, column, requirement, transition in result.transitions[:50]:
        click.echo(f"  linha {line}, {column}: em transição ({transition}) — {requirement}")
    for line, column, _kind, message in result.decisions[:50]:
        click.echo(f"  linha {line}, {column}: à espera de decisão (--accept {line}) — {message}")
    for line, number, column, before, after in result.changes[:50]:
        click.echo(f"  linha {line}, {number}, {column}: “{before}” → “{after}”"
                   + ("" if apply_changes else " (use --apply-changes para aplicar)"))
    for line, column, message in result.errors[:50]:
        click.echo(f"  linha {line}, {column}: {message}")
    if len(result.errors) > 50:
        click.echo(f"  … e mais {len(result.errors) - 50} erros" + (" (veja o relatório)." if report else "."))
    if report:
        Path(report).write_text(csv_text(["Linha", "Coluna", "Erro"], result.errors), encoding="utf-8")
    if result.committed:
        w = result.written
        click.echo(f"Importado: {w['permit']} {vocabulary(muni).permits}, {w['operator']} pessoas, {w['vehicle']} veículos, "
                   f"{w['company']} empresas; {sum(result.updated.values())} registros atualizados.")
    elif commit:
        raise click.ClickException("Nada foi gravado: corrija as linhas com erro, decida as sinalizadas (--accept) "
                                   "ou use --only-valid.")
    else:
        click.echo("Verificação apenas: nada foi gravado (use --commit para importar).")


@click.command("worker")
@click.option("--once", is_flag=True, help="Sair quando a fila estiver vazia (sem esta opção: espera novos trabalhos).")
@with_appcontext
def worker_command(once):
    """Run the registry import jobs (check and import) queued by the back office."""
    click.echo("Processando importações de cadastro" + (" até esvaziar a fila." if once else " (Ctrl+C para parar)."))
    try:
        ran = work(once=once)
    except KeyboardInterrupt:
        return
    click.echo(f"{ran} trabalho(s) de importação concluído(s).")
