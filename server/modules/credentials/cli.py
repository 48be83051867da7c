"""`flask keys create|rotate|revoke|list` and `flask credentials issue|verify|revoke`."""
import json
from datetime import datetime, timezone

import click
from flask import current_app
from flask.cli import with_appcontext

from ...config import DEFAULTS
from ...core import transaction
from ...core.errors import ApiError
from ...extensions import db
from ..registry.models import Municipality
from . import operations as ops
from .models import Credential, IssuerKey
from .verifier import prepare_trust, verify


def _fail(err: ApiError):
    raise click.ClickException(err.message)


@click.group("keys")
def keys_cli():
    """Issuer keys (Ed25519, one active per municipality)."""


@keys_cli.command("create")
@click.option("--municipality", "slug", required=True)
@with_appcontext
def keys_create(slug):
    """Create the municipality's first (or next, after a revocation) issuer key."""
    try:
        key = ops.create_key(ops.municipality_by_slug(slug))
    except ApiError as err:
        _fail(err)
    click.echo(f"Chave {key.kid} criada para {slug}: {key.public_key}")


@keys_cli.command("rotate")
@click.option("--municipality", "slug", required=True)
@with_appcontext
def keys_rotate(slug):
    """New active key; the previous one keeps verifying what it signed."""
    try:
        key = ops.rotate_key(ops.municipality_by_slug(slug))
    except ApiError as err:
        _fail(err)
    click.echo(f"Chave {key.kid} ativa para {slug}; a anterior foi aposentada.")


@keys_cli.command("revoke")
@click.option("--municipality", "slug", required=True)
@click.option("--kid", type=int, required=True)
@click.option("--reason", required=True)
@with_appcontext
def keys_revoke(slug, kid, reason):
    """Revoke a compromised key: every credential it signed becomes INVÁLIDO."""
    try:
        ops.revoke_key(ops.municipality_by_slug(slug), kid, reason)
    except ApiError as err:
        _fail(err)
    click.echo(f"Chave {kid} de {slug} revogada. Reemita os crachás assinados por ela.")


@keys_cli.command("list")
@click.option("--municipality", "slug", required=True)
@with_appcontext
def keys_list(slug):
    try:
        muni = ops.municipality_by_slug(slug)
    except ApiError as err:
        _fail(err)
    for key in IssuerKey.query.filter_by(municipality_id=muni.id).order_by(IssuerKey.kid):
        click.echo(f"{key.kid:>3} {key.status:8} {key.public_key} {key.revoked_reason or ''}".rstrip())


@click.group("credentials")
def credentials_cli():
    """Crachás: issue and verify."""


@credentials_cli.command("issue")
@click.option("--permit", "number", required=True)
@click.option("--municipality", "slug", required=True)
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False))
@click.option("--reason", default="emissão")
@with_appcontext
def credentials_issue(number, slug, out_dir, reason):
    """Issue (or re-issue) the permit's crachá; writes payload, PNG, PDF and vest stickers."""
    try:
        permit = ops.find_permit(ops.municipality_by_slug(slug), number)
        credential = ops.issue_credential(permit, reason=reason)
    except ApiError as err:
        _fail(err)

    def hand_over():  # the printable files only once the crachá they carry is on record
        files = ops.write_files(credential, out_dir)
        click.echo(f"Credencial série {credential.serial} emitida, válida até {credential.expires_on:%d/%m/%Y}.")
        for path in files.values():
            click.echo(f"  {path}")
        _say_where_the_qr_points(credential, permit)

    transaction.after_commit(hand_over)


def _say_where_the_qr_points(credential, permit):
    """The QR opens PUBLIC_BASE_URL: printed, with a warning when it is the development default (the
    README's `make run` on :5000) or not the address recorded for the municipality — a crachá
    printed with the wrong address sends every roadside check elsewhere."""
    base = current_app.config["PUBLIC_BASE_URL"].rstrip("/")
    click.echo(f"O QR abre {base}/V/… (PUBLIC_BASE_URL).")
    if base == DEFAULTS["PUBLIC_BASE_URL"].rstrip("/"):
        click.echo(f"Atenção: PUBLIC_BASE_URL não foi definido e vale {base}, o endereço do `make run`. Se o "
                   "servidor atende em outro endereço ou porta, defina PUBLIC_BASE_URL (ambiente ou "
                   "instance/config.py) e emita de novo (--reason \"dados alterados\").")
    recorded = (db.session.get(Municipality, permit.municipality_id).settings or {}).get("public_base_url")
    if recorded and recorded.rstrip("/") != base:
        click.echo(f"Atenção: o endereço público cadastrado para o município é {recorded}, mas o servidor usa "
                   f"PUBLIC_BASE_URL={base}.")


@credentials_cli.command("revoke")
@click.option("--serial", type=int, required=True)
@click.option("--municipality", "slug", required=True)
@click.option("--reason", required=True)
@with_appcontext
def credentials_revoke(serial, slug, reason):
    try:
        muni = ops.municipality_by_slug(slug)
        credential = Credential.query.filter_by(municipality_id=muni.id, serial=serial).first()
        if credential is None:
            raise ApiError(404, "not_found", f"Credencial {serial} não encontrada.")
        ops.revoke_credential(credential, reason)
    except ApiError as err:
        _fail(err)
    click.echo(f"Credencial {serial} revogada.")


@credentials_cli.command("verify")
@click.argument("payload")
@with_appcontext
def credentials_verify(payload):
    """Verify a payload against this server's current data; prints the verdict as JSON."""
    muni, body = ops.payload_municipality(payload)
    if muni is None:  # malformed, or not ours: any municipality's trust data gives the verdict
        muni = Municipality.query.order_by(Municipality.id).first()
        if muni is None:
            raise click.ClickException("Nenhum município cadastrado.")
        data = ops.trust_data(muni, with_entries=False)
    else:
        data = ops.trust_for_payload(muni, body)
    result = verify(payload, prepare_trust(data), datetime.now(timezone.utc))
    click.echo(json.dumps(result, ensure_ascii=False, indent=1))
