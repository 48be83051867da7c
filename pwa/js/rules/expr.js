// Expression compiler (SPEC §4); twin of server/rules/expr.py. Type-checks once against the
// declared facts and returns a closure over a context object {fact: value, $date: day}.
import * as dates from "./dates.js";
import { cc132Days } from "./legal_calendar.js";
import { CompileError, EvalError } from "./errors.js";

export const UNKNOWN = Object.freeze({ unknown: true });
export const DATE_VAR = "$date";
export const OPTION_PREFIX = "$option:";
// The legal calendar of the evaluation (legal_calendar.js Calendar), put in the context by
// evaluate(); listed among the missing facts of an expression that counts with it when absent.
export const CALENDAR_VAR = "$calendar";
const SCALARS = ["bool", "number", "string", "date"];
const FACT_TYPE = { bool: "bool", number: "number", string: "string", date: "date", enum: "string", photo: "photo" };
const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

export function compileExpr(expr, factDecls) {
  const refs = [];
  const [fn, type] = compile(expr, factDecls, refs, "");
  checkEnumLiterals(expr, factDecls, "");
  return { fn, type, refs };
}

function enumValues(e, decls) {
  if (e !== null && typeof e === "object" && !Array.isArray(e) && Object.keys(e).length === 1 && "var" in e) {
    const name = Array.isArray(e.var) ? e.var[0] : e.var;
    const decl = typeof name === "string" && hasOwn(decls, name) ? decls[name] : undefined;
    if (decl !== undefined && decl.type === "enum") return decl.values;
  }
  return null;
}

// A string literal compared with an enum fact must be one of its values (a typo would
// otherwise never match and silently pass or fail).
function checkEnumLiterals(e, decls, path) {
  if (Array.isArray(e)) { e.forEach((item, i) => checkEnumLiterals(item, decls, `${path}/${i}`)); return; }
  if (e === null || typeof e !== "object" || Object.keys(e).length !== 1) return;
  const op = Object.keys(e)[0];
  const args = Array.isArray(e[op]) ? e[op] : [e[op]];
  if ((op === "==" || op === "!=" || op === "in") && args.length === 2) {
    let values = enumValues(args[0], decls), other = args[1];
    if (values === null && op !== "in") { values = enumValues(args[1], decls); other = args[0]; }
    if (values !== null) {
      const literals = op === "in" && Array.isArray(other) ? other : [other];
      literals.forEach((lit, i) => {
        if (typeof lit === "string" && !values.includes(lit)) {
          throw new CompileError("not_in_values", `${path}/${op}/1` + (op === "in" ? `/${i}` : ""));
        }
      });
    }
  }
  args.forEach((a, i) => checkEnumLiterals(a, decls, `${path}/${op}/${i}`));
}

const konst = (v) => () => v;

function compile(e, decls, refs, path) {
  if (typeof e === "boolean") return [konst(e), "bool"];
  if (typeof e === "number") return [konst(e), "number"];
  if (typeof e === "string") return [konst(e), "string"];
  if (Array.isArray(e)) return compileList(e, decls, refs, path);
  if (e === null || typeof e !== "object") throw new CompileError("invalid_expression", path);
  const keys = Object.keys(e);
  if (keys.length !== 1) throw new CompileError("invalid_expression", path);
  const op = keys[0];
  if (!hasOwn(OPS, op)) throw new CompileError("unknown_operator", path);
  const args = Array.isArray(e[op]) ? e[op] : [e[op]];
  return OPS[op](args, decls, refs, `${path}/${op}`);
}

function compileList(items, decls, refs, path) {
  const fns = [];
  let elem = null;
  items.forEach((item, i) => {
    const [fn, t] = compile(item, decls, refs, `${path}/${i}`);
    if (!SCALARS.includes(t)) throw new CompileError("type_error", `${path}/${i}`);
    if (elem !== null && t !== elem) throw new CompileError("type_error", `${path}/${i}`);
    elem = t;
    fns.push(fn);
  });
  return [(ctx) => fns.map((f) => f(ctx)), `list:${elem || "any"}`];
}

function compileArgs(args, decls, refs, path, { n = null, minN = null } = {}) {
  if (n !== null && args.length !== n) throw new CompileError("arity", path);
  if (minN !== null && args.length < minN) throw new CompileError("arity", path);
  return args.map((a, i) => compile(a, decls, refs, `${path}/${i}`));
}

function expect(c, types, path, index) {
  if (!types.includes(c[1])) throw new CompileError("type_error", `${path}/${index}`);
}

function opVar(args, decls, refs, path) {
  if (args.length !== 1 || typeof args[0] !== "string") throw new CompileError("arity", path);
  const name = args[0];
  if (name === DATE_VAR) return [(ctx) => ctx[DATE_VAR], "date"];
  if (!hasOwn(decls, name)) throw new CompileError("unknown_fact", path);
  if (!refs.includes(name)) refs.push(name);
  return [(ctx) => (hasOwn(ctx, name) ? ctx[name] : UNKNOWN), FACT_TYPE[decls[name].type]];
}

