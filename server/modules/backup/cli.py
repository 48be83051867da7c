"""`flask backup create|restore`."""
import click
from flask.cli import with_appcontext

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
@with_appcontext
def backup_restore(archive):
    """Restore an archive into an empty database and empty folders (checked first)."""
    try:
        manifest = restore_backup(archive)
    except BackupError as err:
        raise click.ClickException(str(err)) from None
    click.echo(f"Backup de {manifest['created_at']} restaurado (revisão {manifest['schema_revision']}).")
