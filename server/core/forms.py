"""Form plumbing for the back office: request.form → schema input, errors → per-field messages.

Views describe their fields once (Field); the same list renders the form (templates/backoffice/
_form.html), turns a model row into form values and parses a submission with the registry schema.
Errors from the schema (422) and from permits.entities and permits.operations (409 duplicates,
lotado, foreign ids) come back as {field: [pt-BR reason]} so the template can show them next to the field.
"""
from dataclasses import dataclass
from dataclasses import field as dc_field
from datetime import date
from decimal import Decimal

from flask import request
from marshmallow import ValidationError

from ..extensions import db
from .errors import ApiError, flatten_fields


@dataclass
class Field:
    name: str
    label: str
    kind: str = "text"  # text | date | number | select | multiselect | textarea
    required: bool = False
    hint: str = ""
    options: list = dc_field(default_factory=list)  # [(value, label)] for select kinds
    attrs: dict = dc_field(default_factory=dict)  # extra HTML attributes (inputmode, maxlength…)

    @property
    def multiple(self):
        return self.kind == "multiselect"


def form_input(fields):
    """The submitted values of `fields` as a dict for the schema (lists for multi-selects)."""
    data = {}
    for f in fields:
        if f.multiple:
            data[f.name] = [v for v in request.form.getlist(f.name) if v.strip()]
        elif f.name in request.form:
            data[f.name] = request.form.get(f.name, "")
    return data


def raw_values(fields):
    """What the user typed, to put back in the form after an error."""
    return {f.name: (request.form.getlist(f.name) if f.multiple else request.form.get(f.name, ""))
            for f in fields}


def _display(value):
    if value is None:
        return ""
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return format(value.normalize(), "f")
    return str(value)


def object_values(obj, fields, formatters=None):
    """Form values of an existing row (edit forms)."""
    formatters = formatters or {}
    values = {}
    for f in fields:
        value = getattr(obj, f.name, None)
        if f.name in formatters:
            values[f.name] = formatters[f.name](value)
        elif f.multiple:
            values[f.name] = [str(v) for v in (value or [])]
        else:
            values[f.name] = _display(value)
    return values


def load(schema, fields, editing=False, raw=None):
    """Parse the submitted form (or `raw`) with `schema`. Returns (data, errors); one is None.

    On edit, an optional field left blank means "clear it": the schema drops blanks, so the key
    is put back as None and the operation writes it.
    """
    try:
        data = schema.load(form_input(fields) if raw is None else raw)
    except ValidationError as err:
        return None, flatten_fields(err.messages)
    if editing:
        for f in fields:
            if f.name in schema.fields and f.name not in data and not schema.fields[f.name].required:
                data[f.name] = [] if f.multiple else None
    return data, None


def run(operation, *args, **kwargs):
    """Call a registry operation; field errors it raises come back as (None, errors)."""
    try:
        return operation(*args, **kwargs), None
    except ApiError as err:
        if err.status in (404, 409, 422) and (err.fields or err.status == 409):
            db.session.rollback()
            return None, err.fields or {"_schema": [err.message]}
        raise


def stray_errors(errors, fields):
    """Messages for fields the form does not show (e.g. _schema), shown above the form."""
    shown = {f.name for f in fields}
    return [msg for name, msgs in (errors or {}).items() if name not in shown for msg in msgs]
