"""How a date-sensitive test is recognised. conftest.py marks such tests `calendar`; tools/date-sweep
asks `files()` which test files can hold one, without collecting the suite (a file whose source
never says these words holds none).

A test is date-sensitive when its own body reads "today" or counts days (READS_THE_CLOCK), or when
one of its fixtures, however indirect, hands it data dated from today: the demo set
(conftest.demo) is built relative to the day the suite runs, so a test that only asks for `demo`
and reads "the first active Sapezal permit" meets a different permit on 1 April (issue 35: 438
such tests were never swept). A fixture is date-relative when its name is in DATE_FIXTURES or its
own source reads the clock."""
import inspect
import re
import sys
from pathlib import Path

READS_THE_CLOCK = re.compile(r"\b(TODAY|NOW|local_today|local_now|date\.today|datetime\.now|days_ago|timedelta)\b")
# Fixtures whose data is dated from today though their body only calls a loader (named, as their
# source cannot tell).
DATE_FIXTURES = ("demo",)
USES_A_DATE_FIXTURE = re.compile(r"\b(" + "|".join(DATE_FIXTURES) + r")\b")


def reads_the_clock(source):
    return bool(READS_THE_CLOCK.search(source))


def source_is_date_sensitive(source):
    """A test file's source that can hold a date-sensitive test (the sweep's cheap pre-selection)."""
    return reads_the_clock(source) or bool(USES_A_DATE_FIXTURE.search(source))


def _source(function):
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        return ""


def fixture_is_date_relative(name, fixturedefs):
    return name in DATE_FIXTURES or any(reads_the_clock(_source(d.func)) for d in fixturedefs or ())


def is_date_sensitive(item):
    """A collected pytest item whose body reads the clock or that uses a date-relative fixture."""
    function = getattr(item, "function", None)
    if function is not None and reads_the_clock(_source(function)):
        return True
    info = getattr(item, "_fixtureinfo", None)
    defs = info.name2fixturedefs if info is not None else {}
    return any(fixture_is_date_relative(name, defs.get(name)) for name in getattr(item, "fixturenames", ()))


# Files the sweep leaves to the day's run though their tests use the demo set: what they assert —
# no answer is a 500, or a redirect off the site, whatever the input — is about input, not dates,
# and at seven moments they cost more than their share (the fuzzing files' few tests run for
# minutes each; the door's hardening tests are many). The demo data they read is swept through the
# ~470 other demo tests. A single such test in a file of dated ones is marked `unswept` instead.
SWEEP_EXEMPT = {
    "test_no_500.py": "hostile-input sweep: asserts no 500 for any input, minutes per test",
    "test_openapi_fuzz.py": "OpenAPI fuzzing: asserts no 500 for generated requests, minutes per test",
    "test_hardening_input.py": "hostile input at the door (deep JSON, lone surrogates, huge integers, "
                               "header injection in `next`): 48 tests, ~30 CPU-s at the seven moments",
}


def swept(item):
    """Whether the date sweep runs this date-sensitive test: it can run under libfaketime, and it is
    not marked `unswept` — a test that throws generated hostile input at every route of a screen
    (no 500, whatever the input) is about input, not dates, and costs seconds at each of the seven
    moments (the files in SWEEP_EXEMPT, for the same reason, hold only such tests)."""
    return item.get_closest_marker("unswept") is None and runs_under_faketime(item)


def runs_under_faketime(item):
    """False for what libfaketime cannot run, left to the day's run: the S3 variant of a test
    (`storage_backend` "s3": the moto_server it starts refuses connections under libfaketime; the
    local variant sweeps the same dates) and a test that calls time.sleep (EINVAL under libfaketime
    while the monotonic clock stays real, FAKETIME_DONT_FAKE_MONOTONIC in tools/date-sweep)."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    if params.get("storage_backend") == "s3":
        return False
    function = getattr(item, "function", None)
    return function is None or "time.sleep(" not in _source(function)


def files(folder):
    """The test files directly in `folder` whose source reads the clock or names a date fixture,
    less SWEEP_EXEMPT. A conftest fixture that reads the clock is named by the test files that use
    it, which then match (they name it): none is used today besides DATE_FIXTURES."""
    return sorted(str(path) for path in Path(folder).glob("test_*.py")
                  if path.name not in SWEEP_EXEMPT and source_is_date_sensitive(path.read_text(encoding="utf-8")))


if __name__ == "__main__":
    print(" ".join(files(sys.argv[1])))
