"""Writing a bench's docs/benchmarks/ page without losing what people wrote there: the bench's
output goes between two markers, and the hand-written reading around them stays (imported by
ingest.py and registry_import.py; run alone, it does nothing)."""
from pathlib import Path

BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"


def write_generated(path, lines):
    """The lines between the markers of `path`; a page without markers gets them on top."""
    path = Path(path)
    old = path.read_text(encoding="utf-8") if path.exists() else f"{BEGIN}\n{END}\n"
    if BEGIN not in old:
        old = f"{BEGIN}\n{END}\n" + old
    before, rest = old.split(BEGIN, 1)
    after = rest.split(END, 1)[1] if END in rest else rest
    path.write_text(before + BEGIN + "\n" + "\n".join(lines) + END + after, encoding="utf-8")
