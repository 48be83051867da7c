"""Every command answers a missing option or argument with what it expects (issue 36, item 7;
server/cli_expects.py), and `flask credentials issue` says which address its QR opens."""
import click

from server.cli_expects import expected
from server.extensions import db
from server.modules.registry.models import Municipality, Permit

URL = "https://motofiscal.exemplo.mt.gov.br"


def _commands(group, path=()):
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            yield from _commands(command, (*path, name))
        else:
            yield (*path, name), command


def test_every_required_parameter_of_every_command_says_what_it_expects(app):
    silent = []
    ctx = click.Context(app.cli)
    for path, command in _commands(app.cli):
        assert getattr(command, "explains_missing", False), path
        for param in command.params:
            if param.required and not expected(param, ctx):
                silent.append(f"flask {' '.join(path)}: {param.name}")
    assert not silent, f"required parameters that say nothing of what they expect: {silent}"


def test_municipality_create_without_pack_lists_the_packs(app, runner):
    base = ["municipality", "create", "--ibge", "5107875", "--name", "Sapezal", "--uf", "MT", "--public-base-url", URL]
    missing = runner.invoke(args=base)
    assert missing.exit_code == 2
    assert "Missing option '--pack'" in missing.output
    assert "Disponíveis:" in missing.output
    assert "sapezal-lei-125-1999" in missing.output and "paranatinga-lei-311-2007" in missing.output
    assert "nenhum" in missing.output and "serra-azul-do-norte" not in missing.output  # synthetic: only when asked
    synthetic = runner.invoke(args=[*base, "--allow-synthetic-example"])
    assert "serra-azul-do-norte-lei-412-2015" in synthetic.output
    with app.app_context():
        assert Municipality.query.count() == 0


def test_a_missing_municipality_lists_those_registered(app, runner, tmp_path):
    assert runner.invoke(args=["municipality", "create", "--ibge", "5107875", "--name", "Sapezal", "--uf", "MT",
                               "--pack", "sapezal-lei-125-1999", "--public-base-url", URL]).exit_code == 0
    missing = runner.invoke(args=["credentials", "issue", "--permit", "001/2026", "--out", str(tmp_path)])
    assert missing.exit_code == 2
    assert "Missing option '--municipality'" in missing.output
    assert "identificador do município" in missing.output and "Cadastrados: sapezal." in missing.output
    restore = runner.invoke(args=["backup", "restore"])
    assert restore.exit_code == 2 and "flask backup create" in restore.output


def test_credentials_issue_says_which_address_the_qr_opens(app, demo, runner, tmp_path):
    assert runner.invoke(args=["keys", "create", "--municipality", "paranatinga"]).exit_code == 0
    with app.app_context():
        muni = Municipality.query.filter_by(slug="paranatinga").one()
        number = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first().number
        db.session.remove()
    args = ["credentials", "issue", "--permit", number, "--municipality", "paranatinga"]
    default = runner.invoke(args=[*args, "--out", str(tmp_path / "a")])
    assert default.exit_code == 0, default.output
    assert "O QR abre http://localhost:5000/V/" in default.output
    assert "PUBLIC_BASE_URL não foi definido" in default.output  # the development default, said so
    app.config["PUBLIC_BASE_URL"] = "https://motofiscal.exemplo.mt.gov.br:8443"
    configured = runner.invoke(args=[*args, "--out", str(tmp_path / "b"), "--reason", "dados alterados"])
    assert configured.exit_code == 0, configured.output
    assert "O QR abre https://motofiscal.exemplo.mt.gov.br:8443/V/" in configured.output
    assert "não foi definido" not in configured.output
    assert (tmp_path / "b" / "cracha-000002.txt").read_text().startswith("HTTPS://MOTOFISCAL.EXEMPLO.MT.GOV.BR:8443/V/")
