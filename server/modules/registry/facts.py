"""Registry data → rule-pack facts (source "registry"). The one place that maps our columns to
the fact names the packs declare; tests check that every name here is declared in a pack and
that every fact a pack reads has a source: a column here, a document check here, or a checklist
question in the pack.

Only facts the registry really knows are produced: anything else stays absent, so the engine
reports it as undecided rather than guessing (e.g. the validity of a vistoria while the
municipality has not configured its period, which no law sets).
"""
from datetime import date


def _iso(value):
    return value.isoformat() if isinstance(value, date) else value


OPERATOR_FACTS = {
    "operator.birth_date": lambda d: _iso(d.get("birth_date")),
    "operator.cnh_first_issue_date": lambda d: _iso(d.get("cnh_first_issue_date")),
    "operator.resident_since": lambda d: _iso(d.get("residence_since")),
    # The curso de reabilitação ends an inabilitação (Paranatinga art. 42 § único, Sapezal art. 26).
    "operator.rehabilitation_course_on": lambda d: _iso(d.get("rehabilitation_course_on")),
    # Every category we accept (A, AB, AC, AD, AE) includes A, the one for motorcycles.
    "operator.cnh_category_ok": lambda d: ("A" in d["cnh_category"]) if d.get("cnh_category") else None,
}

VEHICLE_FACTS = {
    "vehicle.engine_cc": lambda d: d.get("engine_cc"),
    "vehicle.manufacture_year": lambda d: d.get("year_manufacture"),
}

# Facts about the driver as the permit's operator (fed by permit_row_facts only, never used to refuse
# an operator's own registration): Nortelândia art. 10 V binds drivers to the company.
DRIVER_FACTS = {
    "operator.linked_to_company": lambda d: d.get("company_id") is not None if "company_id" in d else None,
}

# A permit given as a dict of its column values (see permit_row_facts). The enum permit.status is the
# state of the act (suspended or revoked); expiry and lapse come from the dates, not from the
# registry's "vencido"/"caducado", so the packs judge them by the law's own deadlines.
_ACT_STATUS = {"ativo": "ativo", "vencido": "ativo", "caducado": "ativo", "suspenso": "suspenso",
               "cassado": "cassado"}
PERMIT_FACTS = {
    "permit.exists": lambda d: d.get("status") in _ACT_STATUS if d.get("status") else None,
    "permit.status": lambda d: _ACT_STATUS.get(d.get("status")),
    "permit.valid_until": lambda d: _iso(d.get("valid_until")),
    "permit.issued_on": lambda d: _iso(d.get("issued_on")),
    # Paranatinga art. 20: the two-year delegation is the validity of a "termo de permissão".
    "permit.term_valid_until": lambda d: _iso(d.get("valid_until")) if d.get("kind") == "termo_permissao" else None,
    "permit.holder_is_company": lambda d: d.get("holder_company_id") is not None if "holder_company_id" in d else None,
    # Sapezal art. 9º III: the taxpayer number printed on the alvará.
    "permit.taxpayer_number_recorded": lambda d: bool(d.get("taxpayer_number")) if "taxpayer_number" in d else None,
    # "sem_info" (nothing recorded) stays unknown: never presumed registered nor paid.
    "operator.issqn_registered": lambda d: True if d.get("issqn_status") not in (None, "sem_info") else None,
    "operator.issqn_up_to_date": lambda d: (d["issqn_status"] in ("em_dia", "isento"))
    if d.get("issqn_status") not in (None, "sem_info") else None,
}

# Registry facts the registry holds no column for: documents the back office checks at
# registration. Each is a question answered from the document (the back-office checklist);
# until answered the fact stays absent and the engine reports it undecided, never guessed.
DOCUMENT_CHECKS = {
    "operator.course_approved": "Certificado do curso especializado (Lei 12.009/2009) apresentado?",
    "operator.criminal_certificate_ok": "Certidão negativa criminal apresentada e válida?",
    "operator.personal_documents_ok": "Documentos pessoais (RG, CPF, comprovante de endereço) apresentados?",
    "operator.resident_in_municipality": "Comprovante de residência no município apresentado?",
    "operator.electoral_ok": "Certidão de quitação eleitoral apresentada?",
    "operator.no_other_job_declaration": "Declaração de que não exerce outra atividade remunerada apresentada?",
    "operator.health_certificate_ok": "Atestado de saúde apresentado?",
    "operator.military_ok": "Certificado de reservista (quitação militar) apresentado?",
    "operator.licences_count": "Quantas licenças/permissões de moto-táxi o requerente detém?",
    "operator.inss_autonomo": "Inscrição no INSS como autônomo comprovada?",
    "operator.psych_report_ok": "Laudo psicológico apresentado?",
    "vehicle.registered_to_holder": "O CRLV da moto está em nome do titular da permissão?",
    "vehicle.plated_in_municipality": "A moto está emplacada no município, na categoria aluguel?",
}

