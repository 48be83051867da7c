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
    """The nesting depth of a decoded JSON value (0 for a scalar), counting at most to limit + 1.
    Layer by layer: the push runs it on every body."""
    found, layer = 0, [value]
    while layer:
        below = []
        for item in layer:
            kind = type(item)
            if kind is dict:
                below.extend(item.values())
            elif kind is list:
                below.extend(item)
            else:
                continue
        if not below and not any(type(item) in (dict, list) for item in layer):
            return found
        found += 1
        if found > limit:
            return found
        layer = below
    return found


def refusal(value, limit):
    """The first reason a free-form value is refused (deeper than limit, a text or key too long,
    a number that is no JSON), or None. One pass, layer by layer."""
    found, layer = 0, [value]
    while layer:
        below, containers = [], False
        for item in layer:
            kind = type(item)
            if kind is str:
                if len(item) > MAX_TEXT:
                    return f"Texto acima de {MAX_TEXT} caracteres."
            elif kind is dict:
                containers = True
                for key in item:
                    if len(key) > MAX_KEY:
                        return f"Nome de campo acima de {MAX_KEY} caracteres."
                below.extend(item.values())
            elif kind is list:
                containers = True
                below.extend(item)
            elif kind is float and not math.isfinite(item):
                return "Número inválido."
        if containers:
            found += 1
            if found > limit:
                return f"Aninhamento acima de {limit} níveis."
        layer = below
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
