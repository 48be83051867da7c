"""Form schemas of the issuance records (pt-BR messages next to the field)."""
from marshmallow import fields, validate

from ..registry.schemas import LEN, BaseSchema
from .models import INSURANCE_KINDS, VISTORIA_KINDS, VISTORIA_RESULTS


class Reais(fields.Decimal):
    """An amount in reais as a clerk types it from the policy: "15.000,00" as well as "15000.00"."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str) and "," in value:
            value = value.replace(".", "").replace(",", ".")
        return super()._deserialize(value, attr, data, **kwargs)


MONEY = lambda: Reais(places=2, validate=validate.Range(  # noqa: E731
    min=0, max=10**11, error="Informe um valor entre 0 e 100 bilhões."),
    error_messages={"invalid": "Informe um valor em reais, por exemplo 15.000,00."})
YES_NO = lambda: fields.Boolean(truthy={"sim", "true", "1"}, falsy={"nao", "false", "0"},  # noqa: E731
                                error_messages={"invalid": "Escolha sim ou não."})


class VistoriaSchema(BaseSchema):
    kind = fields.String(required=True, validate=validate.OneOf(
        [k for k in VISTORIA_KINDS if k != "registro_anterior"], error="Tipo inválido."))
    inspected_on = fields.Date(required=True)
    result = fields.String(required=True, validate=validate.OneOf(list(VISTORIA_RESULTS), error="Resultado inválido."))
    items_to_fix = fields.String(validate=LEN(3, 4000))
    return_on = fields.Date()
    inspector_name = fields.String(required=True, validate=LEN(3, 160))
    notes = fields.String(validate=LEN(1, 2000))


class InsurancePolicySchema(BaseSchema):
    kind = fields.String(required=True, validate=validate.OneOf(list(INSURANCE_KINDS), error="Tipo inválido."))
    insurer = fields.String(required=True, validate=LEN(2, 160))
    policy_number = fields.String(required=True, validate=LEN(3, 60))
    starts_on = fields.Date(required=True)
    ends_on = fields.Date(required=True)
    cover_temporary_disability = MONEY()
    cover_permanent_disability = MONEY()
    cover_death = MONEY()
    cover_medical = MONEY()
    cover_personal_accidents = YES_NO()
    # Sapezal art. 4º § 1º, per covered person (models.COVERED_PERSONS × PERSON_COVERS).
    third_parties_temporary_disability = MONEY()
    third_parties_permanent_disability = MONEY()
    third_parties_death = MONEY()
    third_parties_personal_accidents = YES_NO()
    driver_temporary_disability = MONEY()
    driver_permanent_disability = MONEY()
    driver_death = MONEY()
    driver_personal_accidents = YES_NO()
    passenger_temporary_disability = MONEY()
    passenger_permanent_disability = MONEY()
    passenger_death = MONEY()
    passenger_personal_accidents = YES_NO()
    coverage_attested = YES_NO()
    copy_filed = YES_NO()


class DocumentChecksSchema(BaseSchema):
    checked_on = fields.Date(required=True)
    valid_until = fields.Date()


class IssqnPaymentSchema(BaseSchema):
    paid_on = fields.Date(required=True)
    paid_amount_brl = MONEY()
    payment_reference = fields.String(validate=LEN(1, 60))


class VistoriaPeriodSchema(BaseSchema):
    months = fields.Integer(required=True, validate=validate.Range(min=1, max=60, error="Entre 1 e 60 meses."))
    source = fields.String(required=True, validate=LEN(3, 200))
