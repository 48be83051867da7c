"""Time as the law counts it: business days and the counting rules of each source (no Flask).
Twin of pwa/js/rules/legal_calendar.js; both read shared_rules/calendar/holidays.json and run the
hand-computed cases of shared_rules/vectors/calendar.json.

A business day (dia útil) is a weekday with office hours: not a Saturday or Sunday, not a national
or state holiday of the data file, not Good Friday (Lei 9.093/1995 art. 2º), and not a closure the
municipality recorded (its religious holidays under Lei 9.093/1995 art. 2º, a Carnival or Corpus
Christi it decreed, an office closure: Lei 9.784/1999 art. 66 § 1º, "dia em que não houver
expediente"). Movable days are dated from Easter (computed, never tabulated).

Counting rules, each named after its source:
- `cc_132`: N calendar days, the start day excluded and the last included; a last day that is not
  a business day moves to the next one (Código Civil art. 132 caput and § 1º; Lei 9.784/1999
  art. 66 caput and § 1º).
- `cpc_219`: N business days (CPC/2015 art. 219); counting starts on the first business day after
  the start (art. 224 caput and § 3º), so a Friday intimação counts from Monday.

The start, under both rules (`start_day`): an act made on a day without office hours (an auto
signed on a Saturday, an intimação on a holiday or a recorded closure) counts as made on the next
business day, and the count starts the day after (CPC/2015 art. 224 § 1º "os dias do começo e do
vencimento do prazo serão protraídos para o primeiro dia útil seguinte" and § 3º, applied to
administrative processes by CPC art. 15; the logic of STF Súmula 310; for taxes CTN art. 210
§ único "os prazos só se iniciam ou vencem em dia de expediente normal"). A Saturday intimação
with 10 business days runs from Tuesday; with 10 calendar days it ends 10 days after Monday. The
same move applies to a period that starts at a fixed date (e.g. 30 days counted from the end of
a renewal deadline the law sets as a date, itself moved: see `fixed_date_end`).
- `lei_810`: years and months (Lei 810/1949 arts. 1º-3º): to the same day of the target month,
  or the next day when that month lacks it (a year from 29/02/2024 ends 01/03/2025).
- `ctn_210`: a tax due date that is not a business day moves to the next one (CTN art. 210
  § único: "os prazos só se iniciam ou vencem em dia de expediente normal").
- `plain`: N calendar days, the start excluded, the last day not moved — a reading where a law
  gives days and no counting rule (a municipal option may choose `cc_132` or `cpc_219` instead;
  the periods and their options are in shared_rules/readings/readings.json).
"""
import datetime
import json
from functools import lru_cache
from pathlib import Path

from . import dates

DATA_FILE = Path(__file__).resolve().parents[2] / "shared_rules" / "calendar" / "holidays.json"

RULES = {
    "cc_132": {
        "label_pt": "dias corridos, excluído o dia do começo e incluído o do vencimento; começo ou vencimento em "
                    "dia sem expediente prorrogado para o primeiro dia útil seguinte",
        "citation_pt": "Código Civil, art. 132, caput e § 1º; Lei 9.784/1999, art. 66, § 1º; CPC/2015, art. 224, § 1º"},
    "cpc_219": {
        "label_pt": "dias úteis, contados a partir do primeiro dia útil seguinte ao da intimação; intimação em dia "
                    "sem expediente considerada feita no primeiro dia útil seguinte",
        "citation_pt": "CPC/2015, arts. 219 e 224, §§ 1º e 3º"},
    "lei_810": {
        "label_pt": "ano e mês do dia do início ao dia correspondente; faltando esse dia, o seguinte",
        "citation_pt": "Lei 810/1949, arts. 1º a 3º"},
    "ctn_210": {
        "label_pt": "vencimento em dia sem expediente prorrogado para o primeiro dia útil seguinte",
        "citation_pt": "CTN, art. 210, parágrafo único"},
    # A reading, not a source: where a law gives days and no counting rule (docs/legal-periods.md).
    "plain": {
        "label_pt": "dias corridos, excluído o dia do começo; vencimento não prorrogado",
        "citation_pt": "leitura onde a lei não dá a regra de contagem"},
}


