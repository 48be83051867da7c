"""Loads packs and configuration from disk and composes them into a compiled ruleset (SPEC §2)."""
import copy
import hashlib
import json
from pathlib import Path

from . import dates
from .errors import CompileError, PackError, UnknownMunicipality
from .expr import compile_expr

SPEC_VERSION = "1.0.0"
REPO_ROOT = Path(__file__).resolve().parents[2]
PACKS_DIR = REPO_ROOT / "shared_rules" / "packs"
CONFIG_DIR = REPO_ROOT / "shared_rules" / "config"
VETO_OPTIONS = ("pending", "veto_upheld", "veto_overridden")
_SECTIONS = ("requirements", "infractions", "recidivism", "escalations", "history_cancellation",
             "deadlines", "auto_fields", "errata", "vetoes")


def deep_merge(base, over, depth=2):
    """Configuration merge (SPEC §2): objects merge key by key down to `depth` levels; below
    that a value replaces the default whole, so a municipality's period {"years": 1} replaces
    the default {"months": 3} instead of producing {"months": 3, "years": 1}."""
    if depth == 0 or not isinstance(base, dict) or not isinstance(over, dict):
        return copy.deepcopy(over)
    out = dict(base)
    for k, v in over.items():
        out[k] = deep_merge(base[k], v, depth - 1) if k in base else copy.deepcopy(v)
    return out


def read_packs(packs_dir=None):
    """[(file name, pack dict)] sorted by file name."""
    d = Path(packs_dir) if packs_dir else PACKS_DIR
    return [(p.name, json.loads(p.read_text(encoding="utf-8"))) for p in sorted(d.glob("*.json"))]


def select_packs(named_packs, slug):
    federal = [(n, p) for n, p in named_packs if p.get("kind") == "federal"]
    local = [(n, p) for n, p in named_packs
             if p.get("kind") == "municipal" and p.get("municipality") == slug]
    return federal + local, bool(local)


def load_municipality(slug, packs_dir=None, config_dir=None, config_overrides=None):
    named, has_local = select_packs(read_packs(packs_dir), slug)
    if not has_local:
        raise UnknownMunicipality(slug)
    cfg_path = (Path(config_dir) if config_dir else CONFIG_DIR) / f"{slug}.json"
    config = (json.loads(cfg_path.read_text(encoding="utf-8")) if cfg_path.exists()
              else {"spec_version": SPEC_VERSION, "municipality": slug})
    if config_overrides:
        config = deep_merge(config, config_overrides)
    return compose([p for _, p in named], config, file_names=[n for n, _ in named])


def compose(packs, config, file_names=None):
    """Compile packs (already in composition order) + config. Raises PackError."""
    rules = ComposedRules(packs, config, file_names)
    if rules.problems:
        raise PackError(rules.problems)
    return rules


def compile_composed(doc):
    """The inverse of ComposedRules.to_json() (what GET /api/v1/rules/<slug> serves)."""
    return compose(doc["packs"], doc.get("config") or {"municipality": doc.get("municipality")})


