// Vectors written as a table (SPEC §10 "Tables"): one CSV row per case, facts and expected
// outcome in columns. Twin of server/rules/vector_table.py (read its docstring for the columns):
// same parsing, same cases, same projection of the result onto the columns, so both engines are
// checked against the one table a municipal analyst writes in a spreadsheet.
import { evaluate } from "./evaluation.js";
import { loadMunicipality } from "./compose.js";
import { RulesError } from "./errors.js";
import { calendarOf } from "./vectors.js";

const NAME = "caso", BASE = "base", DATE = "data", HISTORY = "histórico", SELECTED = "selecionadas",
  PENALTIES = "penalidades", OPTIONS = "opções", NOTE = "nota";
const INPUTS = [BASE, DATE, HISTORY, SELECTED, PENALTIES, OPTIONS];
const SETS = ["infrações", "falhas", "avisos", "indecisos", "reincidência", "medidas", "escalonamentos"];
const MAPS = ["valores", "reais", "penalidade"];
const ERROR = "erro";
const EXPECTED = [...SETS, ...MAPS, ERROR];
const KNOWN = [NAME, NOTE, ...INPUTS, ...EXPECTED];
const TRUE = ["sim", "s", "true", "verdadeiro"], FALSE = ["não", "nao", "n", "false", "falso"];
const BR_DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;
const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

export class TableError extends Error {
  constructor(line, column, message) {
    super(`linha ${line}, coluna ${column}: ${message}`);
    this.line = line; this.column = column; this.message_pt = message;
  }
}

/** RFC 4180 rows, delimiter `,` or `;` from the header line. */
export function parseCsv(input) {
  const text = input.replace(/^\ufeff/, "");
  const header = text.split("\n", 1)[0];
  const count = (ch) => header.split(ch).length - 1;
  const delim = count(";") > count(",") ? ";" : ",";
  const rows = [];
  let row = [], cell = "", quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { cell += '"'; i++; } else if (ch === '"') quoted = false; else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delim) { row.push(cell); cell = ""; }
    else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(cell); rows.push(row); row = []; cell = "";
    } else cell += ch;
  }
  if (cell || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

export function readTable(text) {
  const rows = parseCsv(text);
  if (!rows.length) throw new TableError(1, NAME, "tabela vazia");
  const header = rows[0].map((h) => h.trim());
  for (const col of header) {
    if (col && !KNOWN.includes(col) && !col.includes(".") && !col.startsWith("$")) {
      throw new TableError(1, col, "coluna desconhecida (um fato tem ponto no nome, ex.: vehicle.engine_cc)");
    }
  }
  if (!header.includes(NAME)) throw new TableError(1, NAME, "falta a coluna caso");
  const out = [];
  rows.slice(1).forEach((cells, k) => {
    const values = {};
    header.forEach((h, j) => { if (h) values[h] = j < cells.length ? cells[j].trim() : ""; });
    if (values[NAME]) out.push({ line: k + 2, cells: values });
  });
  return [header, out];
}

function dateOf(text, line, column) {
  const m = BR_DATE.exec(text);
  const iso = m ? `${m[3]}-${m[2]}-${m[1]}` : text;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) throw new TableError(line, column, `“${text}” não é data (use AAAA-MM-DD ou DD/MM/AAAA)`);
  return iso;
}

function numberOf(text, line, column) {
  const t = text.replace(",", ".");
  if (!/^-?\d+(\.\d+)?$/.test(t)) throw new TableError(line, column, `“${text}” não é número`);
  return Number(t);
}

export function factValue(decl, text, line, column) {
  const low = text.toLowerCase();
  if (low === "-") return null;
  if (low === "na") return "na";
  if (decl.type === "bool") {
    if (TRUE.includes(low)) return true;
    if (FALSE.includes(low)) return false;
    throw new TableError(line, column, `“${text}” não é sim ou não`);
  }
  if (decl.type === "number") return numberOf(text, line, column);
  if (decl.type === "date") return dateOf(text, line, column);
  return text;
}

