"""Demo: the documents presented for the coming renewal of permits in force, through the real
operation (issuance.operations.record_renewal_documents), in the municipalities whose law wants
them (issuance.renewal). Varied on purpose, so the permit page shows each state: most permits
have everything; one has a certidão whose validity was not recorded (unknown); the two permits
closest to lapsing have presented nothing yet (the renewal is refused, naming the article)."""
from datetime import timedelta

from ..registry.models import Municipality, Permit
from ..registry.models import OCCUPYING
from ..issuance.operations import record_renewal_documents
from ..issuance.renewal import documents_for

NOTHING_PRESENTED = (2, 4)  # indexes in demo.dataset.PERMIT_PLAN: ("ativo", 45), ("ativo", 12)
VALIDITY_NOT_RECORDED = 5  # ("ativo", 260)


def load_renewal_documents_demo(today):
    count = 0
    for muni in Municipality.query.order_by(Municipality.id):
        permits = Permit.query.filter_by(municipality_id=muni.id).order_by(Permit.id).all()
        for index, permit in enumerate(permits):
            docs = documents_for(muni, permit)
            checked_on = today - timedelta(days=3)
            if not docs or permit.status not in OCCUPYING or index in NOTHING_PRESENTED or checked_on <= permit.issued_on:
                continue
            answers = {}
            for doc in docs:
                answer = {"value": True}
                if doc.certidao:
                    if doc.fact == "operator.electoral_ok":
                        answer["no_printed_validity"] = True
                    elif index != VALIDITY_NOT_RECORDED:
                        answer["valid_until"] = today + timedelta(days=60 if "criminal" in doc.fact else 30)
                answers[doc.fact] = answer
            record_renewal_documents(muni, permit, checked_on, answers)
            count += 1
    return count
