"""What a renewal must be instructed with, beyond the requirements in force: documents presented
for THIS renewal, per the municipality's law.

- Sapezal Lei 125/1999, art. 10, caput: "O requerimento de renovação de alvará deverá ser
  instruído com todas as certidões exigidas para primeira inscrição, cópia autenticada do
  certificado original de propriedade do veículo e Certidão Negativa de Débitos em geral para com
  a Fazenda Pública Municipal." The certidões of the first inscription are those of art. 6º:
  II (certidão negativa criminal) and VI (prova de quitação eleitoral). § 4º ("poderá exigir os
  mesmos requisitos e documentação necessários para o obtenção do primeiro alvará") is the
  Administration's choice: the setting `renewal_requires_first_documents` adds every document
  the first alvará needs.
- Paranatinga Lei 311/2007, art. 13, § 1º: the alvará "será renovado anualmente, mediante
  requerimento e pagamento da taxa respectiva e de outros tributos eventualmente devidos à
  Municipalidade" (the fee of this renewal; the tributos proven by the certidão negativa de débitos
  municipais). Arts. 22 and 23: the termo de permissão is extended ("prorrogado") only with the
  express approval of the órgão gestor.
- Nortelândia Lei 030/1998: silent on renewal documents (art. 6º sets the year of validity only);
  the renewal checks the requirements in force (issuance.requirements), nothing more.

"For this renewal" = checked after the act that granted the current validity (the issue or the
last renewal): a document checked for that act does not instruct the next one. A certidão's
validity is the date printed on it, recorded by the clerk (no law sets one), or "prints none";
neither recorded = unknown, which refuses like a missing document.
"""
from dataclasses import dataclass

from ...core.clock import local_today, to_local
from .models import DocumentCheck
from ..registry.facts import DOCUMENT_CHECKS
from ..rules.service import composed_for


@dataclass(frozen=True)
class RenewalDocument:
    fact: str
    label: str
    basis: str
    certidao: bool = False  # has a validity of its own, printed on it
    kinds: tuple = ("alvara", "termo_permissao")

    @property
    def subject(self):
        return self.fact.split(".", 1)[0]


SAPEZAL_ART10 = "Lei 125/1999, art. 10, caput"
RENEWAL_DOCUMENTS = {
    "sapezal": [
        RenewalDocument("operator.criminal_certificate_ok", "Certidão negativa criminal (certidão da 1ª inscrição)",
                        f"{SAPEZAL_ART10}, c/c art. 6º, II", certidao=True),
        RenewalDocument("operator.electoral_ok", "Certidão de quitação eleitoral (certidão da 1ª inscrição)",
                        f"{SAPEZAL_ART10}, c/c art. 6º, VI", certidao=True),
        RenewalDocument("vehicle.ownership_certificate_copy",
                        "Cópia autenticada do certificado original de propriedade do veículo", SAPEZAL_ART10),
        RenewalDocument("operator.municipal_debt_certificate",
                        "Certidão Negativa de Débitos com a Fazenda Pública Municipal", SAPEZAL_ART10, certidao=True),
    ],
    "paranatinga": [
        RenewalDocument("permit.renewal_fee_paid", "Taxa de renovação do alvará paga (comprovante)",
                        "Lei 311/2007, art. 13, § 1º", kinds=("alvara",)),
        RenewalDocument("operator.municipal_debt_certificate",
                        "Certidão Negativa de Débitos municipais (outros tributos devidos)",
                        "Lei 311/2007, art. 13, § 1º", certidao=True, kinds=("alvara",)),
        RenewalDocument("permit.extension_approved",
                        "Aprovação expressa do órgão gestor (SINFRA) para a prorrogação do termo",
                        "Lei 311/2007, arts. 22 e 23", kinds=("termo_permissao",)),
    ],
}
# Questions of the facts that only renewal asks (the others are in registry.facts.DOCUMENT_CHECKS).
ALL_FIRST_DOCUMENTS = {"sapezal": "Lei 125/1999, art. 10, § 4º"}
ALL_FIRST_DOCUMENTS_SETTING = "renewal_requires_first_documents"
ACT_LABELS = {"issue": "emissão", "renew": "renovação"}


def _br(day):
    return day.strftime("%d/%m/%Y")


