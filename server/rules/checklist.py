"""checklist() and auto_fields() (SPEC §7, §8): what the fiscal is asked and what an auto must
hold, on a date. The JS twin is pwa/js/rules/checklist.js."""
from .expr import DATE_VAR, UNKNOWN
from .inputs import fact_values, in_effect, parse_date_arg, add_options

def auto_fields(rules, date):
    """The fields an auto de infração must contain on `date`, every composed law in order."""
    d = parse_date_arg(date)
    return [{"id": f["id"], "pack": rules.packs[f["_pack"]]["id"], "citation": f.get("citation"),
             "label_pt": f["label_pt"], "required": f.get("required", True), "source": list(f["source"])}
            for f in rules.auto_fields if in_effect(f, d)]


# SPEC §8: the only sources the fiscal types; every other one comes from the registry, the
# confirmed infractions, the account and settings, the clocks, the signature pads, the deadlines.
TYPED_SOURCES = ("place", "observations")


def auto_form(rules, date, atoms=None):
    """The auto's fields as they are asked and printed (SPEC §8): a field whose sources are all
    among another field's sources is merged into it, so what two laws both require ("Local, data e
    hora": CTB art. 280 II and the municipal law) is asked once and printed once. With `atoms`
    ({source: text}) each group also gets its `value` (the texts joined by " — ") and `missing`."""
    groups = []
    for f in auto_fields(rules, date):
        src = set(f["source"])
        for g in groups:
            gs = set(g["source"])
            if src <= gs or gs <= src:
                if not src <= gs:          # the new field says more: it heads the group
                    g.update(id=f["id"], pack=f["pack"], label_pt=f["label_pt"], citation=f["citation"],
                             source=list(f["source"]))
                g["ids"].append(f["id"])
                g["citations"].append(f["citation"])
                g["required"] = g["required"] or f["required"]
                break
        else:
            groups.append({**f, "ids": [f["id"]], "citations": [f["citation"]]})
    for g in groups:
        g["typed"] = [s for s in g["source"] if s in TYPED_SOURCES]
        if atoms is not None:
            texts = [(s, atoms.get(s).strip() if isinstance(atoms.get(s), str) else "") for s in g["source"]]
            g["value"] = " — ".join(t for _, t in texts if t)
            g["missing"] = [s for s, t in texts if not t]
    return groups


_INPUTS = {"number": "number", "enum": "choice", "date": "date", "string": "text", "photo": "photo"}


def checklist(rules, date, facts_so_far=None):
    d = parse_date_arg(date)
    ctx, na, _ = fact_values(rules, facts_so_far or {})
    ctx[DATE_VAR] = d
    add_options(ctx, rules.config)
    items = {}
    for req in rules.requirements:
        if req["_mode"] == "ignored" or not in_effect(req, d):
            continue
        holds_refs = req["_holds"].refs
        for name in _refs(req):
            decl = rules.facts.get(name)
            if decl is None or decl.get("source") != "checklist":
                continue
            item = items.get(name)
            if item is None:
                item = items[name] = {"decl": decl, "reqs": [], "applies": [], "gates": []}
            item["reqs"].append(req)
            if name in holds_refs:
                item["applies"].append(req["_applies"])
            else:
                item["gates"].append(req["_applies"])   # asked to decide what applies
    out = []
    for name, item in items.items():
        decl = item["decl"]
        ck = decl.get("checklist") or {}
        if decl["_ask"] is not None:
            applicable = decl["_ask"].fn(ctx)
            deciders = decl["_ask"].refs
        else:
            applicable = _gate_matters(name, item["gates"], ctx)
            if applicable is not True:
                for c in item["applies"]:
                    v = c.fn(ctx)
                    if v is True:
                        applicable = True
                        break
                    if v is UNKNOWN:
                        applicable = UNKNOWN
            deciders = [n for c in item["gates"] + item["applies"] for n in c.refs]
        t = decl["type"]
        out.append({
            "fact": name,
            "input": ("yes_no_na" if decl.get("na_allowed") else "yes_no") if t == "bool" else _INPUTS[t],
            "label_pt": ck.get("prompt_pt") or decl["label_pt"],
            "unit": decl.get("unit"), "values": decl.get("values"),
            "value_labels_pt": decl.get("labels_pt"), "help_pt": ck.get("help_pt"),
            "photo": ck.get("photo", "none"),
            "compliant_if": ck.get("compliant_if"),
            "compliant_value": ck.get("compliant_value"), "compliant_pt": ck.get("compliant_pt"),
            "requirements": [r["id"] for r in item["reqs"]],
            "citations": [r.get("citation") for r in item["reqs"]],
            "applicable": None if applicable is UNKNOWN else applicable,
            "decided_by": _facts_once(rules, deciders, name),
            "answered": name in ctx or name in na,
            "_order": ck.get("order"),
        })
    # Stable sort: items with an order first by order, then the rest in composition order.
    out.sort(key=lambda it: (it["_order"] is None, it["_order"] if it["_order"] is not None else 0))
    for it in out:
        del it["_order"]
    return out


def _gate_matters(name, gates, ctx):
    """A fact asked to decide what applies matters while some requirement's `applies_when` is
    UNKNOWN without it (SPEC §8): once the other answers settle every one of them (no passenger →
    the rain no longer decides anything), its own answer cannot change what applies."""
    if not gates:
        return False
    without = {k: v for k, v in ctx.items() if k != name}
    return any(c.fn(without) is UNKNOWN for c in gates)


def _facts_once(rules, names, own):
    out = []
    for n in names:
        if n != own and n in rules.facts and n not in out:
            out.append(n)
    return out


def _refs(req):
    names = []
    for c in (req["_applies"], req["_holds"]):
        for n in c.refs:
            if n not in names:
                names.append(n)
    return names
