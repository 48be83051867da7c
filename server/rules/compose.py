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


def read_packs(packs_dir=None, extra_dirs=()):
    """[(file name, pack dict)] sorted by file name. `extra_dirs`: packs published beside the
    shipped ones (an amendment, a law encoded after the release): one with the id of a shipped
    pack replaces it."""
    d = Path(packs_dir) if packs_dir else PACKS_DIR
    named = {}
    for folder in (d, *[Path(x) for x in extra_dirs]):
        for p in sorted(folder.glob("*.json")):
            pack = json.loads(p.read_text(encoding="utf-8"))
            for key in [k for k, (_, q) in named.items() if q.get("id") == pack.get("id")]:
                del named[key]
            named[p.name] = (p.name, pack)
    return [named[k] for k in sorted(named)]


def select_packs(named_packs, slug):
    federal = [(n, p) for n, p in named_packs if p.get("kind") == "federal"]
    local = [(n, p) for n, p in named_packs
             if p.get("kind") == "municipal" and p.get("municipality") == slug]
    return federal + local, bool(local)


def load_municipality(slug, packs_dir=None, config_dir=None, config_overrides=None, extra_dirs=()):
    named, has_local = select_packs(read_packs(packs_dir, extra_dirs), slug)
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
        self.by_id = {}             # id -> its first version
        self.versions = {}          # id -> every version, by start date
        for key in _SECTIONS:
            setattr(self, key, [])
        self._collect()
        if not self.problems:
            self._compile()
            self._resolve()

    # -- problems --------------------------------------------------------------------------
    def _problem(self, pack_index, path, reason):
        self.problems.append({"file": self.file_names[pack_index], "path": path, "reason": reason})

    def _entry_problem(self, entry, path, reason):
        """A problem in an entry, reported in the file that holds it (an amendment's own file)."""
        self._problem(entry.get("_file", entry["_pack"]), path, reason)

    # -- collection ------------------------------------------------------------------------
    def _order(self):
        """Indexes of the packs in processing order: an amendment pack (`amends`: the id of the
        pack it amends) right after the pack it amends, so its entries join that pack (SPEC §3
        "Amendments"); every other pack in composition order."""
        ids = {p.get("id"): i for i, p in enumerate(self.packs)}
        self._home = {}
        base, after = [], {}
        for pi, pack in enumerate(self.packs):
            target = pack.get("amends")
            if target is None:
                base.append(pi)
                self._home[pi] = pi
            elif target not in ids or self.packs[ids[target]].get("amends"):
                self._problem(pi, "/amends", "unknown_reference")
            else:
                after.setdefault(ids[target], []).append(pi)
                self._home[pi] = ids[target]
        return [i for pi in base for i in [pi] + after.get(pi, [])]

    def _laws_of(self, pi):
        """The laws an entry of pack `pi` may cite: its own and, for an amendment, the amended pack's."""
        home = self._home.get(pi, pi)
        return {**(self.packs[home].get("laws") or {}), **(self.packs[pi].get("laws") or {})}

    def _collect(self):
        sections = {key: [] for key in _SECTIONS}
        for pi in self._order():
            pack = self.packs[pi]
            laws = self._laws_of(pi)
            if pi != self._home[pi]:
                for key in pack.get("laws") or {}:
                    if key in (self.packs[self._home[pi]].get("laws") or {}):
                        self._problem(pi, f"/laws/{key}", "duplicate_id")
            for name, decl in (pack.get("facts") or {}).items():
                if name in self.facts:
                    prev = self.facts[name]
                    if any(prev.get(k) != decl.get(k) for k in ("type", "values", "unit")):
                        self._problem(pi, f"/facts/{name}", "fact_conflict")
                    continue
                self.facts[name] = dict(decl, _pack=self._home[pi], _file=pi)
            for section in _SECTIONS:
                for i, entry in enumerate(pack.get(section) or []):
                    path = f"/{section}/{i}"
                    entry = dict(entry, _pack=self._home[pi], _file=pi, _path=path, _section=section)
                    eid = entry.get("id")
                    cit = entry.get("citation")
                    if cit is not None and cit.get("law") not in laws:
                        self._problem(pi, f"{path}/citation/law", "unknown_law")
                    amended = (cit or {}).get("amended_by")
                    if amended is not None and amended.get("law") not in laws:
                        self._problem(pi, f"{path}/citation/amended_by/law", "unknown_law")
                    # A version's default start is the act that gave it its wording.
                    law = laws.get((amended or {}).get("law")) or laws.get((cit or {}).get("law")) or {}
                    start = entry.get("effective_from") or law.get("effective_from") or law.get("date")
                    entry["_from"] = dates.parse_iso(start) if start else dates.MIN_ORD
                    end = entry.get("effective_to")
                    entry["_to"] = dates.parse_iso(end) if end else dates.MAX_ORD
                    entry["_explicit_to"] = bool(end)
                    if entry["_from"] is None or entry["_to"] is None:
                        self._problem(pi, f"{path}/effective_from", "invalid_date")
                        continue
                    if eid in self.by_id:
                        if self.by_id[eid]["_section"] != section:
                            self._problem(pi, f"{path}/id", "duplicate_id")
                            continue
                        self.versions[eid].append(entry)
                        # A version sits right after the earlier ones: output order stays the
                        # order of the provision, whatever file the new wording came in.
                        last = max(k for k, e in enumerate(sections[section]) if e.get("id") == eid)
                        sections[section].insert(last + 1, entry)
                        continue
                    self.by_id[eid] = entry
                    self.versions[eid] = [entry]
                    sections[section].append(entry)
        for key in _SECTIONS:
            setattr(self, key, sections[key])
        self._close_versions()

    def _close_versions(self):
        """Entries sharing an id are versions of one provision (SPEC §3 "Amendments"): each is in
        force until the day before the next one starts, unless it says otherwise; two versions
        in force on the same day are a duplicate id."""
        for eid, versions in self.versions.items():
            if len(versions) == 1:
                continue
            versions.sort(key=lambda e: e["_from"])
            for prev, nxt in zip(versions, versions[1:]):
                if not prev["_explicit_to"] and nxt["_from"] > prev["_from"]:
                    prev["_to"] = nxt["_from"] - 1
                if nxt["_from"] <= prev["_to"]:
                    self._problem(nxt["_file"], f"{nxt['_path']}/id", "duplicate_id")

    def at(self, eid, d):
        """The version of entry `eid` in force on day `d` (an ordinal), or None."""
        for entry in self.versions.get(eid, ()):
            if entry["_from"] <= d <= entry["_to"]:
                return entry
        return None

    def as_of(self, eid, d):
        """The version in force on `d`, else the latest one that started before it, else the
        first: what a history entry of that day was judged by."""
        versions = self.versions.get(eid) or []
        best = None
        for entry in versions:
            if entry["_from"] <= d:
                best = entry
            if entry["_from"] <= d <= entry["_to"]:
                return entry
        return best or (versions[0] if versions else None)

    # -- compilation -----------------------------------------------------------------------
    def _compile_at(self, entry, key, default=True):
        expr = entry.get(key, default)
        try:
            return compile_expr(expr, self.facts)
        except CompileError as exc:
            self._entry_problem(entry, f"{entry['_path']}/{key}{exc.path}", exc.reason)
            return None

    def _compile(self):
        for req in self.requirements:
            req["_applies"] = self._compile_at(req, "applies_when")
            req["_holds"] = self._compile_at(req, "holds")
            for key in ("_applies", "_holds"):
                if req[key] is not None and req[key].type != "bool":
                    self._entry_problem(req, f"{req['_path']}/{key[1:]}", "type_error")
            if req["_holds"] is not None:
                req["_na_facts"] = [f for f in req["_holds"].refs
                                    if f in self.facts and self.facts[f].get("source") == "checklist"]
        for inf in self.infractions:
            inf["_proposed_when"] = None
            if "proposed_when" in inf:
                inf["_proposed_when"] = self._compile_at(inf, "proposed_when")
                if inf["_proposed_when"] is not None and inf["_proposed_when"].type != "bool":
                    self._entry_problem(inf, f"{inf['_path']}/proposed_when", "type_error")
        for dl in self.deadlines:
            dl["_applies"] = None
            if "applies_when" in dl:
                dl["_applies"] = self._compile_at(dl, "applies_when")
                if dl["_applies"] is not None and dl["_applies"].type != "bool":
                    self._entry_problem(dl, f"{dl['_path']}/applies_when", "type_error")
        for name, decl in self.facts.items():
            ask = (decl.get("checklist") or {}).get("ask_when")
            decl["_ask"] = None
            if ask is not None:
                try:
                    decl["_ask"] = compile_expr(ask, self.facts)
                except CompileError as exc:
                    self._problem(decl["_file"], f"/facts/{name}/checklist/ask_when{exc.path}", exc.reason)

    # -- references and modes --------------------------------------------------------------
    def _ref(self, entry, path, ref, section):
        target = self.by_id.get(ref)
        if target is None or target["_section"] != section:
            self._entry_problem(entry, f"{entry['_path']}{path}", "unknown_reference")

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
        # An escalation counting a penalty (or a group) no infraction of its pack has could never
        # trigger.
        for esc in self.escalations:
            kinds, groups = set(), set()
            for inf in self.infractions:
                if inf["_pack"] == esc["_pack"]:
                    kinds.add(inf["penalty"]["kind"])
                    kinds.update(inf["penalty"].get("alternatives") or [])
                    groups.add(inf.get("group"))
            for i, clause in enumerate(esc.get("any_of") or []):
                if "groups" in clause:
                    for j, group in enumerate(clause["groups"]):
                        if group not in groups:
                            self._entry_problem(esc, f"{esc['_path']}/any_of/{i}/groups/{j}", "unknown_group")
                elif clause.get("penalty") not in kinds:
                    self._entry_problem(esc, f"{esc['_path']}/any_of/{i}/penalty", "unknown_penalty")
        for inf in self.infractions:
            for i, ref in enumerate((inf.get("requires_prior") or {}).get("infractions") or []):
                self._ref(inf, f"/requires_prior/infractions/{i}", ref, "infractions")

    def _mode(self, entry, vetoes, options):
        status = entry.get("status", "in_force")
        if status == "superseded":
            return "ignored"
        if status != "vetoed":
            return "active"
        veto = vetoes.get(entry.get("veto"))
        if veto is None:
            self._entry_problem(entry, f"{entry['_path']}/veto", "unknown_reference")
            return "pending"
        option = options.get(veto["option_key"], "pending")
        if option not in VETO_OPTIONS:
            self._entry_problem(entry, f"{entry['_path']}/veto", "invalid_option")
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