const items = (text) => (text.trim() === "-" ? [] : text.split(";").map((p) => p.trim()).filter(Boolean));

function pairs(text, sep, line, column) {
  const out = {};
  for (const item of items(text)) {
    const at = item.indexOf(sep);
    if (at < 0) throw new TableError(line, column, `“${item}” deveria ser id${sep}valor`);
    out[item.slice(0, at).trim()] = item.slice(at + 1).trim();
  }
  return out;
}

function historyOf(text, line) {
  return items(text).map((item) => {
    const words = item.split(/\s+/);
    if (words.length < 2) throw new TableError(line, HISTORY, `“${item}” deveria ser “<infração> <data> [aplicada <data>]”`);
    const entry = { infraction: words[0], date: dateOf(words[1], line, HISTORY) };
    const rest = words.slice(2);
    while (rest.length) {
      const word = rest.shift().toLowerCase();
      if (word === "aplicada" && rest.length) entry.applied_on = dateOf(rest.shift(), line, HISTORY);
      else if (word === "pendente" || word === "anulada") entry.state = word === "pendente" ? "pending" : "annulled";
      else throw new TableError(line, HISTORY, `“${word}” não é “aplicada <data>”, “pendente” nem “anulada”`);
    }
    return entry;
  });
}

function inputsOf(rows, row, seen = []) {
  const base = row.cells[BASE];
  let cells = {};
  if (base) {
    const parent = rows.find((r) => r.cells[NAME] === base);
    if (!parent || seen.includes(base)) throw new TableError(row.line, BASE, `base “${base}” não existe nesta tabela`);
    cells = inputsOf(rows, parent, [...seen, base]);
  }
  for (const [col, text] of Object.entries(row.cells)) {
    if (text && !EXPECTED.includes(col) && col !== NAME && col !== NOTE && col !== BASE) cells[col] = text;
  }
  return cells;
}

/** [case, expected cells] of a table row (SPEC §10). */
export function buildCase(rules, rows, row, municipality) {
  const line = row.line;
  const cells = inputsOf(rows, row);
  const facts = {};
  for (const [col, text] of Object.entries(cells)) {
    if (col.includes(".") && !col.startsWith("$")) {
      const decl = hasOwn(rules.facts, col) ? rules.facts[col] : undefined;
      if (decl === undefined) throw new TableError(line, col, "fato não declarado nos pacotes do município");
      const value = factValue(decl, text, line, col);
      if (value !== null) facts[col] = value;
    }
  }
  if (cells[SELECTED]) facts.$selected = items(cells[SELECTED]);
  if (cells[PENALTIES]) facts.$penalties = pairs(cells[PENALTIES], "=", line, PENALTIES);
  if (!cells[DATE]) throw new TableError(line, DATE, "falta a data");
  const c = { name: row.cells[NAME], municipality, date: dateOf(cells[DATE], line, DATE), facts,
    history: historyOf(cells[HISTORY] || "", line) };
  if (cells[OPTIONS]) c.config_overrides = { options: pairs(cells[OPTIONS], "=", line, OPTIONS) };
  const expected = {};
  for (const col of EXPECTED) if (row.cells[col]) expected[col] = row.cells[col];
  return [c, expected];
}

function fmt(n) {
  if (n === null || n === undefined) return "?";
  return String(n).replace(".", ",");
}

const cents = (c) => (c === null || c === undefined ? "?" : `${Math.floor(c / 100)},${String(c % 100).padStart(2, "0")}`);
const sorted = (xs) => [...xs].sort();
const uniq = (xs) => [...new Set(xs)];

