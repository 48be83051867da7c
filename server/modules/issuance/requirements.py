"""What issuing or renewing a permit requires, from the municipality's packs and the law.

Every registration- or registry-scope requirement of the composed packs is evaluated with the
permit's facts (registry columns, documents checked, vistoria, insurance: registry/facts.py)
on the day of the act. The permit's own lifecycle (its validity and status) is what the act
sets, so requirements reading only those facts are left out. Three answers: met (✓), missing
(✗) and unknown (nothing recorded yet): both of the last two refuse the act. A vetoed provision
whose outcome is pending never refuses (shown as such).

Some requirements are in the law but not in the packs, because no fiscal checks them at the
roadside: Paranatinga art. 28 (taxes and IPVA before the permit is granted), Sapezal art. 4º
§ 3º (a copy of the policy filed) and Nortelândia art. 14 (the company's monthly ISSQN).
"""
from ...core.ptbr import plate as plate_text
from dataclasses import dataclass

from ...core.clock import local_today
from ...core.errors import ApiError
from ...rules import evaluate
from . import records
from ..rules.citations import format_citation
from ..rules.service import composed_for
from ..calendar.service import calendar_of
from .renewal import renewal_items
from ..registry.facts import document_questions
from .substitutions import pending_substitution_vistorias

# Facts the act itself sets: requirements that read only these are not preconditions.
LIFECYCLE_FACTS = {"permit.exists", "permit.status", "permit.valid_until", "permit.issued_on",
                   "permit.term_valid_until"}

ACT_FACTS = {"permit.exists": True, "permit.status": "ativo", "service.goods_delivery": False}

# Facts of the law outside the packs, answered by a document check (DocumentCheck rows).
EXTRA_CHECKS = {
    "paranatinga": [
        ("operator", "tax.license_fee_paid", "Taxa de licença paga", "Lei 311/2007, art. 28, I"),
        ("operator", "tax.issqn_paid", "ISSQN da atividade pago", "Lei 311/2007, art. 28, I"),
        ("vehicle", "vehicle.ipva_paid", "IPVA da moto pago (comprovante)", "Lei 311/2007, art. 28, II"),
    ],
}
EXTRA_QUESTIONS = {
    "tax.license_fee_paid": "Taxa de licença paga (comprovante)?",
    "tax.issqn_paid": "ISSQN da atividade pago (comprovante)?",
    "vehicle.ipva_paid": "IPVA da moto pago (comprovante)?",
}

STATES = {"ok": "✓", "missing": "✗", "unknown": "?", "vetoed": "—"}
STATE_LABELS = {"ok": "atendido", "missing": "não atendido", "unknown": "desconhecido",
                "vetoed": "vetado — aguarda decisão"}


@dataclass
class Item:
    key: str
    label: str
    citation: str
    state: str  # ok | missing | unknown | vetoed
    hint: str = ""

    @property
    def blocking(self):
        return self.state in ("missing", "unknown")

    @property
    def symbol(self):
        return STATES[self.state]

    @property
    def state_label(self):
        return STATE_LABELS[self.state]


def _refs(requirement):
    names = set()
    for compiled in (requirement["_applies"], requirement["_holds"]):
        names |= {n for n in compiled.refs if not n.startswith("$")}
    return names


HINTS = {
    "vehicle.inspection_valid_until": "registre uma vistoria aprovada",
    "vehicle.equipment_inspection_date": "registre uma vistoria aprovada",
    "insurance.valid_until": "registre a apólice em vigor",
    "insurance.coverage_ok": "informe as coberturas da apólice",
    "insurance.renewal_filed": "registre a apólice de renovação",
    "operator.insurance_life_ok": "registre o seguro de vida e confira as coberturas",
    "operator.issqn_registered": "informe a situação do ISSQN nos dados",
    "operator.issqn_up_to_date": "informe a situação do ISSQN nos dados",
    "permit.taxpayer_number_recorded": "informe a inscrição no cadastro de contribuintes",
}


