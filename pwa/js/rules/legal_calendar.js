// Time as the law counts it; twin of server/rules/legal_calendar.py (read its docstring for the
// sources). Dates are ISO strings "YYYY-MM-DD" in and out; arithmetic on dates.js day numbers.
// The holiday data (shared_rules/calendar/holidays.json) and the municipality's closures arrive
// with the field data, so the phone counts the same days as the server.
import * as dates from "./dates.js";

export const RULES = {
  cc_132: {
    label_pt: "dias corridos, excluído o dia do começo e incluído o do vencimento; começo ou vencimento em "
      + "dia sem expediente prorrogado para o primeiro dia útil seguinte",
    citation_pt: "Código Civil, art. 132, caput e § 1º; Lei 9.784/1999, art. 66, § 1º; CPC/2015, art. 224, § 1º",
  },
  cpc_219: {
    label_pt: "dias úteis, contados a partir do primeiro dia útil seguinte ao da intimação; intimação em dia "
      + "sem expediente considerada feita no primeiro dia útil seguinte",
    citation_pt: "CPC/2015, arts. 219 e 224, §§ 1º e 3º",
  },
  lei_810: {
    label_pt: "ano e mês do dia do início ao dia correspondente; faltando esse dia, o seguinte",
    citation_pt: "Lei 810/1949, arts. 1º a 3º",
  },
  ctn_210: {
    label_pt: "vencimento em dia sem expediente prorrogado para o primeiro dia útil seguinte",
    citation_pt: "CTN, art. 210, parágrafo único",
  },
  // A reading, not a source: where a law gives days and no counting rule (docs/legal-periods.md).
  plain: {
    label_pt: "dias corridos, excluído o dia do começo; vencimento não prorrogado",
    citation_pt: "leitura onde a lei não dá a regra de contagem",
  },
};

export const ruleText = (id) => `${RULES[id].label_pt} (${RULES[id].citation_pt})`;

const day = (iso) => {
  const d = dates.parseIso(iso);
  if (d === null) throw new RangeError(`invalid date ${iso}`);
  return d;
};

// Gregorian Easter Sunday (anonymous Gregorian algorithm), as ISO.
export function easter(year) {
  const a = year % 19, b = Math.floor(year / 100), c = year % 100;
  const d = Math.floor(b / 4), e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4), k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const dd = ((h + l - 7 * m + 114) % 31) + 1;
  return dates.toIso(dates.daysFromCivil(year, month, dd));
}

const pad = (n) => String(n).padStart(2, "0");

export const GOOD_FRIDAY = "sexta_feira_da_paixao";
// The reading of Lei 9.093/1995 art. 2º (readings.json, federal.good_friday): "holiday" (default)
// or "declared_only" (a holiday only where a municipal law declares it, recorded as a closure).
export const GOOD_FRIDAY_READINGS = ["holiday", "declared_only"];

export class Calendar {
  // closures: [{date, kind, name_pt, act}] recorded by the municipality's back office;
  // goodFriday: the municipality's reading of Lei 9.093/1995 art. 2º.
  constructor(data, state = "MT", closures = [], goodFriday = "holiday") {
    this.data = data;
    this.state = state;
    this.closures = new Map(closures.map((c) => [c.date, c]));
    this.goodFriday = GOOD_FRIDAY_READINGS.includes(goodFriday) ? goodFriday : "holiday";
    this.years = new Map();
  }

  // A movable day closed by law here: applies "always", unless it is Good Friday read as declared_only.
  always(h) {
    if (h.id === GOOD_FRIDAY && this.goodFriday === "declared_only") return false;
    return h.applies === "always";
  }

  year(y) {
    if (!this.years.has(y)) {
      const days = new Map();
      for (const h of [...this.data.fixed, ...(this.data.state[this.state] || [])]) {
        const iso = `${String(y).padStart(4, "0")}-${pad(h.month)}-${pad(h.day)}`;
        if (h.since <= iso && iso <= (h.until || "9999-12-31")) days.set(iso, h);
      }
      const e = day(easter(y));
      for (const h of this.data.movable) {
        const iso = dates.toIso(e + h.easter_offset);
        if (this.always(h) && (h.since || "0001-01-01") <= iso) days.set(iso, h);
      }
      this.years.set(y, days);
    }
    return this.years.get(y);
  }

  closedBecause(iso) {
    const d = day(iso);
    if (this.closures.has(iso)) return this.closures.get(iso);
    const fromYear = this.year(dates.year(d)).get(iso);
    if (fromYear) return fromYear;
    const weekday = (((d + 3) % 7) + 7) % 7; // 1970-01-01 (day 0) was a Thursday; 0 = Monday
    if (weekday >= 5) return { name_pt: weekday === 5 ? "sábado" : "domingo", kind: "fim_de_semana", act: "" };
    return null;
  }

  isBusinessDay(iso) { return this.closedBecause(iso) === null; }

  // The first business day strictly after iso.
  nextBusinessDay(iso) {
    let d = day(iso) + 1;
    while (!this.isBusinessDay(dates.toIso(d))) d += 1;
    return dates.toIso(d);
  }

  businessDayOnOrAfter(iso) { return this.isBusinessDay(iso) ? iso : this.nextBusinessDay(iso); }

  suggestions(y) {
    const e = day(easter(y));
    return this.data.movable.filter((h) => !this.always(h))
      .map((h) => ({ ...h, date: dates.toIso(e + h.easter_offset) }));
  }
}

// The day an act made on iso counts as made: the next business day when iso has no office hours
// (CPC/2015 art. 224 § 1º, via art. 15; STF Súmula 310; CTN art. 210 § único). Every period below
// counts from it.
export const startDay = (cal, iso) => cal.businessDayOnOrAfter(iso);

// N calendar days, the start excluded, neither start nor last day moved (the reading `plain`).
export const plainDaysEnd = (start, n) => dates.toIso(dates.addDays(day(start), n));

// A deadline the law sets as a date (e.g. a renewal by 31 March; the pack cites its article) ends on the next business day
// when that day has no office hours (CC art. 132 § 1º; Lei 9.784/1999 art. 66 § 1º).
export const fixedDateEnd = (cal, iso) => cal.businessDayOnOrAfter(iso);

// CC art. 132 caput and § 1º; Lei 9.784/1999 art. 66 § 1º (start moved by startDay).
export const cc132Days = (cal, start, n) =>
  cal.businessDayOnOrAfter(dates.toIso(dates.addDays(day(startDay(cal, start)), n)));

// CPC/2015 arts. 219 and 224 §§ 1º and 3º: a Saturday intimação counts from Tuesday.
export function cpc219BusinessDays(cal, start, n) {
  let d = startDay(cal, start);
  for (let i = 0; i < n; i += 1) d = cal.nextBusinessDay(d);
  return d;
}

export function deadline(cal, start, n, rule = "cc_132") {
  if (rule === "cpc_219") return cpc219BusinessDays(cal, start, n);
  if (rule === "cc_132") return cc132Days(cal, start, n);
  if (rule === "plain") return plainDaysEnd(start, n);
  throw new RangeError(`unknown counting rule ${rule}`);
}

// Lei 810/1949 arts. 1º-3º.
export const lei810Months = (start, n) => dates.toIso(dates.addMonths(day(start), n, true));
export const lei810Years = (start, n) => lei810Months(start, 12 * n);

// CTN art. 210 § único.
export const ctn210Due = (cal, due) => cal.businessDayOnOrAfter(due);
