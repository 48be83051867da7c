"""The checker a municipal analyst runs on a pack (`flask rules lint`, the back office's preview):
every problem is said in the law's terms — the article, paragraph, inciso the entry cites — with
what is wrong and how to fix it, in pt-BR. It gathers: the pack schema, the composition with the
federal layer and the configuration (SPEC §2, §9), citations against the law text (article,
paragraph, inciso and the quoted words), the coverage of every provision, and authoring slips
(an infraction nothing proposes, a question without its compliant answer, a registry fact the
product cannot fill, a stub never reviewed).

Each problem: {"severity": "erro" | "aviso", "where_pt", "problem_pt", "fix_pt", "file", "path"}.
Errors keep a pack from being published; warnings are for the analyst to weigh."""
import json
import re
import unicodedata
from pathlib import Path

import jsonschema

from ..compose import ComposedRules
from ..expr import DATE_VAR
from . import coverage as coverage_mod
from . import law_text

STUB = "A CONFERIR"
_SCHEMA_DIR = Path(__file__).resolve().parents[3] / "shared_rules" / "schemas"
_ENTRY_KIND_PT = {"requirements": "requisito", "infractions": "infração", "recidivism": "reincidência",
                  "escalations": "agravamento", "history_cancellation": "cancelamento de registro",
                  "deadlines": "prazo", "auto_fields": "campo do auto", "errata": "errata", "vetoes": "veto"}

# What each composition problem means, and its fix (SPEC §7 reason codes).
REASONS = {
    "type_error": ("a condição compara ou combina valores de tipos diferentes (número com texto, data com número, "
                   "ou uma condição que não dá sim/não)",
                   "confira o tipo do fato em “facts” e o valor com que ele é comparado (números sem aspas, "
                   "datas com {\"date\": \"AAAA-MM-DD\"})"),
    "arity": ("o operador recebeu um número errado de argumentos",
              "veja na tabela de operadores (SPEC §4) quantos argumentos ele leva"),
    "unknown_fact": ("a condição lê um fato que não está declarado em “facts”",
                     "declare o fato em “facts” (tipo, rótulo, origem: checklist ou cadastro) ou corrija o nome"),
    "unknown_operator": ("a condição usa um operador que não existe",
                         "use um dos operadores do SPEC §4 (==, <=, and, or, years_between_cc…)"),
    "invalid_expression": ("a condição não é uma expressão válida (um objeto deve ter um único operador)",
                           "escreva {\"operador\": [argumentos]}; veja os exemplos do guia"),
    "invalid_date": ("uma data não é válida", "use AAAA-MM-DD com um dia que exista"),
    "not_in_values": ("a condição compara um fato de escolha com um valor que não está na sua lista",
                      "use um dos valores declarados em “values” do fato (a grafia conta)"),
    "unknown_reference": ("a entrada aponta para um id que não existe (ou de outra seção)",
                          "corrija o id: ele deve ser de uma entrada da seção certa (on_fail → infrações, "
                          "recidivism → reincidências, displaces → infrações)"),
    "unknown_law": ("a citação aponta para uma lei que não está em “laws”",
                    "use a chave de uma lei de “laws” (ou acrescente a lei, com número, data e texto)"),
    "unknown_penalty": ("o agravamento conta uma penalidade que nenhuma infração da lei tem",
                        "use o tipo de penalidade (ou alternativa) de alguma infração desta lei"),
    "unknown_group": ("o agravamento conta um grupo que nenhuma infração da lei tem",
                      "use os grupos escritos nas infrações (ex.: \"C\", \"D\")"),
    "duplicate_id": ("o id já existe, ou há duas redações da mesma entrada em vigor no mesmo dia",
                     "dê outro id; numa alteração de lei, a nova redação leva o mesmo id e começa "
                     "(effective_from) depois da anterior"),
    "fact_conflict": ("o fato já foi declarado com outro tipo, unidade ou valores por outro pacote",
                      "use o mesmo tipo, unidade e valores, ou outro nome de fato"),
    "invalid_option": ("a configuração dá a um veto um resultado que não existe",
                       "use pending, veto_upheld ou veto_overridden"),
}


