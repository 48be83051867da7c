"""Marshmallow schemas for the registry: one place for every field rule (forms and API alike).

Messages are pt-BR because back-office users read them next to the field.
"""

from marshmallow import Schema, ValidationError, fields, post_load, pre_load, validate, validates, validates_schema

from ...core import validation as v
from .models import FISCAL_UNITS, ISSQN_STATUSES, ISSQN_UNKNOWN, PERMIT_KINDS, PERMIT_NUMBER_MAX
from ...core.clock import local_today

# Ids posted in forms: bounded so a huge number is a field error, not a database overflow (500).
ROW_ID = lambda **kw: fields.Integer(validate=validate.Range(  # noqa: E731
    min=1, max=2**31 - 1, error="Registro não encontrado neste município."), **kw)
LEN = lambda lo, hi: validate.Length(min=lo, max=hi, error=f"Informe entre {lo} e {hi} caracteres.")  # noqa: E731


class BaseSchema(Schema):
    """Strips surrounding blanks and turns empty form strings into 'not given'."""

    @pre_load
    def _clean(self, data, **_):
        if not isinstance(data, dict):
            raise ValidationError("Formato inválido.")
        cleaned = {}
        for key, value in data.items():
            if isinstance(value, str):
                value = value.strip()
                if value == "":
                    continue
            cleaned[key] = value
        return cleaned


class CompanySchema(BaseSchema):
    legal_name = fields.String(required=True, validate=LEN(2, 160))
    trade_name = fields.String(validate=LEN(1, 160))
    cnpj = fields.String(required=True, validate=v.validate_cnpj)
    address = fields.String(validate=LEN(3, 240))
    phone = fields.String(validate=LEN(8, 30))

    @post_load
    def _normalize(self, data, **_):
        data["cnpj"] = v.only_digits(data["cnpj"])
        return data


class OperatorSchema(BaseSchema):
    name = fields.String(required=True, validate=LEN(3, 160))
    cpf = fields.String(required=True, validate=v.validate_cpf)
    cnh_number = fields.String(required=True, validate=v.validate_cnh_number)
    cnh_category = fields.String(required=True, validate=validate.OneOf(
        v.CNH_CATEGORIES, error="Categoria da CNH deve incluir A (A, AB, AC, AD ou AE)."))
    cnh_first_issue_date = fields.Date(required=True, validate=v.validate_past_date)
    cnh_expiry = fields.Date(required=True)
    birth_date = fields.Date(required=True, validate=v.validate_past_date)
    blood_type = fields.String(validate=validate.OneOf(v.BLOOD_TYPES, error="Tipo sanguíneo inválido."))
    address = fields.String(validate=LEN(3, 240))
    residence_since = fields.Date(validate=v.validate_past_date)
    phone = fields.String(validate=LEN(8, 30))
    company_id = ROW_ID()

    @post_load
    def _normalize(self, data, **_):
        data["cpf"] = v.only_digits(data["cpf"])
        data["cnh_number"] = v.only_digits(data["cnh_number"])
        return data

    @validates_schema
    def _dates(self, data, **_):
        errors = {}
        birth, first = data.get("birth_date"), data.get("cnh_first_issue_date")
        if birth and first and first <= birth:
            errors["cnh_first_issue_date"] = ["A primeira habilitação deve ser posterior ao nascimento."]
        if birth and data.get("residence_since") and data["residence_since"] < birth:
            errors["residence_since"] = ["A residência não pode começar antes do nascimento."]
        if errors:
            raise ValidationError(errors)


class VehicleSchema(BaseSchema):
    plate = fields.String(required=True, validate=v.validate_plate)
    renavam = fields.String(required=True, validate=v.validate_renavam)
    chassis = fields.String(required=True, validate=v.validate_chassis)
    make = fields.String(required=True, validate=LEN(2, 60))
    model = fields.String(required=True, validate=LEN(1, 80))
    year_manufacture = fields.Integer(required=True)
    engine_cc = fields.Integer(required=True, validate=validate.Range(
        min=50, max=2000, error="Cilindrada deve estar entre 50 e 2000 cc."))
    plate_category = fields.String(load_default="aluguel", validate=validate.OneOf(
        ["aluguel", "particular", "oficial"], error="Categoria inválida."))
    plate_colour = fields.String(load_default="vermelha", validate=validate.OneOf(
        ["vermelha", "cinza", "branca", "preta"], error="Cor de placa inválida."))

    @validates("year_manufacture")
    def _year(self, value, **_):
        if not 1950 <= value <= local_today().year + 1:
            raise ValidationError(f"Ano de fabricação deve estar entre 1950 e {local_today().year + 1}.")

    @post_load
    def _normalize(self, data, **_):
        data["plate"] = v.normalize_plate(data["plate"])
        data["renavam"] = v.only_digits(data["renavam"])
        data["chassis"] = data["chassis"].upper()
        return data


