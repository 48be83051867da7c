"""The full demo data set that `make run` loads: consistent through the real operations."""
from collections import Counter
from datetime import date, timedelta

from server.core.clock import local_today
from server.modules.credentials.models import Credential, IssuerKey, StatusListEntry
from server.modules.demo.dataset import PERMIT_PLAN, load_demo
from server.modules.registry.models import Municipality, Permit, PermitStatusChange, Ponto
from server.extensions import db


def test_full_demo_has_every_status_keys_and_crachas(app):
    with app.app_context():
        logins = load_demo()
        db.session.commit()  # the loader stages; `flask demo load` commits
        assert ("admin", "admin", "todos") in logins
        assert load_demo() is None  # never loads twice
        today = local_today()
        for muni in Municipality.query:
            expected = Counter(status for status, _ in PERMIT_PLAN)
            if muni.slug == "sapezal":
                # Lei 125/1999, art. 10, § 2º: not renewed by 31 March → suspended, lapsed 30 days later.
                last_march = date(today.year if today > date(today.year, 3, 31) else today.year - 1, 3, 31)
                expected[("suspenso" if (today - last_march).days <= 30 else "caducado")] += expected.pop("vencido")
            statuses = Counter(p.status for p in Permit.query.filter_by(municipality_id=muni.id))
            assert statuses == expected, muni.slug
            assert IssuerKey.query.filter_by(municipality_id=muni.id, status="active").count() == 1
            # A crachá for every permit that was still within validity.
            valid = [p for p in Permit.query.filter_by(municipality_id=muni.id) if p.valid_until >= today]
            assert Credential.query.filter_by(municipality_id=muni.id).count() == len(valid)
            # The devices' status list knows each permit's current status.
            latest = {}
            for entry in StatusListEntry.query.filter_by(municipality_id=muni.id, kind="permit").order_by(StatusListEntry.id):
                latest[entry.ref] = entry.status
            assert latest == {p.number: p.status for p in Permit.query.filter_by(municipality_id=muni.id)}
        # Lifecycle went through the operations: a caducado permit expired first, then lapsed.
        caducado = Permit.query.filter_by(status="caducado").order_by(Permit.id).first()  # Nortelândia's: no suspension
        actions = [h.action for h in PermitStatusChange.query.filter_by(permit_id=caducado.id).order_by(PermitStatusChange.id)]
        assert actions == ["issue", "expire", "lapse"]


def test_sapezal_pontos_are_the_three_of_article_20(app):
    with app.app_context():
        load_demo(credentials=False)
        db.session.commit()  # the loader stages; `flask demo load` commits
        muni = Municipality.query.filter_by(slug="sapezal").one()
        pontos = {p.name: (p.capacity, p.legal_basis) for p in Ponto.query.filter_by(municipality_id=muni.id)}
    assert pontos == {
        "Cowtry Lanches": (3, "Lei 125/1999, art. 20, I"),
        "Loteamento Águas Claras – Lanchonete Queen": (2, "Lei 125/1999, art. 20, II"),
        "Hospital e Maternidade Renato Sucupira": (1, "Lei 125/1999, art. 20, III"),
    }


def test_demo_reads_like_a_real_registry(app):
    """Names without a doubled surname; each history entry dated on the permit's own story (issued
    on its issue date, expired the day after its validity), never all on the day of the load."""
    from server.core.clock import local_today, timezone
    from server.modules.registry.models import Operator
    with app.app_context():
        load_demo(credentials=False)
        db.session.commit()  # the loader stages; `flask demo load` commits
        today = local_today()
        for op in Operator.query:
            surnames = op.name.split()[1:]
            assert len(surnames) == len(set(surnames)), op.name
        for permit in Permit.query:
            history = PermitStatusChange.query.filter_by(permit_id=permit.id).order_by(PermitStatusChange.id).all()
            days = [h.at.astimezone(timezone()).date() if h.at.tzinfo else h.at.date() for h in history]
            assert days[0] == permit.issued_on, permit.number
            assert days == sorted(days), permit.number
            assert all(d <= today for d in days), permit.number
            for change, day in zip(history, days):
                if change.action == "expire":
                    assert day == permit.valid_until + timedelta(days=1), permit.number
                assert change.reason and "demonstração" not in change.reason, permit.number
            assert permit.holder_operator not in permit.drivers