def _fold(text):
    text = unicodedata.normalize("NFKD", text or "").encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", " ", text).strip()


def _problem(severity, where, problem, fix, file, path):
    return {"severity": severity, "where_pt": where, "problem_pt": problem, "fix_pt": fix, "file": file, "path": path}


def _entry_at(pack, path):
    """(section, entry) of a JSON pointer inside a pack, or (None, None)."""
    parts = [p for p in path.split("/") if p]
    if len(parts) >= 2 and parts[0] in _ENTRY_KIND_PT and parts[1].isdigit():
        items = pack.get(parts[0]) or []
        idx = int(parts[1])
        if idx < len(items) and isinstance(items[idx], dict):
            return parts[0], items[idx]
    if len(parts) >= 2 and parts[0] == "facts":
        return "facts", {"id": parts[1]}
    if len(parts) >= 2 and parts[0] == "coverage" and parts[1].isdigit():
        items = pack.get("coverage") or []
        idx = int(parts[1])
        if idx < len(items):
            return "coverage", {"citation": items[idx]}
    return None, None


def cite_pt(laws, citation):
    """'Lei 412/2015, art. 19, V' from a citation and the pack's laws."""
    if not isinstance(citation, dict):
        return ""
    law = laws.get(citation.get("law")) or {}
    name = law.get("cite_as") or (f"Lei {law['number']}" if law.get("number") else citation.get("law") or "?")
    label = law_text.label_pt(law_text.citation_key(citation)).replace(", caput", "")
    return f"{name}, {label[0].lower()}{label[1:]}"


def where_pt(pack, laws, path):
    section, entry = _entry_at(pack, path)
    if section is None:
        return "Pacote"
    if section == "facts":
        return f"Fato {entry['id']}"
    if section == "coverage":
        return f"Declaração de cobertura ({cite_pt(laws, {**entry['citation'], 'law': next(iter(laws), '')})})"
    cited = cite_pt(laws, entry.get("citation"))
    what = f"{_ENTRY_KIND_PT[section]} {entry.get('id', '?')}"
    return f"{cited} ({what})" if cited else what.capitalize()


def schema_problems(pack, file):
    schema = json.loads((_SCHEMA_DIR / "pack.schema.json").read_text(encoding="utf-8"))
    laws = pack.get("laws") if isinstance(pack.get("laws"), dict) else {}
    out = []
    for err in sorted(jsonschema.Draft202012Validator(schema).iter_errors(pack), key=lambda e: list(e.absolute_path)):
        path = "".join(f"/{p}" for p in err.absolute_path)
        field = err.absolute_path[-1] if err.absolute_path else "pacote"
        out.append(_problem("erro", where_pt(pack, laws, path),
                            f"o campo “{field}” não segue o formato: {err.message[:180]}",
                            "corrija o campo conforme o formato de pacotes (SPEC §3) — o guia traz um exemplo de cada entrada",
                            file, path))
    return out


def composition_problems(pack, others, config, file):
    """Problems of composing the pack with the federal layer (and, for an amendment, the pack it
    amends), explained."""
    packs = [p for p in others if p.get("id") != pack.get("id")] + [pack]
    names = [p.get("id", "?") for p in packs]
    rules = ComposedRules(packs, config, names)
    laws = {**{k: v for p in others if p.get("id") == pack.get("amends") for k, v in (p.get("laws") or {}).items()},
            **(pack.get("laws") or {})}
    out = []
    for prob in rules.problems:
        mine = prob["file"] == pack.get("id")
        meaning, fix = REASONS.get(prob["reason"], (prob["reason"], "veja SPEC §7"))
        if prob["path"] == "/amends":
            meaning, fix = (f"o pacote diz alterar “{pack.get('amends')}”, que não é o pacote de uma lei deste município",
                            "use em “amends” o id do pacote da lei que a alteração altera")
        detail = _detail(pack if mine else {}, prob)
        out.append(_problem("erro", where_pt(pack, laws, prob["path"]) if mine else f"Pacote {prob['file']}",
                            meaning + detail, fix, file if mine else prob["file"], prob["path"]))
    return out, (rules if not rules.problems else None)