class ComposedRules:
    """Federal + municipal packs + configuration, with every expression compiled once."""

    def __init__(self, packs, config, file_names=None):
        self.packs = packs
        self.config = config
        self.municipality = config.get("municipality")
        self.file_names = file_names or [p.get("id", f"pack{i}") for i, p in enumerate(packs)]
        self.problems = []
        self.facts = {}
        self.by_id = {}
        for key in _SECTIONS:
            setattr(self, key, [])
        self._collect()
        if not self.problems:
            self._compile()
            self._resolve()

    # -- problems --------------------------------------------------------------------------
    def _problem(self, pack_index, path, reason):
        self.problems.append({"file": self.file_names[pack_index], "path": path, "reason": reason})

    # -- collection ------------------------------------------------------------------------
    def _collect(self):
        for pi, pack in enumerate(self.packs):
            laws = pack.get("laws") or {}
            for name, decl in (pack.get("facts") or {}).items():
                if name in self.facts:
                    prev = self.facts[name]
                    if any(prev.get(k) != decl.get(k) for k in ("type", "values", "unit")):
                        self._problem(pi, f"/facts/{name}", "fact_conflict")
                    continue
                self.facts[name] = dict(decl, _pack=pi)
            for section in _SECTIONS:
                for i, entry in enumerate(pack.get(section) or []):
                    path = f"/{section}/{i}"
                    entry = dict(entry, _pack=pi, _path=path, _section=section)
                    eid = entry.get("id")
                    if eid in self.by_id:
                        self._problem(pi, f"{path}/id", "duplicate_id")
                        continue
                    self.by_id[eid] = entry
                    cit = entry.get("citation")
                    if cit is not None and cit.get("law") not in laws:
                        self._problem(pi, f"{path}/citation/law", "unknown_law")
                    law = laws.get((cit or {}).get("law")) or {}
                    start = entry.get("effective_from") or law.get("effective_from") or law.get("date")
                    entry["_from"] = dates.parse_iso(start) if start else dates.MIN_ORD
                    end = entry.get("effective_to")
                    entry["_to"] = dates.parse_iso(end) if end else dates.MAX_ORD
                    if entry["_from"] is None or entry["_to"] is None:
                        self._problem(pi, f"{path}/effective_from", "invalid_date")
                    getattr(self, section).append(entry)

    # -- compilation -----------------------------------------------------------------------
    def _compile_at(self, entry, key, default=True):
        expr = entry.get(key, default)
        try:
            return compile_expr(expr, self.facts)
        except CompileError as exc:
            self._problem(entry["_pack"], f"{entry['_path']}/{key}{exc.path}", exc.reason)
            return None

    def _compile(self):
        for req in self.requirements:
            req["_applies"] = self._compile_at(req, "applies_when")
            req["_holds"] = self._compile_at(req, "holds")
            for key in ("_applies", "_holds"):
                if req[key] is not None and req[key].type != "bool":
                    self._problem(req["_pack"], f"{req['_path']}/{key[1:]}", "type_error")
            if req["_holds"] is not None:
                req["_na_facts"] = [f for f in req["_holds"].refs
                                    if f in self.facts and self.facts[f].get("source") == "checklist"]
        for inf in self.infractions:
            inf["_proposed_when"] = None
            if "proposed_when" in inf:
                inf["_proposed_when"] = self._compile_at(inf, "proposed_when")
                if inf["_proposed_when"] is not None and inf["_proposed_when"].type != "bool":
                    self._problem(inf["_pack"], f"{inf['_path']}/proposed_when", "type_error")
        for name, decl in self.facts.items():
            ask = (decl.get("checklist") or {}).get("ask_when")
            decl["_ask"] = None
            if ask is not None:
                try:
                    decl["_ask"] = compile_expr(ask, self.facts)
                except CompileError as exc:
                    self._problem(decl["_pack"], f"/facts/{name}/checklist/ask_when{exc.path}", exc.reason)

    # -- references and modes --------------------------------------------------------------
    def _ref(self, entry, path, ref, section):
        target = self.by_id.get(ref)
        if target is None or target["_section"] != section:
            self._problem(entry["_pack"], f"{entry['_path']}{path}", "unknown_reference")

    def _resolve(self):
        options = self.config.get("options") or {}
        vetoes = {v["id"]: v for v in self.vetoes}
        for section in ("requirements", "infractions", "deadlines", "escalations"):
            for entry in getattr(self, section):
                entry["_mode"] = self._mode(entry, vetoes, options)
        for req in self.requirements:
            for i, ref in enumerate(req.get("on_fail") or []):
                self._ref(req, f"/on_fail/{i}", ref, "infractions")
        for inf in self.infractions:
            if inf.get("recidivism"):
                self._ref(inf, "/recidivism", inf["recidivism"], "recidivism")
            for i, ref in enumerate(inf.get("displaces") or []):
                self._ref(inf, f"/displaces/{i}", ref, "infractions")
        for section in ("requirements", "infractions"):
            for entry in getattr(self, section):
                for i, ref in enumerate(entry.get("errata") or []):
                    self._ref(entry, f"/errata/{i}", ref, "errata")
        # An escalation counting a penalty no infraction of its pack has could never trigger.
        for esc in self.escalations:
            kinds = set()
            for inf in self.infractions:
                if inf["_pack"] == esc["_pack"]:
                    kinds.add(inf["penalty"]["kind"])
                    kinds.update(inf["penalty"].get("alternatives") or [])
            for i, clause in enumerate(esc.get("any_of") or []):
                if clause["penalty"] not in kinds:
                    self._problem(esc["_pack"], f"{esc['_path']}/any_of/{i}/penalty", "unknown_penalty")

    def _mode(self, entry, vetoes, options):
        status = entry.get("status", "in_force")
        if status == "superseded":
            return "ignored"
        if status != "vetoed":
            return "active"
        veto = vetoes.get(entry.get("veto"))
        if veto is None:
            self._problem(entry["_pack"], f"{entry['_path']}/veto", "unknown_reference")
            return "pending"
        option = options.get(veto["option_key"], "pending")
        if option not in VETO_OPTIONS:
            self._problem(entry["_pack"], f"{entry['_path']}/veto", "invalid_option")
            return "pending"
        return {"pending": "pending", "veto_upheld": "ignored", "veto_overridden": "active"}[option]

    # -- serialization ---------------------------------------------------------------------
    def to_json(self):
        return {"spec_version": SPEC_VERSION, "municipality": self.municipality,
                "packs": self.packs, "config": self.config}

    @property
    def etag(self):
        canonical = json.dumps(self.to_json(), sort_keys=True, ensure_ascii=False,
                               separators=(",", ":"))
        return '"' + hashlib.sha256(canonical.encode("utf-8")).hexdigest() + '"'
