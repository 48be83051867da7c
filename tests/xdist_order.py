"""How `make test` spreads the suite over pytest-xdist workers (`--dist loadfile`).

loadfile sends each test file to one worker whole, largest files (by number of tests) first. Two
files break that: a few parametrized tests that each run for minutes — the hostile-input sweep
and the OpenAPI fuzzing, one case per caller — came last (few tests) and ran one after another
on one worker while the others stood idle. So: the files known to be slowest (from the suites'
`--durations`) go first, and those whose tests are independent cases are spread test by test.
Nothing is skipped or shortened; only the order and the grouping change.
"""
from collections import Counter

# The slowest files, slowest first; a file whose tests are independent cases (no module-scoped
# state) is also listed in SPREAD.
HEAVY_FIRST = (
    "tests/test_no_500.py",
    "tests/test_openapi_fuzz.py",
    "tests/test_prod_like.py",  # one test, minutes: the production topology (PostgreSQL pass only)
    "tests/e2e/test_backoffice_accessibility.py",
    "tests/e2e/test_fiscal_faults.py",
)
SPREAD = {"tests/test_no_500.py", "tests/test_openapi_fuzz.py", "tests/e2e/test_backoffice_accessibility.py"}


def _file(nodeid):
    return nodeid.split("::", 1)[0]


def order(items):
    """Heavy files first (in HEAVY_FIRST's order), then the rest by number of tests, largest first
    (what loadfile's own reordering did), each file's tests in their order."""
    counts = Counter(_file(item.nodeid) for item in items)

    def rank(item):
        path = _file(item.nodeid)
        heavy = HEAVY_FIRST.index(path) if path in HEAVY_FIRST else len(HEAVY_FIRST)
        return (heavy, -counts[path], path)
    items.sort(key=rank)  # stable: a file's tests keep their order


def make_scheduler(config, log):
    """A loadfile scheduler that keeps the collection's order and splits the SPREAD files."""
    if config.getoption("dist", None) != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class HeavyFirstScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid):
            return nodeid if _file(nodeid) in SPREAD else _file(nodeid)

    config.option.loadscopereorder = False  # the order above, not a count of tests per scope
    return HeavyFirstScheduling(config, log)