def rule_text(rule_id):
    """'dias corridos, … (Código Civil, art. 132 …)': the sentence a document prints."""
    rule = RULES[rule_id]
    return f"{rule['label_pt']} ({rule['citation_pt']})"


@lru_cache(maxsize=1)
def load_data(path=None):
    return json.loads(Path(path or DATA_FILE).read_text(encoding="utf-8"))


def easter(year):
    """Gregorian Easter Sunday (anonymous Gregorian algorithm, Meeus/Jones/Butcher)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = b // 4, b % 4
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = c // 4, c % 4
    ell = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * ell) // 451
    month = (h + ell - 7 * m + 114) // 31
    day = (h + ell - 7 * m + 114) % 31 + 1
    return datetime.date(year, month, day)


def _iso(d):
    return d if isinstance(d, str) else d.isoformat()


GOOD_FRIDAY = "sexta_feira_da_paixao"
# The reading of Lei 9.093/1995 art. 2º (shared_rules/readings/readings.json, federal.good_friday):
# `holiday` (default) keeps Good Friday a holiday everywhere; `declared_only` makes it one only where
# a municipal law declares it, which the municipality records as a closure citing that law.
GOOD_FRIDAY_READINGS = ("holiday", "declared_only")


def good_friday_reading(options, key):
    """The municipality's option `key` (a pack option of its composed configuration), else `holiday`."""
    value = (options or {}).get(key)
    return value if value in GOOD_FRIDAY_READINGS else "holiday"


class Calendar:
    """The days without office hours of one municipality. `closures` are the back office's rows
    as dicts {date: ISO, kind, name_pt, act}; `good_friday` is the municipality's reading of
    Lei 9.093/1995 art. 2º (GOOD_FRIDAY_READINGS)."""

    def __init__(self, data=None, state="MT", closures=(), good_friday="holiday"):
        self.data = data or load_data()
        self.state = state
        self.closures = {c["date"]: c for c in closures}
        self.good_friday = good_friday
        self._years = {}

    def _always(self, h):
        """A movable day closed by law here: `applies: always`, unless it is Good Friday and the
        municipality reads art. 2º as making it a holiday only where its own law declares it."""
        if h["id"] == GOOD_FRIDAY and self.good_friday == "declared_only":
            return False
        return h["applies"] == "always"

    def _year(self, year):
        if year not in self._years:
            days = {}
            for h in self.data["fixed"] + self.data["state"].get(self.state, []):
                iso = f"{year:04d}-{h['month']:02d}-{h['day']:02d}"
                if h["since"] <= iso and iso <= h.get("until", "9999-12-31"):
                    days[iso] = h
            e = easter(year)
            for h in self.data["movable"]:
                iso = (e + datetime.timedelta(days=h["easter_offset"])).isoformat()
                if self._always(h) and h.get("since", "0001-01-01") <= iso:
                    days[iso] = h
            self._years[year] = days
        return self._years[year]

    def closed_because(self, d):
        """The entry that closes the office on `d` ({name_pt, kind, act, …}), a weekend marker, or None."""
        iso = _iso(d)
        d = datetime.date.fromisoformat(iso)
        if iso in self.closures:
            return self.closures[iso]
        if iso in self._year(d.year):
            return self._year(d.year)[iso]
        if d.weekday() >= 5:
            return {"name_pt": "sábado" if d.weekday() == 5 else "domingo", "kind": "fim_de_semana", "act": ""}
        return None

    def is_business_day(self, d):
        return self.closed_because(d) is None

    def next_business_day(self, d):
        """The first business day strictly after `d`."""
        d = datetime.date.fromisoformat(_iso(d)) + datetime.timedelta(days=1)
        while not self.is_business_day(d):
            d += datetime.timedelta(days=1)
        return d

    def business_day_on_or_after(self, d):
        d = datetime.date.fromisoformat(_iso(d))
        return d if self.is_business_day(d) else self.next_business_day(d)

    def holidays(self, year):
        """The year's holidays from the shared data (not the closures), as [{date, name_pt, act, …}]."""
        return sorted(({**h, "date": iso} for iso, h in self._year(year).items()), key=lambda h: h["date"])

    def suggestions(self, year):
        """Movable days a municipality may close by its own act (Carnival, Corpus Christi, and Good
        Friday where it reads art. 2º as `declared_only`)."""
        e = easter(year)
        return [{**h, "date": (e + datetime.timedelta(days=h["easter_offset"])).isoformat()}
                for h in self.data["movable"] if not self._always(h)]


