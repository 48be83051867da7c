"""`flask backup create|restore`."""
import click
from flask.cli import with_appcontext

from ...extensions import db
from .archive import BackupError, create_backup, restore_backup


@click.group("backup")
def backup_cli():
    """Backup and restore (database, evidence, photos, issuer keys)."""


@backup_cli.command("create")
@click.argument("out", type=click.Path(dir_okay=False))
@with_appcontext
def backup_create(out):
    """Write one archive with the database, the files and a manifest of SHA-256 sums."""
    try:
        manifest = create_backup(out)
    except BackupError as err:
        raise click.ClickException(str(err)) from None
    click.echo(f"Backup gravado em {out}: revisão {manifest['schema_revision']}, {len(manifest['sha256'])} arquivos.")
    click.echo("Guarde à parte a senha das chaves (MOTOFISCAL_KEY_PASSPHRASE ou instance/keys/master.key): "
               "ela não vai no backup.")


@backup_cli.command("restore")
@click.argument("archive", type=click.Path(exists=True, dir_okay=False))
@click.option("--app-role", default="motofiscal_app", show_default=True, envvar="MOTOFISCAL_APP_DB_ROLE",
              help="PostgreSQL: o papel com que o aplicativo se conecta, que recebe de novo o acesso às tabelas.")
@click.option("--no-app-role", is_flag=True, help="Não conceder acesso a nenhum papel (restauração de teste, "
              "só com o dono).")
@with_appcontext
def backup_restore(archive, app_role, no_app_role):
    """Restore an archive into an empty database and empty folders (checked first); PostgreSQL:
    grants the app role its rows again and runs ANALYZE."""
    role = None if no_app_role else app_role
    try:
        manifest = restore_backup(archive, app_role=role)
    except BackupError as err:
        raise click.ClickException(str(err)) from None
    click.echo(f"Backup de {manifest['created_at']} restaurado (revisão {manifest['schema_revision']}).")
    if role and db.engine.dialect.name == "postgresql":
        click.echo(f"Papel {role} com acesso às tabelas restauradas; estatísticas atualizadas (ANALYZE).")
