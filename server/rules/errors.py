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
    "not_finite": "Número inválido no fato {fact} (NaN, infinito ou grande demais).",
    "out_of_range": "Valor fora do intervalo permitido para o fato {fact}.",
    "not_integer": "O fato {fact} exige um número inteiro.",
}

_TYPE_PT = {"bool": "sim ou não (true/false)", "date": "data no formato AAAA-MM-DD",
            "string": "texto", "photo": "referência de foto (texto)"}


def _num(x):
    """A bound as pt-BR text, identical to the JS twin (integers plain, decimals with a comma)."""
    return (str(int(x)) if float(x).is_integer() else repr(float(x))).replace(".", ",")


def expected_of(decl):
    """What a fact accepts, from its declaration: {"type", "unit"?, "min"?, "max"?, "integer"?,
    "values"?}. Named in every FactError about a declared fact (SPEC §5)."""
    if not decl:
        return None
    t = decl["type"]
    out = {"type": t}
    if t == "number":
        out["min"] = decl.get("min", 0)
        out["max"] = decl.get("max")
        out["integer"] = bool(decl.get("integer"))
        out["unit"] = decl.get("unit")
    if t == "enum":
        out["values"] = list(decl["values"])
    if decl.get("na_allowed"):
        out["na_allowed"] = True
    return out


def expected_pt(exp):
    if exp is None:
        return ""
    t = exp["type"]
    if t == "number":
        text = "número inteiro" if exp.get("integer") else "número"
        lo, hi = exp.get("min"), exp.get("max")
        if lo is not None and hi is not None:
            text += f" de {_num(lo)} a {_num(hi)}"
        elif lo is not None:
            text += f" maior ou igual a {_num(lo)}"
        elif hi is not None:
            text += f" menor ou igual a {_num(hi)}"
        if exp.get("unit"):
            text += f" ({exp['unit']})"
    elif t == "enum":
        text = "um destes valores: " + ", ".join(exp["values"])
    else:
        text = _TYPE_PT.get(t, t)
    if exp.get("na_allowed"):
        text += ", ou \"na\" (não se aplica)"
    return f" Esperado: {text}."


class RulesError(Exception):
    code = "rules_error"

    def to_json(self):
        return {"error": {"code": self.code, "message": str(self)}}


class FactError(RulesError):
    """A fact that is not declared, or a value of the wrong type."""
    code = "fact_error"

    def __init__(self, fact, reason, expected=None):
        self.fact = fact
        self.reason = reason
        self.expected = expected
        self.message = (_FACT_MESSAGES.get(reason, "Fato inválido: {fact}.").format(fact=fact)
                        + expected_pt(expected))
        super().__init__(self.message)

    def to_json(self):
        out = {"code": self.code, "fact": self.fact, "reason": self.reason}
        if self.expected is not None:
            out["expected"] = self.expected
        out["message"] = self.message
        return {"error": out}


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