def _detail(pack, prob):
    """The offending value, when the pointer reaches it (the id, the fact name)."""
    node = pack
    for part in [p for p in prob["path"].split("/") if p]:
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return ""
    if isinstance(node, dict) and "var" in node:
        node = node["var"]
    return f": “{node}”" if isinstance(node, (str, int, float)) and not isinstance(node, bool) else ""


def citation_problems(pack, laws, texts, file):
    """Every citation against the text of its law: the article exists, the paragraph and inciso
    exist in it, and the quoted words are there (accents, case and punctuation aside)."""
    out = []
    parsed = {}
    for key, law in laws.items():
        text = texts.get(law.get("source_file") or "")
        if text is not None:
            parsed[key] = {p.key: p for p in law_text.parse(text)}
    for section in _ENTRY_KIND_PT:
        for i, entry in enumerate(pack.get(section) or []):
            for sub, cit in coverage_mod._nested(entry, f"/{section}/{i}"):
                out += _check_citation(pack, laws, parsed, cit, sub, file)
                if isinstance(cit.get("amended_by"), dict):
                    out += _check_citation(pack, laws, parsed, cit["amended_by"], f"{sub}/amended_by", file)
    for i, decl in enumerate(pack.get("coverage") or []):
        law_key = next((k for k in laws if k in parsed and not laws[k].get("amends")), None)
        if law_key:
            out += _check_citation(pack, laws, parsed, {**decl, "law": law_key}, f"/coverage/{i}", file, text_check=False)
    return out


def _check_citation(pack, laws, parsed, cit, path, file, text_check=True):
    provisions = parsed.get(cit.get("law"))
    if provisions is None:
        return []
    amended = cit.get("amended_by")
    if isinstance(amended, dict):
        # The provision as an amending act worded or added it: its words are the act's (checked
        # against the act's text, when the pack has it), and an added one is not in the original.
        if amended.get("kind") == "inclusao":
            return []
        text_check = False
    key = law_text.citation_key(cit)
    where = where_pt(pack, laws, path)
    name = cite_pt(laws, cit)
    arts = {k[0] for k in provisions}
    if key[0] not in arts:
        return [_problem("erro", where, f"a citação aponta o art. {key[0]}, que não existe no texto da lei",
                         f"confira o número do artigo no texto ({', '.join(sorted(arts, key=_num)[:3])}… {len(arts)} artigos)",
                         file, f"{path}/art")]
    match = provisions.get(key) or next((p for k, p in provisions.items()
                                         if coverage_mod._covers(key, k)), None)
    if match is None:
        present = [law_text.label_pt(k) for k in provisions if k[0] == key[0]]
        return [_problem("erro", where, f"{name} não existe no texto: o artigo tem {', '.join(present)}",
                         "corrija parágrafo/inciso/alínea da citação (parágrafo único = \"unico\"); se o texto "
                         "remete a um dispositivo que não existe, registre uma errata e declare a leitura",
                         file, path)]
    excerpt = cit.get("text")
    if text_check and excerpt:
        words = _fold(excerpt.replace("…", " ").replace("...", " "))
        where_text = " ".join(_fold(p.text) for k, p in provisions.items() if coverage_mod._covers(key, k))
        chunks = [c for c in re.split(r"\s{2,}|\.\.\.|…", excerpt) if c.strip()]
        if not all(_fold(c) in where_text for c in chunks) and words not in where_text:
            return [_problem("aviso", where, f"o trecho citado não aparece em {name}: “{excerpt[:80]}”",
                             "copie o trecho do texto da lei tal como escrito (pode abreviar com …)", file, f"{path}/text")]
    return []


