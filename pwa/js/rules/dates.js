// Calendar arithmetic on day numbers (SPEC §4); twin of server/rules/dates.py.
// Day numbers count from 1970-01-01 (Howard Hinnant's civil algorithms); only differences and
// order are observable, so they agree with Python's ordinals.
import { EvalError } from "./errors.js";

export function daysFromCivil(y, m, d) {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function civilFromDays(z) {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

export const MIN_DAY = daysFromCivil(1, 1, 1);
export const MAX_DAY = daysFromCivil(9999, 12, 31);
const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

export function daysInMonth(y, m) {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}

export function parseIso(text) {
  if (typeof text !== "string") return null;
  const m = ISO.exec(text);
  if (!m) return null;
  const y = +m[1], mo = +m[2], d = +m[3];
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  return daysFromCivil(y, mo, d);
}

const pad = (n, w) => String(n).padStart(w, "0");
export function toIso(day) {
  const [y, m, d] = civilFromDays(day);
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
}
export function toBr(day) {
  const [y, m, d] = civilFromDays(day);
  return `${pad(d, 2)}/${pad(m, 2)}/${pad(y, 4)}`;
}

function check(day) {
  if (day < MIN_DAY || day > MAX_DAY) throw new EvalError("date_out_of_range");
  return day;
}
function int(n) {
  if (!Number.isInteger(n)) throw new EvalError("not_integer");
  return n;
}

export const addDays = (d, n) => check(d + int(n));

// Calendar months. A day the target month lacks is clamped to the month's end, or with
// civil=true moved to the next day (Código Civil art. 132 §3).
export function addMonths(d, n, civil = false) {
  const [y0, m0, d0] = civilFromDays(d);
  const total = y0 * 12 + (m0 - 1) + int(n);
  const y = Math.floor(total / 12);
  const m = total - y * 12 + 1;
  if (y < 1 || y > 9999) throw new EvalError("date_out_of_range");
  const last = daysInMonth(y, m);
  if (d0 <= last) return daysFromCivil(y, m, d0);
  if (civil) return check(daysFromCivil(y, m, last) + 1);
  return daysFromCivil(y, m, last);
}

export const addMonthsCc = (d, n) => addMonths(d, n, true);
export const addYearsCc = (d, n) => addMonths(d, int(n) * 12, true);

export function yearsBetweenCc(a, b) {
  let k = civilFromDays(b)[0] - civilFromDays(a)[0];
  while (addMonthsUnchecked(a, k * 12, true) > b) k -= 1;
  while (addMonthsUnchecked(a, (k + 1) * 12, true) <= b) k += 1;
  return k;
}

export const addYears = (d, n) => addMonths(d, int(n) * 12);
export const daysBetween = (a, b) => b - a;

function addMonthsUnchecked(d, n, civil = false) {
  try { return addMonths(d, n, civil); } catch (e) {
    if (e instanceof EvalError) return n > 0 ? MAX_DAY + 1 : MIN_DAY - 1;
    throw e;
  }
}

export function monthsBetween(a, b) {
  const [ya, ma] = civilFromDays(a), [yb, mb] = civilFromDays(b);
  let k = (yb - ya) * 12 + (mb - ma);
  while (addMonthsUnchecked(a, k) > b) k -= 1;
  while (addMonthsUnchecked(a, k + 1) <= b) k += 1;
  return k;
}

export function yearsBetween(a, b) {
  let k = civilFromDays(b)[0] - civilFromDays(a)[0];
  while (addMonthsUnchecked(a, k * 12) > b) k -= 1;
  while (addMonthsUnchecked(a, (k + 1) * 12) <= b) k += 1;
  return k;
}

export const year = (d) => civilFromDays(d)[0];
export const month = (d) => civilFromDays(d)[1];
export const day = (d) => civilFromDays(d)[2];

export function makeDate(y, m, d) {
  int(y); int(m); int(d);
  if (m < 1 || m > 12 || d < 1) throw new EvalError("invalid_date");
  if (y < 1 || y > 9999) throw new EvalError("date_out_of_range");
  return daysFromCivil(y, m, Math.min(d, daysInMonth(y, m)));
}

// The last day of a period that starts on d (SPEC §5 "Periods"): months and years to the
// corresponding day, or the next day when that month lacks it (Lei 810/1949 arts. 1º–3º); days:
// d + N. Every recidivism, escalation and quiet window reads it, so they agree on the anniversary.
export function periodEnd(d, period) {
  if ("days" in period) return addDays(d, period.days);
  if ("months" in period) return addMonths(d, period.months, true);
  return addMonths(d, int(period.years) * 12, true);
}

// The first day P whose period still runs on d (periodEnd(P) >= d).
export function windowStart(d, period) {
  let p = addPeriod(d, period, -1); // clamped: within a few days of the answer
  while (p > MIN_DAY && periodEnd(p - 1, period) >= d) p -= 1;
  while (periodEnd(p, period) < d) p += 1;
  return p;
}

export function addPeriod(d, period, sign = 1) {
  if ("days" in period) return addDays(d, sign * period.days);
  if ("months" in period) return addMonths(d, sign * period.months);
  return addYears(d, sign * period.years);
}
