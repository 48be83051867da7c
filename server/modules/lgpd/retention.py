"""Retention settings of personal data (LGPD art. 15 and 16), one per kind of record, each a
number of years saved with the act that fixes it and the day and person that set it
(Municipality.settings["retention"], audited). Nothing is presumed: while a period is not set,
the anonymisation job leaves the municipality's records as they are and says so.

The reading behind each period (shown beside the form, so the clerk sees what the law says and
what it leaves to the municipality):
"""
from datetime import date

from ...core.audit import current_actor, record
from ...core.clock import local_today
from ...core.errors import ApiError
from ...extensions import db

MAX_YEARS = 100

READINGS = {
    "autos_years": (
        "Autos de infração e seus processos",
        "Documentos públicos do processo administrativo sancionador (Lei 9.784/1999, aplicada "
        "subsidiariamente ao município que não tem lei própria). Ficam com a identificação do autuado "
        "enquanto a Administração pode agir: a ação punitiva prescreve em cinco anos da prática do ato "
        "(Lei 9.873/1999, art. 1º) e a cobrança da multa em cinco anos da constituição definitiva do "
        "crédito, encerrado o processo (art. 1º-A). Essa lei rege a Administração federal; para o "
        "município o STJ aplica o mesmo prazo de cinco anos (Decreto 20.910/1932, art. 1º). O prazo conta "
        "do último ato do processo (auto, decisão, penalidade aplicada); um processo com penalidade "
        "pendente ou suspensa fica retido. O auto em si nunca é apagado por este sistema: eliminar "
        "documento público depende da instituição arquivística (Lei 8.159/1991, art. 9º)."),
    "registry_years": (
        "Cadastro do permissionário ou auxiliar",
        "Mantido enquanto há permissão ativa ou suspensa (LGPD art. 7º, II, e art. 23: obrigação legal "
        "e execução da política pública) e, encerrada a última, pelo prazo que a tabela de "
        "temporalidade do município fixar (Lei 8.159/1991, art. 9º; LGPD art. 16, I). Nenhuma das leis "
        "de moto-táxi fixa esse prazo: informe o ato que o fixa. Vencido, os dados pessoais são "
        "anonimizados (LGPD art. 16, IV; art. 12); os que os autos ainda retidos precisam (nome, CPF, "
        "CNH) ficam até o prazo dos autos."),
}
SOURCE_KEYS = {"autos_years": "autos_source", "registry_years": "registry_source"}


def retention_settings(municipality):
    """{"autos_years", "autos_source", "registry_years", "registry_source", "set_on", "set_by"}
    or {} while not configured."""
    return dict(municipality.setting("retention") or {})


def configured(settings):
    return all(settings.get(k) is not None and settings.get(SOURCE_KEYS[k]) for k in READINGS)


def save_retention_settings(municipality, form, actor=None):
    """Both periods with their acts; every wrong field named in pt-BR at once."""
    values, errors = {}, {}
    for key, source_key in SOURCE_KEYS.items():
        text = (form.get(key) or "").strip()
        if not text.isdigit() or not 1 <= int(text) <= MAX_YEARS:
            errors[key] = [f"Informe o prazo em anos (número inteiro de 1 a {MAX_YEARS})."]
        else:
            values[key] = int(text)
        source = (form.get(source_key) or "").strip()
        if len(source) < 5:
            errors[source_key] = ["Informe o ato ou a lei que fixa este prazo."]
        elif len(source) > 300:
            errors[source_key] = ["Use no máximo 300 caracteres."]
        else:
            values[source_key] = source
    if errors:
        raise ApiError(422, "validation_error", "Dados inválidos.", errors)
    before = retention_settings(municipality) or None
    actor = actor or current_actor()
    values["set_on"] = local_today().isoformat()
    values["set_by"] = getattr(actor, "username", None) or "sistema"
    settings = dict(municipality.settings or {})
    settings["retention"] = values
    municipality.settings = settings
    record("retention_settings", "municipality", municipality.id, before, values,
           reason="Prazos de retenção (LGPD art. 16)", municipality_id=municipality.id, actor=actor)
    db.session.flush()
    return values


def set_on(settings):
    return date.fromisoformat(settings["set_on"]) if settings.get("set_on") else None
