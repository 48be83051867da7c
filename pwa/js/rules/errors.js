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
};

export class RulesError extends Error {
  toJSON() { return { error: { code: this.code, message: this.message } }; }
}

export class FactError extends RulesError {
  constructor(fact, reason) {
    super((FACT_MESSAGES[reason] || "Fato inválido: {fact}.").replace("{fact}", fact));
    this.code = "fact_error"; this.fact = fact; this.reason = reason;
  }
  toJSON() { return { error: { code: this.code, fact: this.fact, reason: this.reason, message: this.message } }; }
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
