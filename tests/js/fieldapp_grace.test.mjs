// Point 9 of issue 19 on the phone: inside Nortelândia art. 17 (60 days) and Paranatinga art. 54
// (90 days) a failed duty of the municipal law is a notice, not an infraction, and the result
// screen words it as such with the period's last day (CC art. 132, the municipality's calendar).
import test from "node:test";
import assert from "node:assert/strict";
import { nodeIo } from "./rules_io.mjs";
import { loadMunicipality, evaluate } from "../../pwa/js/rules/index.js";
import { Calendar } from "../../pwa/js/rules/legal_calendar.js";
import { citationLabel } from "../../pwa/js/fiscal/checklist-model.js";
import { graceNotices } from "../../pwa/js/fiscal/grace.js";

const IO = { ...nodeIo, packsDir: "shared_rules/packs", configDir: "shared_rules/config" };
const calendar = new Calendar(nodeIo.readJson("shared_rules/calendar/holidays.json"), "MT", []);
const gloves = { "driver.gloves": false, "operator.resident_since": "1990-01-01" };

test("Nortelândia, 1998-09-15 (inside the 60 days from 21/08/1998): no gloves is a notice with the last day", () => {
  const rules = loadMunicipality("nortelandia", IO);
  const result = evaluate(rules, "1998-09-15", gloves, [], calendar);
  assert.deepEqual(result.infractions, []);
  const notices = graceNotices(rules, result, calendar, citationLabel);
  assert.equal(notices.length, 1);
  assert.equal(notices[0].requirement, "nl.req.luvas");
  assert.equal(notices[0].last_day, "1998-10-20"); // 21/08 + 60 days, a Tuesday
  assert.match(notices[0].text, /^Aviso — não é infração: .*até 20\/10\/1998 .*art\. 17/);
});

test("Nortelândia, the day after the period: an infraction, no notice", () => {
  const rules = loadMunicipality("nortelandia", IO);
  const result = evaluate(rules, "1998-10-21", gloves, [], calendar);
  assert.deepEqual(result.infractions.map((i) => i.id), ["nl.inf.luvas"]);
  assert.deepEqual(graceNotices(rules, result, calendar, citationLabel), []);
});

test("Paranatinga: the 90th day 30/12/2007 is a Sunday, the notice names Monday 31/12/2007", () => {
  const rules = loadMunicipality("paranatinga", IO);
  const result = evaluate(rules, "2007-12-31", { "driver.carries_badge": false }, [], calendar);
  const notices = graceNotices(rules, result, calendar, citationLabel);
  assert.ok(notices.some((n) => n.requirement === "par.req.cracha" && n.last_day === "2007-12-31"), JSON.stringify(notices));
  assert.ok(!result.infractions.some((i) => i.pack === "paranatinga-lei-311-2007"));
});
