"""`flask municipality create` and `flask users create-admin`: a real municipality without the demo."""
import click
from flask import current_app
from flask.cli import with_appcontext

from ...core.errors import ApiError
from ..registry.models import Municipality
from .operations import NO_PACK, create_admin, create_municipality, municipal_packs


def _fail(err: ApiError):
    details = "; ".join(f"{field}: {' '.join(msgs)}" for field, msgs in (err.fields or {}).items())
    raise click.ClickException(f"{err.message} {details}".strip())


@click.group("municipality")
def municipality_cli():
    """Municipalities (onboarding)."""


@municipality_cli.command("create")
@click.option("--ibge", "ibge_code", required=True, help="Código IBGE (7 dígitos).")
@click.option("--name", required=True, help="Nome do município.")
@click.option("--uf", required=True, help="UF (ex.: MT).")
@click.option("--pack", required=True, help=f"Pacote de regras da lei municipal, ou '{NO_PACK}' (só a camada federal).")
@click.option("--time-zone", default="America/Cuiaba", show_default=True)
@click.option("--public-base-url", required=True, help="Endereço público do servidor (QR dos crachás).")
@click.option("--allow-synthetic-example", "allow_synthetic", is_flag=True,
              help="Aceitar o pacote de um exemplo sintético (município fictício), marcado como exemplo em toda parte.")
@with_appcontext
def municipality_create(ibge_code, name, uf, pack, time_zone, public_base_url, allow_synthetic):
    """Create a municipality, the pontos its law names and its first issuer key."""
    try:
        muni = create_municipality(ibge_code, name, uf, pack, time_zone, public_base_url, allow_synthetic=allow_synthetic)
    except ApiError as err:
        if (err.fields or {}).get("pack"):
            err.fields["pack"].append("Disponíveis: " + ", ".join([*municipal_packs(), NO_PACK]) + ".")
        _fail(err)
    if (muni.settings or {}).get("synthetic_example"):
        click.echo("Atenção: exemplo sintético (município e lei fictícios), marcado como tal em toda parte; não é um município real.")
    click.echo(f"Município {muni.name}/{muni.uf} criado (identificador '{muni.slug}', IBGE {muni.ibge_code}); "
               "chave emissora 1 criada.")
    click.echo(f"Endereço público dos crachás e notificações: {muni.settings['public_base_url']} "
               "(o balanceador deve encaminhar este host a este servidor).")
    if pack == NO_PACK:
        click.echo("Sem pacote da lei municipal: valem só as regras federais até que um pacote seja escrito.")
    for key, setting in (("TIMEZONE", "time_zone"),):
        if current_app.config[key].rstrip("/") != muni.settings[setting]:
            click.echo(f"Atenção: o servidor usa {key}={current_app.config[key]}; defina {key}="
                       f"{muni.settings[setting]} no ambiente (ou instance/config.py) antes de emitir crachás.")


@click.group("users")
def users_cli():
    """Staff accounts (onboarding)."""


@users_cli.command("create-admin")
@click.option("--municipality", "slug", default=None, help="Identificador do município; omita para o "
              "administrador da plataforma.")
@click.option("--username", required=True)
@click.option("--name", required=True)
@click.password_option(help="Senha (ao menos 10 caracteres); pedida no terminal se omitida.")
@with_appcontext
def users_create_admin(slug, username, name, password):
    """Create a municipality's administrator (or the platform's)."""
    muni = None
    if slug is not None:
        muni = Municipality.query.filter_by(slug=slug).first()
        if muni is None:
            raise click.ClickException(f"Município '{slug}' não encontrado.")
    try:
        user = create_admin(muni, username, name, password)
    except ApiError as err:
        _fail(err)
    click.echo(f"Administrador {user.username} criado ({muni.name if muni else 'plataforma'}).")