def _num(art):
    m = re.match(r"\d+", art)
    return (int(m[0]) if m else 0, art)


def coverage_problems(packs, laws, texts, file, own=None):
    """Every provision of the laws the pack itself encodes (`own`: its law keys; an amendment's
    acts and the law it amends are the amended pack's to cover)."""
    out, reports = [], {}
    for key, law in laws.items():
        if own is not None and key not in own:
            continue
        text = texts.get(law.get("source_file") or "")
        if text is None or law.get("amends") or law.get("jurisdiction") != "municipal":
            continue
        rep = coverage_mod.report(packs, key, text)
        reports[key] = rep
        for label in rep["missing"]:
            out.append(_problem("erro", f"{law.get('cite_as') or key}, {label[0].lower()}{label[1:]}",
                                "o dispositivo não foi codificado nem declarado",
                                "codifique-o (requisito, infração, prazo…) citando-o, ou declare-o em “coverage” "
                                "como not_applicable (por quê), decree (a chave de configuração) ou reading "
                                "(a leitura e as alternativas)", file, "/coverage"))
        for label in rep["declared_not_in_text"]:
            out.append(_problem("erro", f"{law.get('cite_as') or key}, {label}",
                                "a declaração de cobertura aponta um dispositivo que não existe no texto",
                                "corrija artigo, parágrafo ou inciso da declaração", file, "/coverage"))
    return out, reports


def authoring_problems(pack, rules, fact_source, file):
    """Slips a law-reader makes that the format accepts."""
    laws = pack.get("laws") or {}
    out = []
    reached = {ref for r in pack.get("requirements") or [] for ref in r.get("on_fail") or []}
    if rules is not None:
        reached |= {ref for r in rules.requirements for ref in r.get("on_fail") or []}
    for i, inf in enumerate(pack.get("infractions") or []):
        if inf.get("id") not in reached and not inf.get("selectable") and inf.get("status") != "vetoed":
            out.append(_problem("aviso", where_pt(pack, laws, f"/infractions/{i}"),
                                "nenhum requisito propõe esta infração (nenhum on_fail a aponta) e ela não é selecionável",
                                "acrescente o id ao on_fail do requisito que a descreve, ou marque \"selectable\": true "
                                "se o fiscal a escolhe sem item de checklist", file, f"/infractions/{i}"))
    for section in _ENTRY_KIND_PT:
        for i, entry in enumerate(pack.get(section) or []):
            if str(entry.get("note") or "").startswith(STUB):
                out.append(_problem("aviso", where_pt(pack, laws, f"/{section}/{i}"),
                                    "entrada gerada pelo esqueleto e ainda não conferida",
                                    "confira rótulo, condição, penalidade e valor com o texto e apague a nota "
                                    f"“{STUB}”", file, f"/{section}/{i}/note"))
    ids = {e.get("id") for section in _ENTRY_KIND_PT for e in pack.get(section) or []} | set(pack.get("options") or {})
    if rules is not None:
        ids |= set(rules.by_id)
    for i, decl in enumerate(pack.get("coverage") or []):
        for eid in decl.get("entries") or []:
            if eid not in ids:
                out.append(_problem("erro", f"Declaração de cobertura do art. {decl.get('art')}",
                                    f"aponta a entrada “{eid}”, que não existe", "use o id de uma entrada ou opção do pacote",
                                    file, f"/coverage/{i}/entries"))
    used = set()
    for r in pack.get("requirements") or []:
        used |= set(_vars(r.get("holds"))) | set(_vars(r.get("applies_when")))
    for name, decl in (pack.get("facts") or {}).items():
        if not isinstance(decl, dict):
            continue
        ck = decl.get("checklist") or {}
        if decl.get("source") == "checklist" and decl.get("type") == "bool" and "compliant_if" not in ck \
                and name in used and not _situation(pack, name):
            out.append(_problem("aviso", f"Fato {name}", "pergunta de sim/não sem a resposta que é conformidade",
                                "diga em checklist.compliant_if qual resposta é “Conforme” (true ou false); só as "
                                "perguntas sobre a situação (há passageiro?) ficam sem ela", file, f"/facts/{name}/checklist"))
        if decl.get("source") == "checklist" and not ck.get("prompt_pt"):
            out.append(_problem("erro", f"Fato {name}", "fato de checklist sem a pergunta ao fiscal",
                                "escreva checklist.prompt_pt", file, f"/facts/{name}"))
        if fact_source is not None and decl.get("source") == "registry" and name in used \
                and fact_source(name, decl) is None:
            out.append(_problem("erro", f"Fato {name}", "fato de cadastro que o sistema não sabe preencher",
                                "use um fato de cadastro existente (lista no guia) ou declare "
                                "\"document\": {\"prompt_pt\", \"subject\"} para o back office conferir o documento",
                                file, f"/facts/{name}"))
    return out


