"""The check's errors grouped by what they say: a spreadsheet's mistakes come in kinds (a column
Excel turned into numbers, a date format, one bad column mapping), and a clerk fixes a kind at once,
not line by line. The page leads with these groups when errors repeat; the table and the CSV keep
every error."""
from collections import defaultdict

MAX_RANGES = 6  # line ranges named per group; the rest counted ("e mais N linhas")


def _ranges(lines):
    """Sorted line numbers as runs: [2, 3, 4, 7] → [(2, 4), (7, 7)]."""
    runs = []
    for line in sorted(set(lines)):
        if runs and line == runs[-1][1] + 1:
            runs[-1][1] = line
        else:
            runs.append([line, line])
    return [tuple(r) for r in runs]


def _lines_text(lines):
    runs = _ranges(lines)
    shown = ", ".join(f"{a}" if a == b else f"{a}–{b}" for a, b in runs[:MAX_RANGES])
    rest = sum(b - a + 1 for a, b in runs[MAX_RANGES:])
    return shown + (f" e mais {rest} linha{'s' if rest > 1 else ''}" if rest else "")


def summarize(errors, at_least=2):
    """[(column, message, count, lines text)] for the (column, message) pairs found on `at_least`
    lines or more, the most frequent first; [] when no error repeats (the table says it all)."""
    groups = defaultdict(list)
    for line, column, message in errors:
        groups[(column, message)].append(line)
    repeated = [(column, message, len(set(lines)), _lines_text(lines))
                for (column, message), lines in groups.items() if len(set(lines)) >= at_least]
    return sorted(repeated, key=lambda g: (-g[2], g[0], g[1]))
