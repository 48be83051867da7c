// Prints the JS legal calendar's answer to every case of shared_rules/vectors/calendar.json
// (compared with Python's by tests/test_legal_calendar.py).
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./rules_io.mjs";
import * as lc from "../../pwa/js/rules/legal_calendar.js";
import * as issqn from "../../pwa/js/rules/issqn_activity.js";

const data = JSON.parse(readFileSync(path.join(ROOT, "shared_rules", "calendar", "holidays.json"), "utf8"));
export const CASES = JSON.parse(readFileSync(path.join(ROOT, "shared_rules", "vectors", "calendar.json"), "utf8")).cases;

export function run(c) {
  const cal = new lc.Calendar(data, "MT", c.closures || [], c.good_friday || "holiday");
  switch (c.op) {
    case "easter": return lc.easter(c.year);
    case "is_business_day": return cal.isBusinessDay(c.date);
    case "next_business_day": return cal.nextBusinessDay(c.date);
    case "deadline": return lc.deadline(cal, c.start, c.days, c.rule);
    case "lei_810_years": return lc.lei810Years(c.start, c.n);
    case "lei_810_months": return lc.lei810Months(c.start, c.n);
    case "issqn_in_activity": {
      const [first, last] = issqn.monthBounds(c.month);
      return issqn.inActivity(c.start, c.date, c.status, first, last, c.reading);
    }
    case "fixed_date_end": return lc.fixedDateEnd(cal, c.date);
    default: return lc.ctn210Due(cal, c.date);
  }
}

if (process.argv[1] && process.argv[1].endsWith("legal_calendar_dump.mjs")) {
  process.stdout.write(JSON.stringify(CASES.map(run)));
}