def calendar_for(state, closures=(), good_friday="holiday"):
    """The legal calendar of a municipality of `state` (its UF, e.g. "MT") with its closures and
    its reading of Good Friday."""
    return Calendar(load_data(), state or "MT", closures, good_friday)


# --- counting rules ------------------------------------------------------------------------------

def start_day(cal, d):
    """The day an act made on `d` counts as made: `d` itself, or the next business day when `d`
    has no office hours (CPC/2015 art. 224 § 1º, via art. 15; STF Súmula 310; CTN art. 210
    § único). Every period of this module counts from it."""
    return cal.business_day_on_or_after(d)


def fixed_date_end(cal, d):
    """The last day of a deadline the law sets as a date (e.g. a renewal "até o último dia do mês
    de março"; the pack cites its article): a day without office hours moves to the next business day, as any other
    end (CC art. 132 § 1º; Lei 9.784/1999 art. 66 § 1º)."""
    return cal.business_day_on_or_after(d)


def cc_132_days(cal, start, n):
    """Last day of an N-calendar-day period from `start` (CC art. 132 caput and § 1º), the start
    moved off a day without office hours first (`start_day`)."""
    start = start_day(cal, start)
    return cal.business_day_on_or_after(start + datetime.timedelta(days=int(n)))


def cpc_219_business_days(cal, start, n):
    """Last day of an N-business-day period from `start` (CPC/2015 arts. 219 and 224 §§ 1º and 3º):
    a Saturday intimação counts as made on Monday and the first day counted is Tuesday."""
    d = start_day(cal, start)
    for _ in range(int(n)):
        d = cal.next_business_day(d)
    return d


def deadline(cal, start, n, rule="cc_132"):
    if rule == "cpc_219":
        return cpc_219_business_days(cal, start, n)
    if rule == "cc_132":
        return cc_132_days(cal, start, n)
    if rule == "plain":
        return plain_days_end(start, n)
    raise ValueError(f"unknown counting rule {rule!r}")


PERIOD_READINGS = ("plain", "cc_132", "cpc_219")


def reading_counting(options, key, default="plain"):
    """The counting rule a municipality chose for a period whose law gives no rule (an `options`
    dict of its composed configuration, the pack option `key`): one of PERIOD_READINGS, else the
    declared default (shared_rules/readings/readings.json)."""
    value = (options or {}).get(key)
    return value if value in PERIOD_READINGS else default


def lei_810_months(start, n):
    """The day N months after `start` (Lei 810/1949 arts. 2º and 3º)."""
    start = datetime.date.fromisoformat(_iso(start))
    return datetime.date.fromordinal(dates.add_months(start.toordinal(), int(n), civil=True))


def lei_810_years(start, n):
    """The day N years after `start` (Lei 810/1949 arts. 1º and 3º)."""
    return lei_810_months(start, 12 * int(n))


def plain_days_end(start, n):
    """Last day of N calendar days from `start` (start excluded), not moved off a day without
    office hours: the reading where a law gives a number of days but no counting rule, and the
    period is not an administrative process's deadline that Lei 9.784 art. 66 § 1º would move
    (the periods that use it are listed in docs/legal-periods.md)."""
    return datetime.date.fromisoformat(_iso(start)) + datetime.timedelta(days=int(n))


def ctn_210_due(cal, due_on):
    """The day a tax due on `due_on` can still be paid without arrears (CTN art. 210 § único)."""
    return cal.business_day_on_or_after(due_on)
