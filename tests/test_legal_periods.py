"""The inventory of legal periods (docs/legal-periods.md) is generated and current, each period it
names is computed by a function that exists, and no period is computed outside the calendar modules
(issue 35, item 1)."""
import importlib
import importlib.util
from datetime import date

import pytest

import period_scan
from server.rules.legal_calendar import plain_days_end

ROOT = period_scan.ROOT


def _builder():
    spec = importlib.util.spec_from_file_location("build_legal_periods", ROOT / "shared_rules/NOTES/build_legal_periods.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Day arithmetic outside the calendar modules that is not a legal period, by (file, function):
# the reason it is allowed. A legal period found here instead belongs in server/rules/legal_calendar.py.
ALLOWED = {
    ("server/modules/autos/jobs.py", "_new_infraction_within"): "query bounds: the instants after the last day already judged and after the quiet year's last day (the year itself is counted by the calendar)",
    ("server/modules/jobs/registry.py", "dates_to_decide"): "the calendar dates a daily task missed, each decided in turn; not a legal period",
    ("server/modules/registry_import/daily.py", "purge"): "retention of an import's file and report (7 days), not a legal period",
    ("server/modules/autos/notification.py", "decode_code"): "day number since an epoch in a printed code, not a period",
    ("server/modules/credentials/codec.py", "decode_body"): "day number since an epoch in a crachá, not a period",
    ("server/modules/autos/outcome.py", "outcome"): "the first day after a due date the calendar computed (applied on)",
    ("server/modules/backoffice/home_views.py", "dashboard"): "horizon of a list of what is coming (30 days), not a legal period",
    ("server/modules/backoffice/permit_views.py", "alert_condition"): "filters of the permit list (expiring in 30/15 days): a display horizon",
    ("server/modules/dashboard/derive.py", "<module>"): "tolerance of a phone's clock ahead of the server's",
    ("server/modules/dashboard/queries.py", "_month_end"): "last day of a calendar month for a chart bucket",
    ("server/modules/dashboard/queries.py", "_split"): "splitting a chart range into whole months and loose days",
    ("server/modules/dashboard/queries.py", "_sources"): "the days of a chart range's edge month left outside it (read as the month minus them)",
    ("server/modules/dashboard/queries.py", "activity"): "choosing daily or monthly buckets by the span of a chart",
    ("server/modules/dashboard/queries.py", "_buckets"): "chart buckets (days, weeks)",
    ("server/modules/dashboard/queries.py", "expiring"): "horizon of the dashboard's expiring list",
    ("server/modules/issuance/alerts.py", "permit_alerts"): "alert horizons (permit, insurance, vistoria coming due): display only",
    ("server/modules/issuance/operations.py", "_month_bounds"): "last day of a calendar month (ISSQN's month, art. 14)",
    ("server/modules/issuance/operations.py", "create_issqn_charges"): "the month before the run's: a calendar month, not a period",
    ("server/modules/issuance/records.py", "renewal_filed"): "adjacency of two policies (one starts the day after the other ends)",
    ("server/modules/issuance/records.py", "record_facts"): "the day before a failed vistoria (end of the approved one)",
    ("server/modules/issuance/records.py", "vehicle_record_dates"): "the day before the next vistoria (end of this one's record)",
    ("server/modules/issuance/validity.py", "renewal_validity"): "whether a validity ended before yesterday (continuity), not a count",
    ("server/modules/notices/operations.py", "deadline_reminders"): "when to remind before a due date the calendar computed",
    ("server/modules/permits/operations.py", "lapse_unrenewed_permits"): "a lower bound to pre-select rows; the end is _grace_end (CC art. 132)",
    ("server/modules/review/queue.py", "query"): "query bound: the instant after a filter's last day",
    ("server/modules/traffic/queries.py", "_bounds"): "query bound: the instant after a report period's last day",
    ("pwa/js/autocopy/codec.js", ""): "day number since an epoch in a copied auto's code, not a period",
    ("pwa/js/credentials/body.js", ""): "day number since an epoch in a crachá, not a period",
    ("pwa/js/fiscal/field-merge.js", ""): "day number to ISO date when merging field rows, not a period",
}


def test_the_inventory_of_periods_is_generated_and_current():
    builder = _builder()
    assert (ROOT / "docs" / "legal-periods.md").read_text(encoding="utf-8") == builder.render(), (
        "docs/legal-periods.md is stale: run .venv/bin/python shared_rules/NOTES/build_legal_periods.py")


def test_each_period_names_a_function_that_computes_it():
    builder = _builder()
    named = [p[-1] for p in builder.CODE_PERIODS] + list(builder.PACK_COMPUTED_BY.values())
    for computed_by in named:
        for ref in computed_by.split(" (")[0].split(" → "):
            module, _, function = ref.rpartition(".")
            package = "server.rules" if module in ("legal_calendar", "dates") else "server.modules"
            assert hasattr(importlib.import_module(f"{package}.{module}"), function), ref


def test_the_inventory_lists_every_pack_deadline():
    builder = _builder()
    page = (ROOT / "docs" / "legal-periods.md").read_text(encoding="utf-8")
    for name, _ in builder.PACKS:
        for dl in builder._pack(name).get("deadlines", []):
            assert f"`{dl['id']}`" in page, dl["id"]


def test_no_period_is_computed_outside_the_calendar_modules():
    found = period_scan.all_findings()
    unexplained = [f for f in found if (f[0], f[1]) not in ALLOWED]
    assert not unexplained, ("day arithmetic outside the calendar modules: count the period with "
                             f"server/rules/legal_calendar.py or allow it here with a reason: {unexplained}")
    stale = set(ALLOWED) - {(f[0], f[1]) for f in found}
    assert not stale, f"allowed places that no longer do day arithmetic (remove them): {stale}"


PLANTED_PYTHON = '''
from datetime import timedelta

def appeal_due(notified_on):
    return notified_on + timedelta(days=10)  # a period counted without the calendar

def too_late(replaced_on, requested_on):
    return (requested_on - replaced_on).days > 15
'''


def test_the_scan_catches_a_planted_timedelta_period():
    found = period_scan.python_findings(PLANTED_PYTHON, "server/modules/planted.py")
    assert [(f[1], f[3]) for f in found] == [("appeal_due", "± timedelta(days)"),
                                             ("too_late", "(a - b).days compared")]
    assert all((f[0], f[1]) not in ALLOWED for f in found)  # so the test above would fail on them
    assert period_scan.python_findings("from datetime import timedelta\nTTL = timedelta(minutes=5)\n") == []


def test_the_scan_catches_planted_day_arithmetic_in_phone_code():
    planted = "const due = new Date(start);\ndue.setDate(due.getDate() + 10);\nconst t = start + 3 * DAY_MS;\n"
    assert [f[2] for f in period_scan.js_findings(planted, "pwa/js/fiscal/planted.js")] == [2, 3]


@pytest.mark.parametrize("start,n,end", [
    (date(2026, 8, 1), 15, date(2026, 8, 16)),  # a Sunday: not moved (the reading, legal-periods.md)
    (date(2026, 12, 30), 5, date(2027, 1, 4)),
    (date(2028, 2, 27), 2, date(2028, 2, 29)),
])
def test_plain_days_are_calendar_days_not_moved(start, n, end):
    assert plain_days_end(start, n) == end