def document_subject(name, decl=None):
    """Whose document answers the fact: "vehicle" or "operator" (a pack's `document.subject`)."""
    subject = ((decl or {}).get("document") or {}).get("subject")
    return subject or ("vehicle" if name.startswith("vehicle.") else "operator")


def document_questions(declared):
    """{fact: question} of the document checks the composed packs read: the product's own
    (DOCUMENT_CHECKS) and those a pack declares itself (fact `document`, SPEC §3), so a law
    encoded by an analyst asks the back office for its documents without new code."""
    out = {fact: q for fact, q in DOCUMENT_CHECKS.items() if fact in declared}
    for name, decl in declared.items():
        prompt = (decl.get("document") or {}).get("prompt_pt")
        if prompt and name not in out:
            out[name] = prompt
    return out


# Registry facts read from records of their own (issuance.records): vistorias and insurance
# policies entered in the back office. Absent until such a record exists.
RECORD_FACTS = {
    "vehicle.inspection_valid_until": "vistoria aprovada e o período de validade da vistoria",
    "vehicle.equipment_inspection_date": "data da última vistoria aprovada",
    "insurance.valid_until": "apólice em vigor",
    "insurance.coverage_ok": "coberturas da apólice em vigor",
    "insurance.renewal_filed": "apólice seguinte registrada (renovação)",
    "operator.insurance_life_ok": "seguro de vida em vigor com as coberturas da lei",
}

# Which form field each fact comes from, to put a refusal next to the right input.
FACT_FIELDS = {
    "operator.birth_date": "birth_date", "operator.cnh_first_issue_date": "cnh_first_issue_date",
    "operator.resident_since": "residence_since", "operator.cnh_category_ok": "cnh_category",
    "vehicle.engine_cc": "engine_cc", "vehicle.manufacture_year": "year_manufacture",
}


def _collect(mapping, data, declared):
    facts = {}
    for name, get in mapping.items():
        if name in declared:
            value = get(data)
            if value is not None:
                facts[name] = value
    return facts


def entity_facts(entity, data, declared):
    """Facts for an operator, vehicle or permit given as a dict of column values (e.g. a form)."""
    mapping = {"operator": OPERATOR_FACTS, "vehicle": VEHICLE_FACTS, "permit": PERMIT_FACTS}.get(entity, {})
    return _collect(mapping, data, declared)


def permit_row_facts(permit, declared):
    """Registry facts of a permit row (and of its vehicle and holder when a person), from their
    columns only: issuance.records.permit_facts adds what the back office recorded about them."""
    columns = {c.key: getattr(permit, c.key) for c in permit.__table__.columns}
    facts = entity_facts("permit", columns, declared)
    if permit.vehicle is not None:
        facts.update(entity_facts("vehicle", {c.key: getattr(permit.vehicle, c.key)
                                              for c in permit.vehicle.__table__.columns}, declared))
    person = permit.holder_operator or permit.main_driver
    if person is not None:
        columns = {c.key: getattr(person, c.key) for c in person.__table__.columns}
        facts.update(entity_facts("operator", columns, declared))
        facts.update(_collect(DRIVER_FACTS, columns, declared))
    return facts


def fact_source(name, decl):
    """Where the product gets a fact: "registry" (a column), "document" (a back-office check),
    "checklist" (the fiscal's question) — or None when nothing feeds it."""
    if decl.get("source") == "checklist":
        return "checklist" if (decl.get("checklist") or {}).get("prompt_pt") else None
    if (decl.get("document") or {}).get("prompt_pt"):
        return "document"                      # a document check the pack itself declares (SPEC §3)
    if any(name in m for m in (OPERATOR_FACTS, VEHICLE_FACTS, PERMIT_FACTS, DRIVER_FACTS, RECORD_FACTS)):
        return "registry"
    return "document" if name in DOCUMENT_CHECKS else None