/** The result as the table's columns (what both engines print). */
export function project(actual) {
  if (actual.error) {
    const err = actual.error;
    const tail = err.code === "fact_error" ? err.fact : err.code === "history_error" ? err.index : undefined;
    const reason = err.reason || sorted(uniq((err.problems || []).map((p) => p.reason))).join(",");
    return { [ERROR]: [err.code, tail, reason].filter((x) => x !== undefined && x !== null).map(String).join(":") };
  }
  const infs = actual.infractions;
  const withAmount = infs.filter((i) => i.amount);
  return {
    "infrações": sorted(infs.map((i) => i.id)),
    "falhas": sorted(actual.failed.filter((f) => !f.grace).map((f) => f.requirement)),
    "avisos": sorted(actual.failed.filter((f) => f.grace).map((f) => f.requirement)),
    "indecisos": sorted(uniq(actual.undecided.map((u) => u.id))),
    "reincidência": sorted(infs.filter((i) => (i.recidivism || {}).applied).map((i) => i.id)),
    "medidas": sorted(uniq(infs.flatMap((i) => i.measures.map((m) => `${i.id}:${m.kind}`)))),
    "escalonamentos": sorted(actual.escalations.map((e) => `${e.id}=${e.status}`)),
    "valores": Object.fromEntries(withAmount.map((i) => [i.id, `${fmt(i.amount.value)} ${i.amount.unit}`])),
    "reais": Object.fromEntries(withAmount.map((i) => [i.id, cents(i.amount.brl_cents)])),
    "penalidade": Object.fromEntries(infs.map((i) => [i.id, i.penalty.kind])),
    [ERROR]: null,
  };
}

/** [pt-BR problem] for each expected cell the projection does not match. */
export function compare(expected, projection) {
  const problems = [];
  for (const [col, text] of Object.entries(expected)) {
    const got = projection[col];
    if (col === ERROR) {
      if (got !== text) problems.push(`erro esperado “${text}”, obtido “${got || "nenhum"}”`);
      continue;
    }
    if (projection[ERROR]) { problems.push(`${col}: a avaliação deu erro “${projection[ERROR]}”`); continue; }
    if (SETS.includes(col)) {
      const want = sorted(uniq(items(text)));
      if (JSON.stringify(want) !== JSON.stringify(got)) {
        problems.push(`${col}: esperado ${want.join("; ") || "-"}, obtido ${got.join("; ") || "-"}`);
      }
    } else {
      for (const [key, value] of Object.entries(pairs(text, "=", 0, col))) {
        if (got[key] !== value) problems.push(`${col}: ${key} esperado ${value}, obtido ${hasOwn(got, key) ? got[key] : "nenhum"}`);
      }
    }
  }
  return problems;
}

export const tableMunicipality = (fileName) => fileName.split("/").pop().split(".")[0];

/** [{line, name, case, projection, problems}] for every case row; io as in vectors.js. */
export function runTable(io, fileName, text) {
  const slug = tableMunicipality(fileName);
  const dirs = { listDir: io.listDir, readJson: io.readJson, packsDir: "shared_rules/packs", configDir: "shared_rules/config" };
  const rules = loadMunicipality(slug, dirs);
  const [, rows] = readTable(text);
  const out = [];
  for (const row of rows) {
    if (row.cells[NAME].startsWith("@")) continue;
    let c, expected;
    try { [c, expected] = buildCase(rules, rows, row, slug); } catch (e) {
      if (!(e instanceof TableError)) throw e;
      out.push({ line: row.line, name: row.cells[NAME], case: null, projection: null, problems: [e.message] });
      continue;
    }
    const caseRules = c.config_overrides ? loadMunicipality(slug, dirs, c.config_overrides) : rules;
    let actual;
    try { actual = evaluate(caseRules, c.date, c.facts, c.history, calendarOf(io, c)); } catch (e) {
      if (!(e instanceof RulesError)) throw e;
      actual = e.toJSON();
    }
    const projection = project(actual);
    out.push({ line: row.line, name: c.name, case: c, projection, problems: compare(expected, projection), note: row.cells[NOTE] || "" });
  }
  return out;
}

/** JSON with keys sorted at every level (Python's json.dumps(sort_keys=True, separators=(",", ":"))). */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
