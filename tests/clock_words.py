"""How a date-sensitive test is recognised: its body reads "today" or counts days. conftest.py
marks such tests `calendar`; tools/date-sweep asks `files()` which test files can hold one, without
collecting the suite (a file whose source never says these words holds none)."""
import re
import sys
from pathlib import Path

READS_THE_CLOCK = re.compile(r"\b(TODAY|NOW|local_today|local_now|date\.today|datetime\.now|days_ago|timedelta)\b")


def files(folder):
    """The test files directly in `folder` whose source reads the clock somewhere."""
    return sorted(str(path) for path in Path(folder).glob("test_*.py")
                  if READS_THE_CLOCK.search(path.read_text(encoding="utf-8")))


if __name__ == "__main__":
    print(" ".join(files(sys.argv[1])))
