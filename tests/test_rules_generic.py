"""The rule engines are generic: no municipality is named in their code (issue 38). A law's
particulars live in its pack; what a pack cannot express becomes a construct of the format, with
vectors in both engines, never a branch on a municipality."""
import re
import unicodedata
from pathlib import Path

from server.rules.compose import read_packs

ROOT = Path(__file__).resolve().parents[1]
ENGINE_DIRS = [ROOT / "server" / "rules", ROOT / "pwa" / "js" / "rules"]


def _fold(text):
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


def municipality_names():
    """Every municipality the product knows: the slugs of the municipal packs (and the same
    words spaced), the names the demo and the packs' titles give them."""
    from server.modules.demo.dataset import MUNICIPALITIES

    names = set()
    for _, pack in read_packs():
        slug = pack.get("municipality")
        if slug:
            names |= {slug, slug.replace("-", " ")}
    names |= {m["name"] for m in MUNICIPALITIES}
    return sorted({_fold(n) for n in names if len(n) >= 4})


def named_in(text, names):
    folded = _fold(text)
    return [n for n in names if re.search(r"(?<![a-z])" + re.escape(n) + r"(?![a-z])", folded)]


def engine_files():
    return sorted(p for d in ENGINE_DIRS for p in d.rglob("*") if p.suffix in (".py", ".js"))


def test_the_scan_knows_every_shipped_municipality_and_would_find_one():
    names = municipality_names()
    for expected in ("sapezal", "nortelandia", "paranatinga", "serra azul do norte"):
        assert expected in names
    # The check can fail: a comment naming a town (with its accent, in capitals) is found.
    assert named_in("# e.g. NORTELÂNDIA art. 17", names) == ["nortelandia"]
    assert named_in("const slug = 'serra-azul-do-norte';", names) == ["serra-azul-do-norte"]
    assert named_in("the sapezalite rule", names) == []


def test_engine_code_names_no_municipality():
    names = municipality_names()
    files = engine_files()
    assert len(files) > 20
    found = {str(p.relative_to(ROOT)): named_in(p.read_text(encoding="utf-8"), names) for p in files}
    assert {f: n for f, n in found.items() if n} == {}