function opOption(args, decls, refs, path) {
  if (args.length !== 1 || typeof args[0] !== "string") throw new CompileError("arity", path);
  const key = OPTION_PREFIX + args[0];
  if (!refs.includes(key)) refs.push(key);
  return [(ctx) => (hasOwn(ctx, key) ? ctx[key] : UNKNOWN), "string"];
}

function opKnown(args, decls, refs, path) {
  const [[fn]] = compileArgs(args, decls, refs, path, { n: 1 });
  return [(ctx) => fn(ctx) !== UNKNOWN, "bool"];
}

// Operand values left to right, or UNKNOWN at the first UNKNOWN (later operands are not
// evaluated, which matters only for eval_error).
function strict(fns, ctx) {
  const vals = [];
  for (const f of fns) {
    const v = f(ctx);
    if (v === UNKNOWN) return UNKNOWN;
    vals.push(v);
  }
  return vals;
}

// `and` (decisive = false) and `or` (decisive = true) in Kleene logic: the first decisive
// operand decides (evaluation stops there); otherwise UNKNOWN if any operand is UNKNOWN.
function kleene(decisive) {
  return (args, decls, refs, path) => {
    const cs = compileArgs(args, decls, refs, path, { minN: 1 });
    cs.forEach((c, i) => expect(c, ["bool"], path, i));
    const fns = cs.map((c) => c[0]);
    return [(ctx) => {
      let unknown = false;
      for (const f of fns) {
        const v = f(ctx);
        if (v === decisive) return decisive;
        if (v === UNKNOWN) unknown = true;
      }
      return unknown ? UNKNOWN : !decisive;
    }, "bool"];
  };
}

const opAnd = kleene(false);
const opOr = kleene(true);

function opNot(args, decls, refs, path) {
  const [c] = compileArgs(args, decls, refs, path, { n: 1 });
  expect(c, ["bool"], path, 0);
  const fn = c[0];
  return [(ctx) => { const v = fn(ctx); return v === UNKNOWN ? UNKNOWN : !v; }, "bool"];
}

function opIf(args, decls, refs, path) {
  if (args.length < 3 || args.length % 2 === 0) throw new CompileError("arity", path);
  const cs = compileArgs(args, decls, refs, path);
  const resultType = cs[cs.length - 1][1];
  const pairs = [];
  for (let i = 0; i < cs.length - 1; i += 2) {
    expect(cs[i], ["bool"], path, i);
    if (cs[i + 1][1] !== resultType) throw new CompileError("type_error", `${path}/${i + 1}`);
    pairs.push([cs[i][0], cs[i + 1][0]]);
  }
  const dflt = cs[cs.length - 1][0];
  return [(ctx) => {
    for (const [cond, then] of pairs) {
      const v = cond(ctx);
      if (v === UNKNOWN) return UNKNOWN;
      if (v) return then(ctx);
    }
    return dflt(ctx);
  }, resultType];
}

function equality(negate) {
  return (args, decls, refs, path) => {
    const [a, b] = compileArgs(args, decls, refs, path, { n: 2 });
    expect(a, SCALARS, path, 0);
    if (b[1] !== a[1]) throw new CompileError("type_error", `${path}/1`);
    const fa = a[0], fb = b[0];
    return [(ctx) => {
      const x = fa(ctx);
      if (x === UNKNOWN) return UNKNOWN;
      const y = fb(ctx);
      if (y === UNKNOWN) return UNKNOWN;
      return negate ? x !== y : x === y;
    }, "bool"];
  };
}

function ordering(cmp, allowBetween) {
  return (args, decls, refs, path) => {
    if (args.length === 3 && !allowBetween) throw new CompileError("arity", path);
    if (args.length !== 2 && args.length !== 3) throw new CompileError("arity", path);
    const cs = compileArgs(args, decls, refs, path);
    expect(cs[0], ["number", "date"], path, 0);
    for (let i = 1; i < cs.length; i++) {
      if (cs[i][1] !== cs[0][1]) throw new CompileError("type_error", `${path}/${i}`);
    }
    const fns = cs.map((c) => c[0]);
    return [(ctx) => {
      const vals = strict(fns, ctx);
      if (vals === UNKNOWN) return UNKNOWN;
      if (vals.length === 2) return cmp(vals[0], vals[1]);
      return cmp(vals[0], vals[1]) && cmp(vals[1], vals[2]);
    }, "bool"];
  };
}

