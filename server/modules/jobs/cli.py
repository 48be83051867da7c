"""`flask jobs run-daily`: the daily command (cron / systemd timer, see docs/operations.md)."""
import click
from flask.cli import with_appcontext

from ...core.clock import local_today
from .lock import daily_run_lock
from .registry import run_daily, tasks


@click.group("jobs")
def jobs_cli():
    """Scheduled jobs."""


@jobs_cli.command("run-daily")
@click.option("--date", "on_date", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
              help="Dia a considerar (AAAA-MM-DD); padrão: hoje no fuso do município.")
@click.option("--task", "only", multiple=True, help="Executar só esta tarefa (pode repetir).")
@with_appcontext
def run_daily_command(on_date, only):
    """Run every daily task once; safe to run twice."""
    today = on_date.date() if on_date else local_today()
    known = {task.name for task in tasks()}
    unknown = [name for name in only if name not in known]
    if unknown:
        raise click.BadParameter(f"tarefa desconhecida: {', '.join(unknown)} (conhecidas: {', '.join(sorted(known))})",
                                 param_hint="--task")
    failed = False
    with daily_run_lock() as held:
        if not held:
            click.echo("Outra execução das tarefas diárias está em andamento (neste ou noutro servidor): "
                       "nada foi feito aqui.")
            return
        for task, outcome in run_daily(today, only=set(only) or None):
            if isinstance(outcome, Exception):
                failed = True
                click.echo(f"✗ {task.label}: falhou — {outcome}", err=True)
            else:
                click.echo(f"✓ {task.label}: {outcome}")
    if failed:
        raise SystemExit(1)


@jobs_cli.command("list")
@with_appcontext
def list_command():
    """List the daily tasks in run order."""
    for task in tasks():
        click.echo(f"{task.name:32} {task.label}")
