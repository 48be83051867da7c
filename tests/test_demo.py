"""The full demo data set that `make run` loads: consistent through the real operations."""
from collections import Counter

from server.modules.credentials.models import Credential, IssuerKey, StatusListEntry
from server.modules.registry.demo import PERMIT_PLAN, load_demo
from server.modules.registry.models import Municipality, Permit, PermitStatusChange, Ponto


def test_full_demo_has_every_status_keys_and_crachas(app):
    with app.app_context():
        logins = load_demo()
        assert ("admin", "admin", "todos") in logins
        assert load_demo() is None  # never loads twice
        expected = Counter(status for status, _ in PERMIT_PLAN)
        for muni in Municipality.query:
            statuses = Counter(p.status for p in Permit.query.filter_by(municipality_id=muni.id))
            assert statuses == expected, muni.slug
            assert IssuerKey.query.filter_by(municipality_id=muni.id, status="active").count() == 1
            # A crachá for every permit that was still within validity.
            valid = [p for p in Permit.query.filter_by(municipality_id=muni.id)
                     if p.status in ("ativo", "suspenso", "cassado", "extinto")]
            assert Credential.query.filter_by(municipality_id=muni.id).count() == len(valid)
            # The devices' status list knows each permit's current status.
            latest = {}
            for entry in StatusListEntry.query.filter_by(municipality_id=muni.id, kind="permit").order_by(StatusListEntry.id):
                latest[entry.ref] = entry.status
            assert latest == {p.number: p.status for p in Permit.query.filter_by(municipality_id=muni.id)}
        # Lifecycle went through the operations: a caducado permit expired first, then lapsed.
        caducado = Permit.query.filter_by(status="caducado").first()
        actions = [h.action for h in PermitStatusChange.query.filter_by(permit_id=caducado.id).order_by(PermitStatusChange.id)]
        assert actions == ["issue", "expire", "lapse"]


def test_sapezal_pontos_are_the_three_of_article_20(app):
    with app.app_context():
        load_demo(credentials=False)
        muni = Municipality.query.filter_by(slug="sapezal").one()
        pontos = {p.name: (p.capacity, p.legal_basis) for p in Ponto.query.filter_by(municipality_id=muni.id)}
    assert pontos == {
        "Cowtry Lanches": (3, "Lei 125/1999, art. 20, I"),
        "Loteamento Águas Claras – Lanchonete Queen": (2, "Lei 125/1999, art. 20, II"),
        "Hospital e Maternidade Renato Sucupira": (1, "Lei 125/1999, art. 20, III"),
    }
