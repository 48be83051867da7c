"""`rules check`: schemas, composition problems and citations against the law texts (SPEC §9).
Returns problems as [{"file", "path", "reason"}]; an empty list means everything is valid."""
import json
import re
from pathlib import Path

import jsonschema

from .compose import ComposedRules, select_packs

# "Art. 139-A" (no spaces around the hyphen); "Art. 12 - A autorizada" is article 12.
_ARTICLE = re.compile(r"\bArt\.\s*(\d+)(?:-([A-Z])\b)?")


def _schema(root, name):
    return json.loads((root / "shared_rules" / "schemas" / name).read_text(encoding="utf-8"))


def _load(path, problems, rel):
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        problems.append({"file": rel, "path": "", "reason": f"invalid_json: {exc}"})
        return None


def _schema_problems(validator, doc, rel):
    out = []
    for err in sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path)):
        pointer = "".join(f"/{p}" for p in err.absolute_path)
        out.append({"file": rel, "path": pointer, "reason": f"schema: {err.message[:200]}"})
    return out


def law_articles(text):
    """Article numbers that occur as headings ("Art. 8º", "Art.11 -") in a law text."""
    arts = set()
    for m in _ARTICLE.finditer(text):
        arts.add(m.group(1) + (f"-{m.group(2)}" if m.group(2) else ""))
    return arts


def _law_text(root, source_file, seeds_dirs):
    for d in seeds_dirs:
        p = d / source_file
        if p.exists():
            return p.read_text(encoding="utf-8")
    return None


def _citations(node, path):
    if isinstance(node, dict):
        if "citation" in node and isinstance(node["citation"], dict):
            yield f"{path}/citation", node["citation"]
            if isinstance(node["citation"].get("amended_by"), dict):
                yield f"{path}/citation/amended_by", node["citation"]["amended_by"]
        if "veto_ref" in node and isinstance(node["veto_ref"], dict):
            yield f"{path}/veto_ref", node["veto_ref"]
        for k, v in node.items():
            if k not in ("citation", "veto_ref"):
                yield from _citations(v, f"{path}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _citations(v, f"{path}/{i}")


def citation_problems(pack, rel, root, seeds_dirs, base_laws=None):
    """Citations of `pack` whose law or article is unknown; `base_laws`: the laws of the pack an
    amendment pack amends, which its entries may cite too."""
    problems, cache, reported = [], {}, {}
    laws = {**(base_laws or {}), **(pack.get("laws") or {})}
    for path, cit in _citations(pack, ""):
        law = laws.get(cit.get("law"))
        if law is None:
            problems.append({"file": rel, "path": f"{path}/law", "reason": "unknown_law"})
            continue
        src = law.get("source_file")
        if not src:
            continue
        if src not in cache:
            text = _law_text(root, src, seeds_dirs)
            cache[src] = law_articles(text) if text is not None else None
        if cache[src] is None:
            if not reported.get(src):      # once per law, not once per citation
                problems.append({"file": rel, "path": f"/laws/{cit.get('law')}/source_file",
                                 "reason": f"source_file_not_found: {src}"})
                reported[src] = True
        elif str(cit.get("art")) not in cache[src]:
            problems.append({"file": rel, "path": f"{path}/art",
                             "reason": f"article_not_in_law: art. {cit.get('art')} not in {src}"})
    return problems


def validate_all(root, seeds_dirs=None):
    root = Path(root).resolve()
    sr = root / "shared_rules"
    if seeds_dirs is None:
        seeds_dirs = [sr / "laws", root.parent / "shared" / "seeds"]
    problems = []
    pack_v = jsonschema.Draft202012Validator(_schema(root, "pack.schema.json"))
    cfg_v = jsonschema.Draft202012Validator(_schema(root, "config.schema.json"))
    vec_v = jsonschema.Draft202012Validator(_schema(root, "vectors.schema.json"))
    cal_v = jsonschema.Draft202012Validator(_schema(root, "calendar-vectors.schema.json"))

    named = []
    for p in sorted((sr / "packs").glob("*.json")):
        rel = f"shared_rules/packs/{p.name}"
        pack = _load(p, problems, rel)
        if pack is None:
            continue
        schema_errors = _schema_problems(pack_v, pack, rel)
        problems += schema_errors
        if not schema_errors:
            named.append((rel, pack))
    by_id = {p.get("id"): p for _, p in named}
    for rel, pack in named:
        base = by_id.get(pack.get("amends")) or {}
        problems += citation_problems(pack, rel, root, seeds_dirs, base.get("laws"))

    configs = {}
    for p in sorted((sr / "config").glob("*.json")):
        rel = f"shared_rules/config/{p.name}"
        cfg = _load(p, problems, rel)
        if cfg is None:
            continue
        problems += _schema_problems(cfg_v, cfg, rel)
        configs[p.stem] = cfg

    slugs = sorted({p.get("municipality") for _, p in named if p.get("kind") == "municipal"})
    for slug in slugs:
        chosen, _ = select_packs(named, slug)
        cfg = configs.get(slug, {"spec_version": "1.0.0", "municipality": slug})
        rules = ComposedRules([p for _, p in chosen], cfg, [n for n, _ in chosen])
        for prob in rules.problems:
            if prob not in problems:
                problems.append(prob)

    cal_rel = "shared_rules/calendar/holidays.json"
    holidays = _load(sr / "calendar" / "holidays.json", problems, cal_rel)
    if holidays is not None:
        schema = json.loads((sr / "calendar" / "holidays.schema.json").read_text(encoding="utf-8"))
        problems += _schema_problems(jsonschema.Draft202012Validator(schema), holidays, cal_rel)

    for p in sorted((sr / "vectors").glob("*.json")):
        rel = f"shared_rules/vectors/{p.name}"
        doc = _load(p, problems, rel)
        if doc is None:
            continue
        if doc.get("kind") == "calendar":
            problems += _schema_problems(cal_v, doc, rel)
            continue
        errs = _schema_problems(vec_v, doc, rel)
        problems += errs
        if errs:
            continue
        for i, case in enumerate(doc["cases"]):
            case = {**(doc.get("defaults") or {}), **case}
            slug = case.get("municipality")
            if slug is not None and slug not in slugs:
                problems.append({"file": rel, "path": f"/cases/{i}/municipality",
                                 "reason": f"unknown_municipality: {slug}"})
            for j, ref in enumerate(case.get("packs") or []):
                if isinstance(ref, str) and not (root / ref).exists():
                    problems.append({"file": rel, "path": f"/cases/{i}/packs/{j}",
                                     "reason": f"pack_not_found: {ref}"})
    return problems
