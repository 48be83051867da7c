// Errors raised by the rules engine; twin of server/rules/errors.py (same codes, same JSON).
const FACT_MESSAGES = {
  unknown_fact: "Fato desconhecido: {fact}.",
  wrong_type: "Tipo inválido para o fato {fact}.",
  not_in_values: "Valor não permitido para o fato {fact}.",
  invalid_date: "Data inválida no fato {fact} (use AAAA-MM-DD).",
  na_not_allowed: "O fato {fact} não admite 'não se aplica'.",
  not_selectable: "Infração não selecionável em {fact}.",
  unknown_infraction: "Infração desconhecida em {fact}.",
  not_an_alternative: "Penalidade não prevista em lei para a infração em {fact}.",
  not_finite: "Número inválido no fato {fact} (NaN, infinito ou grande demais).",
  out_of_range: "Valor fora do intervalo permitido para o fato {fact}.",
  not_integer: "O fato {fact} exige um número inteiro.",
};

const TYPE_PT = { bool: "sim ou não (true/false)", date: "data no formato AAAA-MM-DD",
  string: "texto", photo: "referência de foto (texto)" };

// A bound as pt-BR text, identical to the Python twin (integers plain, decimals with a comma).
const num = (x) => String(x).replace(".", ",");

/** What a fact accepts, from its declaration (named in every FactError about a declared fact). */
export function expectedOf(decl) {
  if (!decl) return null;
  const t = decl.type;
  const out = { type: t };
  if (t === "number") {
    out.min = decl.min === undefined ? 0 : decl.min;
    out.max = decl.max === undefined ? null : decl.max;
    out.integer = Boolean(decl.integer);
    out.unit = decl.unit === undefined ? null : decl.unit;
  }
  if (t === "enum") out.values = [...decl.values];
  if (decl.na_allowed) out.na_allowed = true;
  return out;
}

export function expectedPt(exp) {
  if (exp === null || exp === undefined) return "";
  const t = exp.type;
  let text;
  if (t === "number") {
    text = exp.integer ? "número inteiro" : "número";
    const lo = exp.min, hi = exp.max;
    if (lo !== null && lo !== undefined && hi !== null && hi !== undefined) text += ` de ${num(lo)} a ${num(hi)}`;
    else if (lo !== null && lo !== undefined) text += ` maior ou igual a ${num(lo)}`;
    else if (hi !== null && hi !== undefined) text += ` menor ou igual a ${num(hi)}`;
    if (exp.unit) text += ` (${exp.unit})`;
  } else if (t === "enum") {
    text = "um destes valores: " + exp.values.join(", ");
  } else {
    text = TYPE_PT[t] || t;
  }
  if (exp.na_allowed) text += ', ou "na" (não se aplica)';
  return ` Esperado: ${text}.`;
}

export class RulesError extends Error {
  toJSON() { return { error: { code: this.code, message: this.message } }; }
}

export class FactError extends RulesError {
  constructor(fact, reason, expected = null) {
    super((FACT_MESSAGES[reason] || "Fato inválido: {fact}.").replace("{fact}", fact) + expectedPt(expected));
    this.code = "fact_error"; this.fact = fact; this.reason = reason; this.expected = expected;
  }
  toJSON() {
    const out = { code: this.code, fact: this.fact, reason: this.reason };
    if (this.expected !== null && this.expected !== undefined) out.expected = this.expected;
    out.message = this.message;
    return { error: out };
  }
}

export class HistoryError extends RulesError {
  constructor(index, reason) {
    super(`Histórico inválido na posição ${index}: ${reason}.`);
    this.code = "history_error"; this.index = index; this.reason = reason;
  }
  toJSON() { return { error: { code: this.code, index: this.index, reason: this.reason, message: this.message } }; }
}

export class EvalError extends RulesError {
  constructor(reason) {
    super(`Erro ao avaliar a regra: ${reason}.`);
    this.code = "eval_error"; this.reason = reason;
  }
  toJSON() { return { error: { code: this.code, reason: this.reason, message: this.message } }; }
}

export class PackError extends RulesError {
  constructor(problems) {
    const first = problems[0] || {};
    super(`Pacote de regras inválido: ${first.file || ""} ${first.path || ""}: ${first.reason || ""}`);
    this.code = "pack_error"; this.problems = problems;
  }
  toJSON() { return { error: { code: this.code, problems: this.problems, message: this.message } }; }
}

export class CompileError extends Error {
  constructor(reason, path = "") { super(`${reason} at ${path}`); this.reason = reason; this.path = path; }
}