def checklist(municipality, permit, today=None, action=None):
    """[Item] for issuing or renewing `permit` on `today`. `action` defaults to "issue" for a
    not-yet-saved Permit and "renew" for a saved one; a renewal also needs the documents its law
    wants presented for it (issuance.renewal)."""
    today = today or local_today()
    try:
        composed = composed_for(municipality)
    except ApiError:
        return []
    facts = {k: v for k, v in records.permit_facts(permit, composed.facts, today).items() if k not in LIFECYCLE_FACTS}
    # What the act yields: an existing, active permit for carrying passengers (not moto-frete).
    facts.update({k: v for k, v in ACT_FACTS.items() if k in composed.facts})
    result = evaluate(composed, today, facts, (), calendar_of(municipality))
    undecided = {u["id"]: u for u in result["undecided"] if u["kind"] == "requirement"}
    failed = {f["requirement"] for f in result["failed"]}
    passed = set(result["passed"])
    items = []
    for requirement in composed.requirements:
        refs = _refs(requirement)
        holds = {n for n in requirement["_holds"].refs if not n.startswith("$")}
        if requirement.get("scope") not in ("registration", "registry") or not holds or holds <= LIFECYCLE_FACTS:
            continue
        rid = requirement["id"]
        if rid in passed:
            state = "ok"
        elif rid in failed:
            state = "missing"
        elif rid in undecided:
            state = "vetoed" if undecided[rid]["reason"] == "vetoed_pending" else "unknown"
        else:
            continue  # not applicable, or not in effect on this date
        missing = undecided.get(rid, {}).get("facts") or sorted(holds - LIFECYCLE_FACTS)
        hint = next((HINTS[f] for f in missing if f in HINTS), "")
        if not hint and state == "unknown" and any(_is_document(f, composed.facts) for f in missing):
            hint = "registre a conferência do documento"
        if state == "missing" and not hint:
            hint = "corrija o cadastro"
        if "vehicle.inspection_valid_until" in refs and records.vistoria_period_months(municipality) is None:
            hint = "período de validade da vistoria não definido em lei — configure"
        if "insurance.coverage_ok" in holds and state != "ok":
            # Sapezal art. 4º § 1º: name whom the policy leaves uncovered (or unrecorded).
            hint = records.coverage_detail(municipality, records.main_policy(_vehicle_id(permit), today)) or hint
        if state == "vetoed":
            hint = ""
        items.append(Item(rid, requirement["label_pt"], format_citation(composed, requirement.get("citation")),
                          state, hint if state != "ok" else ""))
    items += _extra_items(municipality, permit, today)
    if (action or ("issue" if permit.id is None else "renew")) == "renew":
        items += renewal_items(municipality, permit, today)
    return items


def _is_document(fact, declared):
    return fact in document_questions(declared)


def _vehicle_id(permit):
    return permit.vehicle.id if permit.vehicle is not None else permit.vehicle_id


def _extra_items(municipality, permit, today):
    items = []
    person = permit.holder_operator or permit.main_driver
    vehicle_id = _vehicle_id(permit)
    subjects = {"operator": getattr(person, "id", None), "vehicle": vehicle_id}
    for subject, fact, label, basis in EXTRA_CHECKS.get(municipality.slug, []):
        value = records.document_values(subject, subjects[subject], today).get(fact)
        state = "unknown" if value is None else ("ok" if value is True else "missing")
        items.append(Item(fact, label, basis, state, "" if state == "ok" else "registre o comprovante"))
    if municipality.slug == "sapezal":
        policy = records.main_policy(vehicle_id, today)
        state = "unknown" if policy is None else ("ok" if policy.copy_filed else "missing")
        items.append(Item("insurance.copy_filed", "Cópia autenticada da apólice entregue para arquivo",
                          "Lei 125/1999, art. 4º, § 3º", state,
                          "" if state == "ok" else "marque a cópia entregue na apólice"))
    if permit.id is not None:
        for sub in pending_substitution_vistorias(permit):
            items.append(Item(f"substitution.{sub.id}.vistoria",
                              f"Vistoria do veículo substituto {plate_text(sub.new_vehicle.plate)} (troca em {sub.replaced_on:%d/%m/%Y})",
                              sub.basis, "missing", "registre a vistoria aprovada do novo veículo"))
    company_id = permit.holder_company.id if permit.holder_company is not None else permit.holder_company_id
    if municipality.slug == "nortelandia" and company_id:
        arrears = records.issqn_arrears(company_id, today)
        items.append(Item("issqn.monthly", "ISSQN mensal da empresa sem atraso", "Lei 030/1998, art. 14",
                          "missing" if arrears else "ok",
                          f"{len(arrears)} mês(es) em atraso" if arrears else ""))
    return items


def enforce(municipality, permit, action, today=None):
    """Refuse the act (422 naming each unmet requirement with its article) until all are met."""
    blocking = [i for i in checklist(municipality, permit, today, action) if i.blocking]
    if blocking:
        verb = "emitir" if action == "issue" else "renovar"
        raise ApiError(422, "requirements_unmet", f"Requisitos da lei não atendidos para {verb}.", {
            "requisitos": [f"{i.label} ({i.citation}): {i.state_label}" + (f" — {i.hint}" if i.hint else "")
                           for i in blocking]})
