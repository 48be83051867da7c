"""Errors raised by the rules engine. Each has a JSON form (SPEC §7) and a pt-BR message."""

_FACT_MESSAGES = {
    "unknown_fact": "Fato desconhecido: {fact}.",
    "wrong_type": "Tipo inválido para o fato {fact}.",
    "not_in_values": "Valor não permitido para o fato {fact}.",
    "invalid_date": "Data inválida no fato {fact} (use AAAA-MM-DD).",
    "na_not_allowed": "O fato {fact} não admite 'não se aplica'.",
    "not_selectable": "Infração não selecionável em {fact}.",
    "unknown_infraction": "Infração desconhecida em {fact}.",
    "not_an_alternative": "Penalidade não prevista em lei para a infração em {fact}.",
}


class RulesError(Exception):
    code = "rules_error"

    def to_json(self):
        return {"error": {"code": self.code, "message": str(self)}}


class FactError(RulesError):
    """A fact that is not declared, or a value of the wrong type."""
    code = "fact_error"

    def __init__(self, fact, reason):
        self.fact = fact
        self.reason = reason
        self.message = _FACT_MESSAGES.get(reason, "Fato inválido: {fact}.").format(fact=fact)
        super().__init__(self.message)

    def to_json(self):
        return {"error": {"code": self.code, "fact": self.fact, "reason": self.reason,
                          "message": self.message}}


class HistoryError(RulesError):
    code = "history_error"

    def __init__(self, index, reason):
        self.index = index
        self.reason = reason
        self.message = f"Histórico inválido na posição {index}: {reason}."
        super().__init__(self.message)

    def to_json(self):
        return {"error": {"code": self.code, "index": self.index, "reason": self.reason,
                          "message": self.message}}


class EvalError(RulesError):
    """A run-time failure of an expression (e.g. a date out of range)."""
    code = "eval_error"

    def __init__(self, reason):
        self.reason = reason
        self.message = f"Erro ao avaliar a regra: {reason}."
        super().__init__(self.message)

    def to_json(self):
        return {"error": {"code": self.code, "reason": self.reason, "message": self.message}}


class PackError(RulesError):
    """Packs or configuration that cannot be compiled; carries [{file, path, reason}]."""
    code = "pack_error"

    def __init__(self, problems):
        self.problems = list(problems)
        first = self.problems[0] if self.problems else {}
        self.message = "Pacote de regras inválido: {file} {path}: {reason}".format(
            file=first.get("file", ""), path=first.get("path", ""), reason=first.get("reason", ""))
        super().__init__(self.message)

    def to_json(self):
        return {"error": {"code": self.code, "problems": self.problems, "message": self.message}}


class CompileError(Exception):
    """Internal: an expression that does not compile. `path` is a JSON pointer suffix."""

    def __init__(self, reason, path=""):
        self.reason = reason
        self.path = path
        super().__init__(f"{reason} at {path}")


class UnknownMunicipality(LookupError):
    def __init__(self, slug):
        self.slug = slug
        super().__init__(f"Município sem pacote de regras: {slug}")
