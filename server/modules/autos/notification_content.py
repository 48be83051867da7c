"""What a notificação de autuação says, drawn from the auto (auto_data), the registry and the
composed rules: every field the packs' auto_fields require (CTB art. 280 and the municipal law),
once each (rules.auto_form merges what two laws both require; the values joined from the source
texts the phone recorded, `auto_sources`, or a reviewer's correction of the field),
the infractions with article, amount in R$ and in the law's unit, the deadline to defend or
appeal with the authority that decides. Where the law is silent (Sapezal sets no days and no
authority) the text says so and shows the municipality's configured value, never a made-up one."""
from ...core.clock import to_local
from ...core.tenancy import owned
from ...extensions import db
from ..accounts.models import User
from ..registry.models import Municipality, Operator, Permit
from ..registry.vocabulary import vocabulary
from ..fieldsync import provenance
from ..rules.citations import format_citation
from ..rules.service import composed_for
from . import versions
from .auto_atoms import field_rows
from .auto_data import amount_words, auto_data, confirmed_infractions, total_cents, traffic_authority_act
from .instances import instances

PENALTY_PT = {"advertencia": "Advertência", "multa": "Multa", "suspensao": "Suspensão",
              "cassacao": "Cassação", "notificacao": "Notificação para regularizar"}
NOT_IN_LAW = "não definido em lei — configure"
# Printed on every document of a synthetic example municipality (a fictional law, issue 38).
EXAMPLE_PT = "EXEMPLO FICTÍCIO — município e lei sintéticos, para demonstração: documento sem valor legal."


# The step as each law names it (issue 34, item 4): Sapezal art. 28 VI "prazo de defesa",
# Paranatinga art. 48 and Nortelândia art. 16 "recurso"; "defesa prévia" where a pack says so.
STEP_WORDS = {"defesa": "defesa", "defesa_previa": "defesa prévia", "recurso": "recurso"}


def steps_title(kinds) -> str:
    """"Defesa", "Recurso", "Defesa e recurso"… from the kinds of the law's instances, in order;
    a content stored before the kinds were (None) keeps the generic words."""
    words = list(dict.fromkeys(STEP_WORDS.get(k) for k in kinds))
    if not words or None in words:
        return "Defesa e recurso"
    text = " e ".join(words)
    return text[:1].upper() + text[1:]


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


def infraction_content(composed, item, day=None):
    """An infraction of the auto as the notificação prints it: the wording in force on the day of
    the infraction (`day`; SPEC §3 "Amendments" — the amending act is cited beside the article)."""
    inf = (composed.as_of(item["id"], day.toordinal()) if day is not None else None) or composed.by_id.get(item["id"]) or {}
    amount = item.get("amount") if isinstance(item.get("amount"), dict) else {}
    return {"id": item["id"], "label": inf.get("label_pt") or item.get("label_pt") or item["id"],
            "citation": format_citation(composed, inf.get("citation") or item.get("citation")),
            "penalty": PENALTY_PT.get((inf.get("penalty") or {}).get("kind"), (inf.get("penalty") or {}).get("kind")),
            "penalty_kind": (inf.get("penalty") or {}).get("kind"),
            "amount_value": amount.get("value"), "amount_unit": amount.get("unit"),
            "amount_brl_cents": _brl(item.get("amount_brl")),
            "amount_text": amount_words(_brl(item.get("amount_brl")), amount.get("value"), amount.get("unit"),
                                        (inf.get("penalty") or {}).get("kind")),
            "observed": item.get("note") if isinstance(item.get("note"), str) else None,
            # The answers it rests on, each with how it was given (issue 34); None: not recorded.
            "grounds": provenance.grounds(composed, item)}


def deadline_source(step, sources=None):
    """Where a deadline's days come from: the article where the law fixes them, else the act the
    municipality recorded when it configured them (Configuração das regras), never the article
    that only asks for a deadline."""
    if step.get("days_from") != "config":
        return step["citation_pt"]
    # The act of the days in force on the day of the infraction (a dated row), else the one recorded.
    act = (step.get("act") or (sources or {}).get(f"deadlines:{step['config_key']}") or "").strip()
    return (f"fixado por {act}" if act else "fixado na configuração municipal, sem ato informado") + \
        f"; a lei não fixa o prazo, {step['citation_pt']}"


def deadline_text(step, sources=None):
    if step["days"] is None:
        return f"{step['label_pt']}: prazo {NOT_IN_LAW} ({step['citation_pt']}; em Configuração das regras)"
    unit = "dias úteis" if step.get("counting") == "cpc_219" else "dias corridos"
    text = f"{step['days']} {unit}, contados {step['start_pt']} ({deadline_source(step, sources)})"
    return text + (", com efeito suspensivo" if step["suspensive"] else "")


def authority(step, settings):
    """(text, source): from the law when it names the instance, else the municipal setting."""
    if step.get("instance_pt"):
        return step["instance_pt"], "lei"
    configured = (settings.get("authority_pt") or "").strip()
    if configured:
        return configured, "configuração municipal (a lei não indica a autoridade)"
    return NOT_IN_LAW, "configuração municipal ausente"


def auto_field_rows(composed, day, data, case=None):
    """The auto's fields as printed: one row per merged group (auto_atoms.field_rows)."""
    return field_rows(composed, day, data, case)


def version_note(case, data) -> dict | None:
    """{n, on, reason, original: [[field, as signed, as corrected]]} of the correction the auto
    stands at, None while it is as signed: the notificação prints the corrected auto, says so, and
    keeps what the signed original said beside it (issue 34, item 3; the original stays version 0,
    never changed, in the review's "Versões")."""
    if not data.get("_version"):
        return None
    row = versions.latest(case)
    original = versions.correctable_of(versions.signed_body(case))
    changes = versions.diff(original, row.data, versions.labels_of(case))
    return {"n": row.n, "on": to_local(row.created_at).date().isoformat(), "reason": row.reason,
            "original": [[field, before, after] for field, before, after in changes]}


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
    moment = case.record.device_at or case.record.received_at
    fields = auto_field_rows(composed, day, data, case)
    first = steps[0] if steps else None
    sources = (municipality.settings or {}).get("rules_sources") or {}
    # Only the municipal auto's infractions (auto_data): a CTB/SNT one goes to the communication to
    # the traffic authority (modules/traffic), never to this notificação (issue 34, item 2).
    own = [infraction_content(composed, i, day) for i in confirmed_infractions(data)]
    text, source = authority(first, settings) if first else (NOT_IN_LAW, "configuração municipal ausente")
    return {
        "v": 1,
        "municipality": {"name": municipality.name, "uf": municipality.uf, "ibge": municipality.ibge_code,
                         **({"example_pt": EXAMPLE_PT} if municipality.synthetic_example else {})},
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
        "field_sources": sorted({src for f in fields for src in f["source"]}),
        "infractions": own,
        "total_cents": total_cents(own),
        "traffic_authority_act": traffic_authority_act(municipality),
        "version": version_note(case, data),
        "instances": [{"level": s["level"], "kind": s["kind"], "label": s["label_pt"], "deadline": deadline_text(s, sources),
                       "days": s["days"], "authority": authority(s, settings)[0],
                       "authority_source": authority(s, settings)[1], "suspensive": s["suspensive"],
                       "counting": s["counting"], "counting_pt": s["counting_pt"]}
                      for s in steps],
        "authority": text, "authority_source": source,
        # How the checklist's answers were given (item by item, by group declaration, registry).
        "answers_how": {"recorded": isinstance(data.get("checklist_how"), dict),
                        "text": provenance.summary_text(data.get("checklist_how"))},
    }

