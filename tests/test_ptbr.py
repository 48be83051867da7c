"""Words for counts on the screens: "1 foto salva", "3 fotos salvas", "0 fotos salvas", never "foto(s)"."""
from pathlib import Path
import re

from server.core.ptbr import plural

TEMPLATES = Path(__file__).resolve().parent.parent / "server" / "templates"


def test_one_is_singular_and_every_other_count_plural():
    assert [plural(n, "foto salva", "fotos salvas") for n in (0, 1, 2, 51)] == \
        ["fotos salvas", "foto salva", "fotos salvas", "fotos salvas"]


def test_no_screen_writes_a_count_with_parenthesised_plurals():
    # "3 item(ns) pendente(s)" reads as a form letter; the filter `plural` gives the words.
    hedged = re.compile(r"\w\((s|ns|es|ões|m)\)")
    code = re.compile(r"{{.*?}}|{%.*?%}")  # template code (`federal_only(m)`) is not words on a screen
    found = [f"{p.relative_to(TEMPLATES)}:{i}" for p in sorted(TEMPLATES.rglob("*.html"))
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if hedged.search(code.sub("", line))]
    assert not found, found
