"""Schemas of the rules API: the views load and dump with them, core.openapi documents them.

The inner shapes of packs, configuration and evaluation items are defined by
shared_rules/SPEC.md and shared_rules/schemas/ (checked there); here they are plain objects.
"""
from marshmallow import Schema, fields, validate

from ...core.schemas import ErrorDetailSchema


class ComposedRulesSchema(Schema):
    """GET /api/v1/rules/<slug>: what the field app evaluates offline (ETag over this JSON)."""
    spec_version = fields.String(required=True)
    municipality = fields.String(required=True)
    packs = fields.List(fields.Dict(), required=True, metadata={"description": "shared_rules/schemas/pack.schema.json"})
    config = fields.Dict(required=True, metadata={"description": "shared_rules/schemas/config.schema.json"})


class HistoryEntrySchema(Schema):
    """An earlier penalty of the same operator (recidivism), as server/rules/inputs.applied_history reads it."""
    infraction = fields.String(required=True, validate=validate.Length(min=1, max=120),
                               metadata={"description": "Id of an infraction of the composed packs."})
    date = fields.String(required=True, validate=validate.Length(max=40), metadata={"example": "2024-01-15"})
    penalty = fields.String(allow_none=True, validate=validate.Length(max=40))


class EvaluateSchema(Schema):
    municipality = fields.String(required=True, validate=validate.Length(min=1, max=40),
                                 metadata={"example": "sapezal"})
    date = fields.String(required=True, validate=validate.Length(max=40),
                         metadata={"description": "Data da fiscalização, AAAA-MM-DD.", "example": "2024-05-10"})
    facts = fields.Dict(keys=fields.String(), required=True, metadata={"description": "Fato → valor (SPEC.md)."})
    history = fields.List(fields.Nested(HistoryEntrySchema), load_default=list,
                          metadata={"description": "Penalidades anteriores (reincidência)."})


class PackRefSchema(Schema):
    id = fields.String(required=True)
    version = fields.String(required=True)


class FailedRequirementSchema(Schema):
    requirement = fields.String(required=True)
    pack = fields.String(required=True)
    citation = fields.Dict(required=True)
    label_pt = fields.String(required=True)
    infractions = fields.List(fields.String(), required=True)


class EvaluationSchema(Schema):
    spec_version = fields.String(required=True)
    municipality = fields.String(required=True)
    date = fields.String(required=True)
    packs = fields.List(fields.Nested(PackRefSchema), required=True)
    failed = fields.List(fields.Nested(FailedRequirementSchema), required=True)
    passed = fields.List(fields.String(), required=True)
    not_applicable = fields.List(fields.String(), required=True)
    undecided = fields.List(fields.Dict(), required=True)
    infractions = fields.List(fields.Dict(), required=True)
    escalations = fields.List(fields.Dict(), required=True)
    deadlines = fields.List(fields.Dict(), required=True)


class RulesErrorDetailSchema(ErrorDetailSchema):
    """The error envelope plus what the rule engine adds (server/rules/errors.py)."""
    fact = fields.String(metadata={"description": "The fact that was refused (fact_error)."})
    reason = fields.String()
    index = fields.Integer(metadata={"description": "Position in history (history_error)."})
    expected = fields.Dict(metadata={"description": "What the fact accepts: type, unit, min, max, integer, "
                                                    "values (fact_error on a declared fact)."})


class RulesErrorSchema(Schema):
    error = fields.Nested(RulesErrorDetailSchema, required=True)
