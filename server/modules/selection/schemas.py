"""Form schemas of the selection screens (pt-BR messages next to the field)."""
from marshmallow import ValidationError, fields, post_load, validate

from ...core import validation as v
from ..registry.schemas import LEN, ROW_ID, BaseSchema
from .rules import CHECKED_CONDITIONS, SCHOOLING

YEAR = validate.Range(min=1950, max=2100, error="Ano inválido.")


class PopulationSchema(BaseSchema):
    population = fields.Integer(required=True, validate=validate.Range(
        min=1, max=50_000_000, error="Informe a população (número de habitantes)."))
    reference_date = fields.Date(required=True)
    source = fields.String(required=True, validate=LEN(3, 200))


class EditalSchema(BaseSchema):
    number = fields.String(required=True, validate=LEN(1, 40))
    published_on = fields.Date(required=True)
    registration_until = fields.Date(required=True)
    vacancies_offered = fields.Integer(required=True, validate=validate.Range(
        min=1, max=10_000, error="Informe ao menos 1 vaga."))
    # One added criterion per line: "label" (higher value first) or "label | menor" (lower first).
    extra_criteria_text = fields.String(validate=LEN(0, 2000))


def parse_extra_criteria(text):
    criteria = []
    for index, line in enumerate(raw.strip() for raw in (text or "").splitlines()):
        if not line:
            continue
        label, _, direction = (part.strip() for part in line.partition("|"))
        if not 2 <= len(label) <= 80:
            raise ValidationError({"extra_criteria_text": [f"Critério “{line[:40]}”: nome entre 2 e 80 caracteres."]})
        criteria.append({"key": f"c{len(criteria) + 1}", "label": label,
                         "higher_first": direction.lower() not in ("menor", "menor primeiro")})
    if len(criteria) > 10:
        raise ValidationError({"extra_criteria_text": ["No máximo 10 critérios adicionais."]})
    return criteria


class _CandidateFields(BaseSchema):
    name = fields.String(required=True, validate=LEN(3, 160))
    cpf = fields.String(required=True, validate=v.validate_cpf)
    profession_since = fields.Date(required=True, validate=v.validate_past_date)
    cnh_first_issue_date = fields.Date(required=True, validate=v.validate_past_date)
    vehicle_year = fields.Integer(validate=YEAR)
    schooling = fields.Integer(required=True, validate=validate.Range(
        min=0, max=len(SCHOOLING) - 1, error="Escolha a escolaridade."))

    @post_load
    def _digits(self, data, **_):
        data["cpf"] = v.only_digits(data["cpf"])
        return data


# One checkbox per legal condition the clerk checks on the documents.
CandidateSchema = _CandidateFields.from_dict(
    {c.key: fields.Boolean(truthy={"1", "on", "true"}, falsy={"0", "false"}) for c in CHECKED_CONDITIONS},
    name="CandidateSchema")


class TieBreakSchema(BaseSchema):
    order = fields.List(ROW_ID(), required=True, validate=validate.Length(min=2, max=1000))
    reason = fields.String(required=True, validate=LEN(5, 2000))


class ReasonSchema(BaseSchema):
    reason = fields.String(required=True, validate=LEN(5, 2000))


class MotorcycleSchema(BaseSchema):
    vehicle_year = fields.Integer(required=True, validate=YEAR)
    reason = fields.String(required=True, validate=LEN(5, 2000))
