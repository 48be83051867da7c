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
@click.option("--valid-from", help="Decree amount or deadline: in force from (YYYY-MM-DD)")
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


# -- authoring a pack (docs/guia-codificacao-de-leis.md) ----------------------------------------

def _write_new(path, content, force):
    if path.exists() and not force:
        raise click.ClickException(f"{path} já existe (use --force para substituir).")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")
    click.echo(f"  criado {path}")


@rules_cli.command("scaffold")
@click.option("--law", "law_file", required=True, type=click.Path(exists=True, dir_okay=False),
              help="O texto da lei (.txt), copiado em shared_rules/laws/.")
@click.option("--municipality", "slug", required=True, help="Identificador do município (ex.: serra-azul-do-norte).")
@click.option("--prefix", default=None, help="Prefixo dos ids das entradas (ex.: saz).")
@click.option("--root", type=click.Path(exists=True, file_okay=False), default=str(REPO_ROOT))
@click.option("--force", is_flag=True, help="Substituir arquivos existentes.")
def rules_scaffold(law_file, slug, prefix, root, force):
    """Start a pack from a law text: pack, configuration, vectors table and provisions worksheet."""
    import shutil

    from ...rules.authoring.scaffold import scaffold

    root = Path(root)
    law_file = Path(law_file)
    laws_dir = root / "shared_rules" / "laws"
    if law_file.resolve().parent != laws_dir.resolve():
        target = laws_dir / law_file.name
        if target.exists() and not force:
            raise click.ClickException(f"{target} já existe (use --force para substituir).")
        shutil.copyfile(law_file, target)
        click.echo(f"  copiado o texto para {target}")
    text = law_file.read_text(encoding="utf-8")
    pack, config, table, sheet = scaffold(text, slug, law_file.name, prefix)
    sr = root / "shared_rules"
    _write_new(sr / "packs" / f"{pack['id']}.json", json.dumps(pack, ensure_ascii=False, indent=1) + "\n", force)
    _write_new(sr / "config" / f"{slug}.json", json.dumps(config, ensure_ascii=False, indent=1) + "\n", force)
    _write_new(sr / "vectors" / "tables" / f"{slug}.csv", table, force)
    _write_new(sr / "NOTES" / f"provisions-{pack['id']}.csv", sheet, force)
    click.echo(f"{len(pack['infractions'])} infração(ões) e {len(pack['deadlines'])} prazo(s) esboçados do texto "
               f"(nota “A CONFERIR”). Próximo passo: `flask rules lint --pack {pack['id']}` e o guia "
               "docs/guia-codificacao-de-leis.md.")


def _pack_files(root):
    from ...rules.compose import read_packs
    return read_packs(Path(root) / "shared_rules" / "packs")


def lint_pack(root, pack_id):
    """(problems, composed rules, coverage reports, pack) for a pack on disk."""
    from ...rules.authoring.checker import check_pack, table_problems
    from ...rules.vector_table import run_table, table_files
    from ..registry.facts import fact_source

    named = _pack_files(root)
    path = Path(pack_id)
    if path.suffix == ".json" and path.is_file():
        # A pack file outside shared_rules/packs/ (an amendment to publish beside the shipped ones).
        pack = _read_json(path, "--pack")
        named = [(n, p) for n, p in named if p.get("id") != pack.get("id")] + [(path.name, pack)]
        pack_id = pack.get("id")
    pack = next((p for _, p in named if p.get("id") == pack_id), None)
    if pack is None:
        raise click.BadParameter(f"pacote desconhecido: {pack_id}", param_hint="--pack")
    others = [p for _, p in named if p.get("kind") == "federal" or p.get("id") == pack.get("amends")]
    amendments = [p for _, p in named if p.get("amends") == pack_id]
    slug = pack.get("municipality")
    cfg_path = Path(root) / "shared_rules" / "config" / f"{slug}.json"
    config = json.loads(cfg_path.read_text(encoding="utf-8")) if cfg_path.exists() else {"municipality": slug}
    from ...rules.authoring.law_text import load_texts

    problems, rules, reports = check_pack(pack, others, config, load_texts(root), fact_source,
                                         file=f"shared_rules/packs/{pack_id}.json", amendments=amendments)
    if rules is not None and not pack.get("amends"):
        for table in table_files(root):
            if table.name.split(".")[0] == slug:
                problems += table_problems(run_table(table, Path(root) / "shared_rules" / "packs",
                                                     Path(root) / "shared_rules" / "config"),
                                           f"shared_rules/vectors/tables/{table.name}")
    return problems, rules, reports, pack


@rules_cli.command("lint")
@click.option("--pack", "pack_id", required=True,
              help="Id do pacote (ex.: serra-azul-do-norte-lei-412-2015) ou o caminho de um arquivo .json.")
@click.option("--root", type=click.Path(exists=True, file_okay=False), default=str(REPO_ROOT))
def rules_lint(pack_id, root):
    """Check a pack as its law reads: each problem with its article and the fix (pt-BR)."""
    from ...rules.authoring.checker import as_text

    problems, _, _, _ = lint_pack(root, pack_id)
    click.echo(as_text(problems))
    if any(p["severity"] == "erro" for p in problems):
        sys.exit(1)


@rules_cli.command("coverage")
@click.option("--pack", "pack_id", required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text")
@click.option("--out", "out_file", type=click.Path(dir_okay=False), default=None)
@click.option("--root", type=click.Path(exists=True, file_okay=False), default=str(REPO_ROOT))
def rules_coverage(pack_id, fmt, out_file, root):
    """Every provision of the law: encoded, not applicable, left to a decree, or a reading."""
    from ...rules.authoring import coverage

    problems, _, reports, pack = lint_pack(root, pack_id)
    chunks = []
    for law_key, rep in reports.items():
        law = pack["laws"].get(law_key) or {}
        title = f"Cobertura da {law.get('cite_as') or law_key} ({pack.get('title_pt') or pack_id})"
        if fmt == "markdown":
            chunks.append(coverage.as_markdown(rep, title))
        elif fmt == "json":
            chunks.append(json.dumps(rep, ensure_ascii=False, indent=1))
        else:
            chunks.append(coverage.as_text(rep, title))
    text = "\n\n".join(chunks) + "\n"
    if out_file:
        Path(out_file).write_text(text, encoding="utf-8")
        click.echo(f"Relatório gravado em {out_file}.")
    else:
        click.echo(text, nl=False)
    if any(rep["missing"] for rep in reports.values()):
        sys.exit(1)


@rules_cli.command("table")
@click.argument("table_file", type=click.Path(exists=True, dir_okay=False))
@click.option("--root", type=click.Path(exists=True, file_okay=False), default=str(REPO_ROOT))
def rules_table(table_file, root):
    """Run a vectors table (CSV: facts → expected outcome) and say which rows disagree."""
    from ...rules.vector_table import run_table

    results = run_table(table_file, Path(root) / "shared_rules" / "packs", Path(root) / "shared_rules" / "config")
    bad = [r for r in results if r["problems"]]
    for r in bad:
        click.echo(f"linha {r['line']} ({r['name']}):", err=True)
        for message in r["problems"]:
            click.echo(f"  {message}", err=True)
    click.echo(f"{len(results) - len(bad)} de {len(results)} caso(s) conferem.")
    if bad:
        sys.exit(1)