def cycle_start(permit):
    """(day, act) of the act that granted the current validity: the last renewal (the local day
    it was recorded) or else the issue (the permit's issue date, which a permit registered after
    the fact carries)."""
    renewals = [h for h in permit.history if h.action == "renew"]
    if not renewals:
        return permit.issued_on, "issue"
    last = max(renewals, key=lambda h: (h.at, h.id or 0))
    return to_local(last.at).date(), "renew"


def documents_for(municipality, permit):
    """[RenewalDocument] this permit's renewal must be instructed with."""
    docs = [d for d in RENEWAL_DOCUMENTS.get(municipality.slug, []) if permit.kind in d.kinds]
    basis = ALL_FIRST_DOCUMENTS.get(municipality.slug)
    if basis and municipality.setting(ALL_FIRST_DOCUMENTS_SETTING):
        declared = composed_for(municipality).facts
        known = {d.fact for d in docs}
        docs += [RenewalDocument(fact, question.rstrip("?"), basis) for fact, question in DOCUMENT_CHECKS.items()
                 if fact in declared and fact not in known and fact != "operator.licences_count"]
    return docs


def subject_id(permit, subject):
    if subject == "permit":
        return permit.id
    if subject == "vehicle":
        return permit.vehicle.id if permit.vehicle is not None else permit.vehicle_id
    person = permit.holder_operator or permit.main_driver
    return getattr(person, "id", None)


def latest_check(permit, doc, since):
    """The latest check of this document for the permit's subject dated after `since`."""
    ident = subject_id(permit, doc.subject)
    if ident is None:
        return None
    return (DocumentCheck.query.filter(DocumentCheck.subject == doc.subject, DocumentCheck.subject_id == ident,
                                       DocumentCheck.fact == doc.fact, DocumentCheck.checked_on > since)
            .order_by(DocumentCheck.checked_on.desc(), DocumentCheck.id.desc()).first())


def document_state(doc, check, today, since, act):
    """(state, hint, validity text) of one renewal document on `today`."""
    if check is None:
        return ("missing", f"não apresentado para esta renovação (o que foi conferido até {_br(since)} "
                           f"instruiu a {ACT_LABELS[act]})", "")
    if check.value is not True:
        return "missing", f"conferido em {_br(check.checked_on)}: não atende", ""
    if not doc.certidao:
        return "ok", "", f"conferido em {_br(check.checked_on)}"
    if check.valid_until is not None:
        if check.valid_until < today:
            return "missing", f"certidão vencida em {_br(check.valid_until)}", ""
        return "ok", "", f"válida até {_br(check.valid_until)}"
    if check.no_printed_validity:
        return "ok", "", "sem prazo de validade impresso"
    return "unknown", "informe a validade impressa na certidão (ou que não tem prazo)", ""


def renewal_items(municipality, permit, today=None):
    """[requirements.Item] for the documents this renewal must be instructed with."""
    from .requirements import Item  # noqa: PLC0415 (local: requirements.py imports this module)

    today = today or local_today()
    since, act = cycle_start(permit)
    items = []
    for doc in documents_for(municipality, permit):
        check = latest_check(permit, doc, since)
        state, hint, validity = document_state(doc, check, today, since, act)
        label = f"{doc.label} — para esta renovação" + (f" ({validity})" if validity else "")
        items.append(Item(f"renewal.{doc.fact}", label, doc.basis, state,
                          hint + ("" if state == "ok" else " — registre em Documentos da renovação")))
    return items


def check_window(permit, checked_on, today=None):
    """None when `checked_on` can instruct this renewal; else the pt-BR reason."""
    since, act = cycle_start(permit)
    if checked_on > (today or local_today()):
        return "A data da conferência não pode estar no futuro."
    if checked_on <= since:
        return (f"A conferência para esta renovação deve ser posterior a {_br(since)} "
                f"({ACT_LABELS[act]} que deu a validade atual).")
    return None


def certidao_validity_error(doc, checked_on, valid_until, no_printed_validity):
    if not doc.certidao:
        return None
    if valid_until is not None and no_printed_validity:
        return "Informe a validade impressa ou marque que não tem prazo, não os dois."
    if valid_until is not None and valid_until < checked_on:
        return f"A certidão já estava vencida na conferência ({_br(valid_until)})."
    return None