function opIn(args, decls, refs, path) {
  const [a, b] = compileArgs(args, decls, refs, path, { n: 2 });
  expect(a, SCALARS, path, 0);
  if (!b[1].startsWith("list:") || (b[1] !== `list:${a[1]}` && b[1] !== "list:any")) {
    throw new CompileError("type_error", `${path}/1`);
  }
  const fa = a[0], fb = b[0];
  return [(ctx) => {
    const x = fa(ctx);
    if (x === UNKNOWN) return UNKNOWN;
    let unknown = false;
    for (const y of fb(ctx)) {
      if (y === UNKNOWN) unknown = true;
      else if (y === x) return true;
    }
    return unknown ? UNKNOWN : false;
  }, "bool"];
}

function arith(kind) {
  return (args, decls, refs, path) => {
    let cs;
    if (kind === "-") {
      cs = compileArgs(args, decls, refs, path);
      if (cs.length !== 1 && cs.length !== 2) throw new CompileError("arity", path);
    } else {
      cs = compileArgs(args, decls, refs, path, { minN: 2 });
    }
    cs.forEach((c, i) => expect(c, ["number"], path, i));
    const fns = cs.map((c) => c[0]);
    return [(ctx) => {
      const vals = strict(fns, ctx);
      if (vals === UNKNOWN) return UNKNOWN;
      if (kind === "-") return vals.length === 1 ? -vals[0] : vals[0] - vals[1];
      let acc = vals[0];
      for (let i = 1; i < vals.length; i++) acc = kind === "+" ? acc + vals[i] : acc * vals[i];
      return acc;
    }, "number"];
  };
}

function opDate(args, decls, refs, path) {
  if (args.length !== 1 || typeof args[0] !== "string") throw new CompileError("arity", path);
  const day = dates.parseIso(args[0]);
  if (day === null) throw new CompileError("invalid_date", path);
  return [konst(day), "date"];
}

function func(argTypes, resultType, impl) {
  return (args, decls, refs, path) => {
    const cs = compileArgs(args, decls, refs, path, { n: argTypes.length });
    cs.forEach((c, i) => expect(c, [argTypes[i]], path, i));
    const fns = cs.map((c) => c[0]);
    if (fns.length === 1) {
      const f0 = fns[0];
      return [(ctx) => { const v = f0(ctx); return v === UNKNOWN ? UNKNOWN : impl(v); }, resultType];
    }
    return [(ctx) => {
      const vals = strict(fns, ctx);
      if (vals === UNKNOWN) return UNKNOWN;
      return impl(...vals);
    }, resultType];
  };
}

// cc_132_days(d, n): the last day of an N-day period from d by Código Civil art. 132 (start day
// excluded, a last day without office hours moved to the next business day), in the calendar of
// the evaluation; UNKNOWN without one (the last day cannot be known).
function opCc132Days(args, decls, refs, path) {
  const cs = compileArgs(args, decls, refs, path, { n: 2 });
  expect(cs[0], ["date"], path, 0);
  expect(cs[1], ["number"], path, 1);
  if (!refs.includes(CALENDAR_VAR)) refs.push(CALENDAR_VAR);
  const fns = cs.map((c) => c[0]);
  return [(ctx) => {
    const vals = strict(fns, ctx);
    const cal = hasOwn(ctx, CALENDAR_VAR) ? ctx[CALENDAR_VAR] : null;
    if (vals === UNKNOWN || cal === null || cal === undefined) return UNKNOWN;
    const start = dates.addDays(vals[0], 0);
    const n = dates.addDays(start, vals[1]) - start; // integer check and range, as add_days
    try {
      return dates.parseIso(cc132Days(cal, dates.toIso(start), n));
    } catch (e) {
      if (e instanceof RangeError) throw new EvalError("date_out_of_range"); // moved past 9999-12-31
      throw e;
    }
  }, "date"];
}

const OPS = {
  var: opVar, option: opOption, known: opKnown, and: opAnd, or: opOr, not: opNot, if: opIf,
  "==": equality(false), "!=": equality(true),
  "<": ordering((a, b) => a < b, true), "<=": ordering((a, b) => a <= b, true),
  ">": ordering((a, b) => a > b, false), ">=": ordering((a, b) => a >= b, false),
  in: opIn, "+": arith("+"), "-": arith("-"), "*": arith("*"), date: opDate,
  add_days: func(["date", "number"], "date", dates.addDays),
  cc_132_days: opCc132Days,
  add_months: func(["date", "number"], "date", dates.addMonths),
  add_years: func(["date", "number"], "date", dates.addYears),
  days_between: func(["date", "date"], "number", dates.daysBetween),
  months_between: func(["date", "date"], "number", dates.monthsBetween),
  years_between: func(["date", "date"], "number", dates.yearsBetween),
  add_months_cc: func(["date", "number"], "date", dates.addMonthsCc),
  add_years_cc: func(["date", "number"], "date", dates.addYearsCc),
  years_between_cc: func(["date", "date"], "number", dates.yearsBetweenCc),
  year: func(["date"], "number", dates.year),
  month: func(["date"], "number", dates.month),
  day: func(["date"], "number", dates.day),
  make_date: func(["number", "number", "number"], "date", dates.makeDate),
};
