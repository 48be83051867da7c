"""Every {"option": key} a pack reads is declared (pack "options") or is a veto's option_key,
so the back office can offer it for configuration with its admissible values."""
import json
from pathlib import Path

PACKS = Path(__file__).resolve().parent.parent / "shared_rules" / "packs"


def _option_uses(expr, found):
    if isinstance(expr, list):
        for item in expr:
            _option_uses(item, found)
    elif isinstance(expr, dict):
        for op, args in expr.items():
            if op == "option":
                found.add(args)
            _option_uses(args, found)
    return found


def test_every_option_read_by_an_expression_is_declared():
    packs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(PACKS.glob("*.json"))]
    declared = set()
    for pack in packs:
        declared |= set(pack.get("options", {}))
        declared |= {v["option_key"] for v in pack.get("vetoes", [])}
    used = set()
    for pack in packs:
        for section in ("requirements", "infractions", "facts"):
            _option_uses(pack.get(section), used)
    assert used, "the packs read at least one option (Paranatinga art. 8º II)"
    assert used - declared == set()