class PontoSchema(BaseSchema):
    name = fields.String(required=True, validate=LEN(2, 120))
    location = fields.String(validate=LEN(2, 240))
    latitude = fields.Float(validate=validate.Range(min=-34, max=6, error="Latitude fora do Brasil."))
    longitude = fields.Float(validate=validate.Range(min=-74, max=-28, error="Longitude fora do Brasil."))
    capacity = fields.Integer(required=True, validate=validate.Range(
        min=1, max=500, error="Capacidade deve estar entre 1 e 500."))
    legal_basis = fields.String(validate=LEN(2, 200))


class PermitSchema(BaseSchema):
    number = fields.String(required=True, validate=[
        LEN(1, PERMIT_NUMBER_MAX),
        validate.Regexp(r"^[A-Za-z0-9/.\-]+$", error="Use apenas letras, números, '/', '.' e '-'."),
    ])
    kind = fields.String(load_default="alvara", validate=validate.OneOf(list(PERMIT_KINDS), error="Tipo inválido."))
    holder_operator_id = ROW_ID()
    holder_company_id = ROW_ID()
    driver_ids = fields.List(ROW_ID(), load_default=list)
    vehicle_id = ROW_ID(required=True)
    ponto_id = ROW_ID()
    # Paranatinga: the selected or called candidate the permit goes to (selection.operations).
    candidate_id = ROW_ID()
    issued_on = fields.Date(required=True)
    valid_from = fields.Date(required=True)
    # Computed from the law when left out (issuance.validity); another date needs a reason.
    valid_until = fields.Date()
    validity_exception_reason = fields.String(validate=LEN(10, 2000))
    # Never presumed: left out, the situation is unknown until recorded.
    issqn_status = fields.String(load_default=ISSQN_UNKNOWN, validate=validate.OneOf(
        list(ISSQN_STATUSES), error="Situação inválida."))
    # Sapezal Lei 125/1999, art. 9º, III: inscrição no cadastro de contribuintes do município.
    taxpayer_number = fields.String(validate=[LEN(1, 30), validate.Regexp(
        r"^[0-9A-Za-z./\-]+$", error="Use apenas letras, números, '.', '/' e '-'.")])
    notes = fields.String(validate=LEN(1, 2000))

    @post_load
    def _normalize(self, data, **_):
        data["number"] = data["number"].upper()
        return data

    @validates_schema
    def _consistency(self, data, **_):
        errors = {}
        has_person, has_company = data.get("holder_operator_id"), data.get("holder_company_id")
        if bool(has_person) == bool(has_company):
            errors["holder_operator_id"] = ["Informe o titular: uma pessoa ou uma empresa (apenas um)."]
        if data.get("valid_from") and data.get("valid_until") and data["valid_until"] <= data["valid_from"]:
            errors["valid_until"] = ["A validade deve terminar depois do início."]
        if data.get("issued_on") and data.get("valid_from") and data["valid_from"] < data["issued_on"]:
            errors["valid_from"] = ["O início da validade não pode ser anterior à emissão."]
        if errors:
            raise ValidationError(errors)


class PermitActionSchema(BaseSchema):
    reason = fields.String(required=True, validate=LEN(5, 2000))
    valid_until = fields.Date()  # renew (proposed from the law; another date needs exception_reason)
    exception_reason = fields.String(validate=LEN(10, 2000))  # renew with another validity
    suspended_until = fields.Date()  # suspend


class UnitValueSchema(BaseSchema):
    unit = fields.String(required=True, validate=validate.OneOf(FISCAL_UNITS, error="Unidade inválida."))
    valid_from = fields.Date(required=True)
    value_brl = fields.Decimal(required=True, places=4, validate=validate.Range(
        min=0, min_inclusive=False, error="O valor deve ser positivo."))
    source = fields.String(required=True, validate=LEN(3, 200))
