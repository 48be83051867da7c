"""Field types of the record bodies that take JSON as JSON gives it (issue 39, "strict at the door").

The body is stored as sent and every page reads it as sent, not as marshmallow loaded it: a
coercing field ("12" accepted as 12, "true" as True) would let a string through to a page that
does arithmetic on it. These refuse any other JSON type, and their OpenAPI form states exactly
what they take. `JsonValue` bounds what is kept as sent without a shape of its own: nesting depth
and text length (a body nested deeper than the pages and the copy walk is refused at the door).
"""
import math

from marshmallow import ValidationError, fields

MAX_DEPTH = 8  # objects and lists inside one free-form field (the pages walk at most 4)
MAX_BODY_DEPTH = 12  # the whole body: free-form fields sit at most 3 levels down
MAX_TEXT = 2000  # one text inside a free-form field
MAX_KEY = 200


class StrictNumber(fields.Float):
    """A JSON number (never a string, never true/false), finite. (A Float: apispec documents it so.)"""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValidationError("Informe um número.")
        return value


class StrictBoolean(fields.Boolean):
    """true or false only (marshmallow's Boolean also takes "yes", 1, "on"…)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise ValidationError("Informe true ou false.")
        return value


def depth(value, limit):
    """The nesting depth of a decoded JSON value (0 for a scalar), counting at most to limit + 1."""
    deepest, pending = 0, [(value, 0)]
    while pending:
        item, level = pending.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        level += 1
        if level > deepest:
            deepest = level
            if deepest > limit:
                return deepest
        pending.extend((child, level) for child in children)
    return deepest


def refusal(value, limit):
    """The first reason a free-form value is refused, or None."""
    if depth(value, limit) > limit:
        return f"Aninhamento acima de {limit} níveis."
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if len(item) > MAX_TEXT:
                return f"Texto acima de {MAX_TEXT} caracteres."
        elif isinstance(item, dict):
            if any(len(key) > MAX_KEY for key in item):
                return f"Nome de campo acima de {MAX_KEY} caracteres."
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, float) and not math.isfinite(item):
            return "Número inválido."
    return None


def _metadata(kwargs, description):
    bound = f"Qualquer JSON até {MAX_DEPTH} níveis de aninhamento, textos até {MAX_TEXT} caracteres."
    return {**kwargs.pop("metadata", {}), "description": f"{description} {bound}".strip(), "x-maxDepth": MAX_DEPTH}


class JsonValue(fields.Raw):
    """Any JSON value, kept as sent, within MAX_DEPTH levels and MAX_TEXT characters a text."""

    def __init__(self, *, description="", **kwargs):
        super().__init__(metadata=_metadata(kwargs, description), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        reason = refusal(value, MAX_DEPTH)
        if reason:
            raise ValidationError(reason)
        return value


class JsonObject(fields.Dict):
    """A JSON object kept as sent, bounded like JsonValue (a Dict: documented as an object)."""

    def __init__(self, *, description="", **kwargs):
        super().__init__(metadata=_metadata(kwargs, description), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, dict):
            raise ValidationError("Informe um objeto JSON.")
        reason = refusal(value, MAX_DEPTH)
        if reason:
            raise ValidationError(reason)
        return value