def test_demo_validities_are_the_law_s(app):
    """Sapezal: every alvará ends on a 31 March within one year of its issue (Lei 125/1999, art. 10,
    § 1º, art. 11) — of its issue or, for a permit the demo renewed (the first days of a cycle), of
    the validity that renewal continued; Nortelândia: one year (art. 6º); Paranatinga: the two-year delegation (art. 20),
    years counted by Lei 810/1949 (to the same day; from 29 February, 1 March)."""
    from server.modules.issuance.renewal import cycle_start

    def years_after(day, n):
        try:
            return day.replace(year=day.year + n)
        except ValueError:
            return date(day.year + n, 3, 1)

    with app.app_context():
        load_demo(credentials=False)
        db.session.commit()  # the loader stages; `flask demo load` commits
        for permit in Permit.query:
            slug = Municipality.query.filter_by(id=permit.municipality_id).one().slug
            start = permit.valid_from
            if slug == "sapezal" and cycle_start(permit)[1] == "renew":
                # renewed: the next 31 March after the validity it continues (issuance.validity)
                start = date(permit.valid_until.year - 1, 3, 31)
            if slug == "sapezal":
                assert (permit.valid_until.month, permit.valid_until.day) == (3, 31), permit.number
                assert start < permit.valid_until <= years_after(start, 1), permit.number
            else:
                years = 2 if slug == "paranatinga" else 1
                assert permit.valid_until == years_after(start, years), permit.number


def test_paranatinga_demo_permits_come_from_a_published_selection(app):
    """Lei 311/2007, arts. 21, 33 and 34: every demo permit's holder was a selected candidate of an
    edital published before the permit (same CPF, linked), the register of suplentes follows the
    classification (a tie broken by a recorded draw; an inapto unclassified), and the demo's
    desistência called the first suplente."""
    from server.modules.selection.models import Candidate, Edital
    from server.modules.selection.operations import receivable_candidates
    with app.app_context():
        load_demo()
        db.session.commit()  # the loader stages; `flask demo load` commits
        muni = Municipality.query.filter_by(slug="paranatinga").one()
        permits = Permit.query.filter_by(municipality_id=muni.id).all()
        editais = Edital.query.filter_by(municipality_id=muni.id).order_by(Edital.published_on).all()
        assert editais and all(e.classification_published_at is not None for e in editais)
        for permit in permits:
            cand = Candidate.query.filter_by(permit_id=permit.id).one()
            assert cand.status == "permissionario" and cand.cpf == permit.holder_operator.cpf
            assert cand.edital.published_on < permit.issued_on and cand.selected_on <= permit.issued_on
            assert cand.classification <= cand.edital.vacancies_offered
            if cand.vehicle_year is None:  # art. 8º § 1º: the motorcycle within 90 days of the selection
                assert permit.issued_on <= cand.selected_on + timedelta(days=90)
        assert sum(e.vacancies_offered for e in editais) == len(permits)
        last = editais[-1]
        register = sorted((c for c in last.candidates if c.classification and c.classification > last.vacancies_offered),
                          key=lambda c: c.classification)
        assert [c.status for c in register] == ["convocado", "suplente", "suplente"]
        assert "desistência da permissão" in register[0].status_reason
        assert register[0] in receivable_candidates(muni)
        tied = [c for c in register if c.tie_break is not None]
        assert len(tied) == 2 and all("Sorteio público" in c.tie_break_reason for c in tied)
        assert [c.status for c in last.candidates if c.classification is None] == ["inapto"]
        # Loading again changes nothing (make run / `flask demo load` twice).
        assert load_demo() is None
        assert Edital.query.count() == len(editais)
