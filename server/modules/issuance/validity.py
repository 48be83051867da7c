"""A permit's validity, computed from its municipality's law (never typed by the clerk).

Years and months count by Lei 810/1949 (server/rules/legal_calendar.lei_810_months): from the
issue day to the same day of the month N months later, or the next day when that month lacks it
(a year from 29/02/2024 ends on 01/03/2025); that corresponding day is the last valid day.

- Sapezal (Lei 125/1999): the alvará is valid for one year (art. 11) and renewals are due by the
  last day of March of each year (art. 10, § 1º). Read together (shared_rules/LEGAL.md): every
  alvará ends on a 31 March and never lasts more than a year, so a new one ends on the last
  31 March within one year of its issue (issued 15/01/2026 → 31/03/2026; issued 10/04/2026 →
  31/03/2027) — a short first term, as art. 11 § 2º gave the alvarás of 1999 ("validade somente
  até o final do mês de março de 2000") — and a renewal until the next 31 March after the current
  one, even when it is requested late. Past 31 March without renewal it is suspended
  automatically, and 30 days later it lapses (art. 10, § 2º): see `after_expiry` and `grace_days`.
- Nortelândia (Lei 030/1998, art. 6º): "validade de 01 (um) ano".
- Paranatinga (Lei 311/2007): the delegation (termo de permissão) lasts two years (art. 20); the
  alvará de licença is renewed every year (art. 13, § 1º).
A municipality without a rule here gets no proposal: the clerk types the date, with a reason.
"""
from dataclasses import dataclass
from datetime import date, timedelta

from ...rules.legal_calendar import lei_810_months
from ...core.errors import ApiError
from ..rules.citations import format_citation
from ..rules.service import composed_for


@dataclass(frozen=True)
class ValidityRule:
    basis: str  # the article, shown next to the proposed date
    months: int = 12
    march_cycle: bool = False  # Sapezal: valid until 31 March
    after_expiry: str = "vencido"  # status the daily job gives on the day after the validity
    grace_days: int | None = None  # days after the validity until caducidade (None: the law sets none)
    grace_basis: str = ""


RULES = {
    "sapezal": ValidityRule("Lei 125/1999, art. 10, § 1º, e art. 11", march_cycle=True,
                            after_expiry="suspenso", grace_days=30, grace_basis="Lei 125/1999, art. 10, § 2º"),
    "nortelandia": ValidityRule("Lei 030/1998, art. 6º"),
    ("paranatinga", "termo_permissao"): ValidityRule("Lei 311/2007, art. 20", months=24),
    ("paranatinga", "alvara"): ValidityRule("Lei 311/2007, art. 13, § 1º"),
}


def rule_for(municipality, kind="alvara"):
    return RULES.get((municipality.slug, kind)) or RULES.get(municipality.slug) or pack_rule(municipality)


def pack_rule(municipality):
    """The validity the municipality's law pack declares (`registry.validity`, SPEC §3): how a law
    encoded by an analyst gives its permits a validity with no code of its own. None without one."""
    try:
        composed = composed_for(municipality)
    except ApiError:
        return None
    for pack in composed.packs:
        validity = (pack.get("registry") or {}).get("validity")
        if pack.get("kind") == "municipal" and validity:
            return ValidityRule(format_citation(composed, validity["citation"]), months=validity["months"])
    return None


def add_months(day, months):
    """Calendar months clamped to the month's end (vistoria periods, configured by the municipality;
    permit validities use Lei 810/1949, `lei_810_months`)."""
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    for d in (31, 30, 29, 28):
        try:
            return date(year, month, min(day.day, d))
        except ValueError:
            continue


def _next_march_31_after(day):
    candidate = date(day.year, 3, 31)
    return candidate if candidate > day else date(day.year + 1, 3, 31)


def issue_validity(municipality, kind, valid_from):
    """The validity a new permit gets, or None where no rule is known."""
    rule = rule_for(municipality, kind)
    if rule is None:
        return None
    one_year = lei_810_months(valid_from, rule.months)
    if rule.march_cycle:
        return date(one_year.year, 3, 31) if date(one_year.year, 3, 31) <= one_year else date(one_year.year - 1, 3, 31)
    return one_year


def renewal_validity(municipality, permit, today):
    """The validity a renewal requested on `today` gives. A late renewal does not move the cycle
    forward by its lateness: its period runs from the current validity's last day (or from today,
    when that validity ended before yesterday: the permit was left without one in between)."""
    rule = rule_for(municipality, permit.kind)
    if rule is None:
        return None
    if rule.march_cycle:
        return _next_march_31_after(max(permit.valid_until, today))
    start = permit.valid_until if permit.valid_until >= today - timedelta(days=1) else today
    return lei_810_months(start, rule.months)
