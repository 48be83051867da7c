"""The roadside checklist's length and the stop's touches, per municipality, written to
docs/benchmarks/checklist-scroll.md (between its markers; the reading around them is kept).

Runs the two browser tests that walk the checklist in headless Chromium at 390×844 and leave
their measurements next to their screenshots: tests/e2e/test_fiscal_auto_touches.py (from "Ler
crachá" to an issued auto with two failures: touches, typed characters, the checklist's height
before any answer and once the situation is declared, what stays undecided) and
tests/e2e/test_fiscal_checklist_groups.py (the height with "passageiro a bordo? Não" tapped and
the rest of the situation still open: the longest checklist a stop without passenger shows).
Heights are the page's scrollHeight / 844 px. Deterministic numbers (no timing): the load of the
machine does not change them, and the tests themselves hold the budgets (12 touches, 40
characters, 8 screens)."""
import json
import os
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from bench_doc import write_generated  # noqa: E402

SLUGS = ("sapezal", "paranatinga", "nortelandia")
NAMES = {"sapezal": "Sapezal", "paranatinga": "Paranatinga", "nortelandia": "Nortelândia"}
TESTS = ["tests/e2e/test_fiscal_auto_touches.py", "tests/e2e/test_fiscal_checklist_groups.py"]


def run(shots):
    env = dict(os.environ, MOTOFISCAL_SCREENSHOTS=str(shots))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", *TESTS], cwd=ROOT, env=env)
    if done.returncode:
        raise SystemExit(f"the browser tests failed (exit {done.returncode}): nothing written")


def lines(shots):
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    out = [f"Measured {date.today().isoformat()} at commit {head} (`python bench/checklist_scroll.py`).", "",
           "| Municipality | Screens before any answer | With \"passageiro a bordo? Não\" only | Situation declared (\"Nenhuma destas\") | Touches | Typed characters |",
           "|---|---|---|---|---|---|"]
    undecided = {}
    for slug in SLUGS:
        walk = json.loads((shots / f"touches-{slug}.json").read_text())
        alone = json.loads((shots / f"screens-{slug}.json").read_text())
        out.append(f"| {NAMES[slug]} | {walk['checklist_screens_unanswered']} | {alone['no_passenger']} | "
                   f"{walk['checklist_screens_situation_declared']} | {walk['touches']} | {walk['typed']} |")
        undecided[slug] = walk.get("undecided") or []
    out += ["", "Left undecided after the two-failure walk: documents the phone's registry extract does not hold,"
            " settings the municipality has not made, and (Nortelândia art. 10 I) a duty that reads the visor of"
            " the helmet the driver did not wear — none a checklist answer can settle:", ""]
    for slug in SLUGS:
        out.append(f"- {NAMES[slug]}: {'; '.join(undecided[slug]) or 'nothing'}.")
    return out + [""]


def main():
    with tempfile.TemporaryDirectory(prefix="checklist-scroll-") as tmp:
        shots = Path(tmp)
        run(shots)
        write_generated(ROOT / "docs" / "benchmarks" / "checklist-scroll.md", lines(shots))
    print("docs/benchmarks/checklist-scroll.md written")


if __name__ == "__main__":
    main()
