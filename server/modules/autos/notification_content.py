"""What a notificação de autuação says, drawn from the auto (auto_data), the registry and the
composed rules: every field the packs' auto_fields require (CTB art. 280 and the municipal law),
the infractions with article, amount in R$ and in the law's unit, the deadline to defend or
appeal with the authority that decides. Where the law is silent (Sapezal sets no days and no
authority) the text says so and shows the municipality's configured value, never a made-up one."""
from ...core.clock import to_local
from ...core.tenancy import owned
from ...extensions import db
from ...rules.checklist import auto_fields
from ..accounts.models import User
from ..registry.models import Municipality, Operator, Permit
from ..registry.vocabulary import vocabulary
from ..rules.citations import format_citation
from ..rules.service import composed_for
from .auto_data import auto_data, confirmed_infractions
from .instances import instances

PENALTY_PT = {"advertencia": "Advertência", "multa": "Multa", "suspensao": "Suspensão",
              "cassacao": "Cassação", "notificacao": "Notificação para regularizar"}
NOT_IN_LAW = "não definido em lei — configure"


def process_settings(municipality) -> dict:
    """Municipal settings of the process the laws leave open (Municipality.settings["autos"])."""
    return (municipality.settings or {}).get("autos") or {}


def infraction_date(case, data=None):
    data = data if data is not None else auto_data(case)
    moment = case.record.device_at or case.record.received_at
    return to_local(moment).date() if moment else None


def permit_for(case, data=None):
    data = data if data is not None else auto_data(case)
    number = data.get("permit_number")
    if not isinstance(number, str) or not number:
        return None
    return Permit.query.filter_by(municipality_id=case.municipality_id, number=number).first()


def _brl(value):
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return None
    return round(value * 100)


def _infraction(composed, item):
    inf = composed.by_id.get(item["id"]) or {}
    amount = item.get("amount") if isinstance(item.get("amount"), dict) else {}
    return {"id": item["id"], "label": inf.get("label_pt") or item.get("label_pt") or item["id"],
            "citation": format_citation(composed, inf.get("citation") or item.get("citation")),
            "penalty": PENALTY_PT.get((inf.get("penalty") or {}).get("kind"), (inf.get("penalty") or {}).get("kind")),
            "penalty_kind": (inf.get("penalty") or {}).get("kind"),
            "amount_value": amount.get("value"), "amount_unit": amount.get("unit"),
            "amount_brl_cents": _brl(item.get("amount_brl"))}


def deadline_text(step):
    if step["days"] is None:
        return (f"{step['label_pt']}: prazo {NOT_IN_LAW} ({step['citation_pt']}; "
                f"Configuração das regras, chave {step['config_key']})")
    text = f"{step['days']} dias corridos, contados {step['start_pt']} ({step['citation_pt']})"
    return text + (", com efeito suspensivo" if step["suspensive"] else "")


def authority(step, settings):
    """(text, source): from the law when it names the instance, else the municipal setting."""
    if step.get("instance_pt"):
        return step["instance_pt"], "lei"
    configured = (settings.get("authority_pt") or "").strip()
    if configured:
        return configured, "configuração municipal (a lei não indica a autoridade)"
    return NOT_IN_LAW, "configuração municipal ausente"


def build_content(case, serial, issued_on) -> dict:
    municipality = db.session.get(Municipality, case.municipality_id)
    data = auto_data(case)
    composed = composed_for(municipality)
    day = infraction_date(case, data)
    steps = instances(composed, day)
    settings = process_settings(municipality)
    operator = owned(Operator, case.record.operator_id, case.municipality_id)
    permit = permit_for(case, data)
    fiscal = owned(User, case.record.user_id, case.municipality_id)
    signatures = data.get("signatures") if isinstance(data.get("signatures"), dict) else {}
    values = data.get("auto_fields") if isinstance(data.get("auto_fields"), dict) else {}
    moment = case.record.device_at or case.record.received_at
    fields = [{"label": f["label_pt"], "citation": format_citation(composed, f["citation"]),
               "value": (values.get(f["id"]) or "").strip() if isinstance(values.get(f["id"]), str) else ""}
              for f in auto_fields(composed, day.isoformat())]
    first = steps[0] if steps else None
    text, source = authority(first, settings) if first else (NOT_IN_LAW, "configuração municipal ausente")
    return {
        "v": 1,
        "municipality": {"name": municipality.name, "uf": municipality.uf, "ibge": municipality.ibge_code},
        "serial": serial, "number": f"NOT-{case.number or case.id}", "issued_on": issued_on.isoformat(),
        "auto": {"number": case.number, "at": to_local(moment).strftime("%d/%m/%Y %H:%M") if moment else None,
                 "place": data.get("place") if isinstance(data.get("place"), str) else None,
                 "plate": data.get("plate") if isinstance(data.get("plate"), str) else None,
                 "permit_number": permit.number if permit else data.get("permit_number"),
                 "permit_word": vocabulary(municipality).permit_title,
                 "fiscal": fiscal.name if fiscal else None,
                 "operator_signed": bool(signatures.get("operator")),
                 "operator_refused": bool(signatures.get("operator_refused")),
                 "homologated_on": to_local(case.decided_at).date().isoformat() if case.decided_at else None},
        "operator": {"name": operator.name, "cnh": operator.cnh_number} if operator else None,
        "fields": fields,
        "infractions": [_infraction(composed, i) for i in confirmed_infractions(data)],
        "instances": [{"level": s["level"], "label": s["label_pt"], "deadline": deadline_text(s),
                       "days": s["days"], "authority": authority(s, settings)[0],
                       "authority_source": authority(s, settings)[1], "suspensive": s["suspensive"]}
                      for s in steps],
        "authority": text, "authority_source": source,
    }

