"""What is about to lapse for one permit, in words for its holder's phone (and the same dates the
back office alerts on): the permit's validity, the insurance policy, the vistoria."""
from ...core.ptbr import plate as plate_text
from datetime import timedelta

from ..registry.models import Municipality
from . import records
from .validity import rule_for
from ...extensions import db
from .substitutions import pending_substitution_vistorias
from .renewal import cycle_start, document_state, documents_for, latest_check

PERMIT_HORIZON = 30
INSURANCE_HORIZON = 15  # Sapezal art. 4º § 2º asks the renewal 5 days before; warn earlier
VISTORIA_HORIZON = 30


def _br(day):
    return day.strftime("%d/%m/%Y")


def permit_alerts(permit, today):
    """[{code, message, due_on}] soonest first; empty when nothing lapses soon."""
    muni = db.session.get(Municipality, permit.municipality_id)
    out = []
    if permit.status in ("ativo", "suspenso", "vencido") and permit.valid_until <= today + timedelta(days=PERMIT_HORIZON):
        rule = rule_for(muni, permit.kind)
        basis = f" ({rule.basis})" if rule else ""
        verb = "venceu" if permit.valid_until < today else "vence"
        out.append({"code": "permit_validity", "due_on": permit.valid_until,
                    "message": f"A validade {verb} em {_br(permit.valid_until)}: peça a renovação{basis}."
                               + _renewal_documents_due(muni, permit, today)})
    policy = records.policy_in_force(permit.vehicle_id, today, kinds=("terceiros_app", "outro", "vida"))
    if policy is None:
        out.append({"code": "insurance_missing", "due_on": None,
                    "message": "Nenhum seguro em vigor registrado: apresente a apólice na prefeitura."})
    elif policy.ends_on <= today + timedelta(days=INSURANCE_HORIZON) and not records.renewal_filed(policy):
        out.append({"code": "insurance_expiring", "due_on": policy.ends_on,
                    "message": f"O seguro vence em {_br(policy.ends_on)}: entregue a renovação antes."})
    vistoria = records.latest_vistoria(permit.vehicle_id)
    until = records.vistoria_valid_until(muni, vistoria)
    if vistoria is not None and vistoria.result == "reprovada":
        out.append({"code": "vistoria_rejected", "due_on": vistoria.return_on,
                    "message": "Vistoria reprovada: corrija os itens e volte"
                               + (f" em {_br(vistoria.return_on)}." if vistoria.return_on else ".")})
    elif until is not None and until <= today + timedelta(days=VISTORIA_HORIZON):
        verb = "venceu" if until < today else "vence"
        out.append({"code": "vistoria_expiring", "due_on": until,
                    "message": f"A vistoria da moto {verb} em {_br(until)}: agende a próxima."})
    for sub in pending_substitution_vistorias(permit):
        out.append({"code": "substitution_vistoria_pending", "due_on": None,
                    "message": f"A moto substituta {plate_text(sub.new_vehicle.plate)} ainda não passou pela vistoria "
                               f"exigida ({sub.basis}): leve-a à prefeitura."})
    return sorted(out, key=lambda a: (a["due_on"] is not None, a["due_on"] or today))


def _renewal_documents_due(muni, permit, today):
    """What the holder still has to bring for this renewal (issuance.renewal), in words."""
    since, act = cycle_start(permit)
    due = [doc for doc in documents_for(muni, permit)
           if document_state(doc, latest_check(permit, doc, since), today, since, act)[0] != "ok"]
    if not due:
        return ""
    bases = sorted({doc.basis.split(", c/c")[0] for doc in due})
    things = "; ".join(doc.label.split(" (")[0] for doc in due)
    return f" Para renovar, apresente: {things} ({'; '.join(bases)})."