def _situation(pack, name):
    """True when the fact only decides applicability (a situation question, no compliant answer)."""
    return all(name not in _vars(r.get("holds")) for r in pack.get("requirements") or [])


def _vars(expr):
    if isinstance(expr, dict):
        for op, args in expr.items():
            if op == "var" and isinstance(args, str) and args != DATE_VAR:
                yield args
            else:
                yield from _vars(args)
    elif isinstance(expr, list):
        for a in expr:
            yield from _vars(a)


def table_problems(results, table_name):
    out = []
    for row in results:
        for message in row["problems"]:
            out.append(_problem("erro", f"Tabela {table_name}, linha {row['line']} ({row['name']})",
                                message, "confira a linha com o texto da lei: ou o pacote ou o resultado esperado "
                                "está errado", table_name, f"linha {row['line']}"))
        if row.get("case") is not None and not row.get("note"):
            out.append(_problem("aviso", f"Tabela {table_name}, linha {row['line']} ({row['name']})",
                                "o caso não diz o que testa", "escreva na coluna “nota” o artigo e o inciso que o "
                                "caso verifica", table_name, f"linha {row['line']}"))
    return out


def check_pack(pack, others, config, texts, fact_source=None, file="pacote", amendments=()):
    """-> (problems, composed rules or None, coverage reports). `others`: the federal packs (and,
    for an amendment, the pack it amends); `texts`: {source_file: text}; `amendments`: amendment
    packs of this pack, whose entries count toward its coverage."""
    problems = schema_problems(pack, file)
    if problems:
        return problems, None, {}
    laws = {**{k: v for p in others if p.get("id") == pack.get("amends") for k, v in (p.get("laws") or {}).items()},
            **(pack.get("laws") or {})}
    composed, rules = composition_problems(pack, list(others) + list(amendments), config, file)
    problems += composed
    problems += citation_problems(pack, laws, texts, file)
    base = [p for p in others if p.get("id") == pack.get("amends")]
    cov, reports = coverage_problems(base + [pack] + list(amendments), laws, texts, file, own=set(pack.get("laws") or {}))
    problems += cov
    problems += authoring_problems(pack, rules, fact_source, file)
    return problems, rules, reports


def as_text(problems):
    if not problems:
        return "Nenhum problema encontrado."
    lines = []
    for p in problems:
        lines.append(f"[{p['severity']}] {p['where_pt']}: {p['problem_pt']}.\n    Como corrigir: {p['fix_pt']}.")
    errors = sum(p["severity"] == "erro" for p in problems)
    lines.append(f"{errors} erro(s), {len(problems) - errors} aviso(s).")
    return "\n".join(lines)
