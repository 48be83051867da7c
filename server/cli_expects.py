"""What a command expects, said when an option or argument is missing (issue 36: `municipality
create` without `--pack` answered "Missing option" instead of listing the packs). Click's own line
("Missing option '--pack'.") is followed by what the value is — the option's help, or the words
below for the names our commands share — and, where the values are known, the available ones:
rule packs from shared_rules/packs, municipalities from the database (best effort: a database that
does not answer only loses the list). tests/test_cli_expects.py fails for a required option or
argument of any command that says nothing here."""
import click

# Values shared by name (the parameter's Python name) across commands, for those without help.
WORDS = {
    "slug": "o identificador do município (ex.: sapezal)",
    "number": "o número da permissão (ex.: 001/2026)",
    "out_dir": "a pasta onde gravar os arquivos (criada se não existir)",
    "out": "o arquivo a gravar",
    "archive": "o arquivo .tar gerado por `flask backup create`",
    "path": "a planilha do cadastro (.xlsx ou .csv, do modelo `registry-import template`)",
    "payload": "o conteúdo do QR do crachá (HTTPS://HOST/V/… ou MF1:…)",
    "kid": "o número da chave emissora (veja `flask keys list --municipality …`)",
    "serial": "o número de série do crachá",
    "reason": "o motivo, em poucas palavras (vai para o registro de auditoria)",
    "table_file": "a tabela de vetores (.json) a conferir",
    "facts_file": "um arquivo JSON com os fatos a avaliar ({\"fato\": valor, …})",
    "username": "o nome de usuário (login)",
    "name": "o nome completo",
}


def _municipalities(ctx):
    from flask.cli import ScriptInfo

    from .core.tenancy import crossing_municipalities
    from .modules.registry.models import Municipality

    try:
        app = ctx.ensure_object(ScriptInfo).load_app()
        with app.app_context(), crossing_municipalities("command line: the municipalities a command may name"):
            slugs = [m.slug for m in Municipality.query.order_by(Municipality.slug)]
    except Exception:  # no database yet, or not reachable: the words above still say what to give
        return None
    return "Cadastrados: " + (", ".join(slugs) if slugs else "nenhum ainda (flask municipality create)") + "."


def _packs(include_synthetic):
    from .modules.onboarding.operations import NO_PACK, municipal_packs
    return "Disponíveis: " + ", ".join([*sorted(municipal_packs(include_synthetic=include_synthetic)), NO_PACK]) + "."


def _pack_ids(_ctx):
    from .rules.compose import read_packs
    return "Disponíveis: " + ", ".join(sorted(p["id"] for _, p in read_packs())) + "."


def _values(param, ctx, args):
    if param.name == "slug":
        return _municipalities(ctx)
    if param.name == "pack":  # municipality create: the municipal laws (a synthetic example's only when asked)
        return _packs(include_synthetic="--allow-synthetic-example" in args)
    if param.name == "pack_id":
        return _pack_ids(ctx)
    return None


def expected(param, ctx, args=()):
    """The pt-BR lines that say what `param` expects (empty when nothing is known)."""
    lines = []
    words = getattr(param, "help", None) or WORDS.get(param.name)
    if words:
        lines.append(f"Esperado: {words}")
    values = _values(param, ctx, args)
    if values is None and isinstance(param.type, click.Choice):
        values = "Valores: " + ", ".join(map(str, param.type.choices)) + "."
    if values:
        lines.append(values)
    return "\n".join(lines)


def explain_missing_parameters(group):
    """Every command of `group` (and of its subgroups) answers a missing parameter with `expected`."""
    for command in group.commands.values():
        if isinstance(command, click.Group):
            explain_missing_parameters(command)
        elif not getattr(command, "explains_missing", False):
            command.make_context = _explaining(command.make_context)
            command.explains_missing = True


def _explaining(make_context):
    def wrapped(info_name, args, parent=None, **extra):
        given = list(args)
        try:
            return make_context(info_name, args, parent=parent, **extra)
        except click.MissingParameter as err:
            if err.param is not None:
                text = expected(err.param, parent or err.ctx, given)
                if text:
                    err.message = f"{err.message}\n{text}" if err.message else text
            raise
    return wrapped
