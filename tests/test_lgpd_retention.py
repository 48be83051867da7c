"""LGPD retention (issue 21, point 3): periods set with their act, anonymisation of what may be
anonymised when they lapse — all of it for an operator whose permits and autos are past their
periods, only what the kept autos do not need for one whose autos are still retained — by the
daily task and the CLI, idempotent, audited, admin only and scoped."""
import datetime
import json

from helpers import DEMO_PASSWORD, csrf_token, login
from sqlalchemy import or_, select

from server.core.audit import AuditLog
from server.core.clock import local_today
from server.core.validation import fold
from server.extensions import db
from server.modules.accounts.models import User
from server.modules.fieldsync.models import FieldRecord
from server.modules.registry.models import Municipality, Operator, Permit, permit_drivers
from server.rules.legal_calendar import lei_810_years

LONG_AGO = datetime.date(2015, 3, 2)
SETTINGS = {"autos_years": "5", "autos_source": "Lei 9.873/1999, art. 1º (leitura do município)",
            "registry_years": "5", "registry_source": "Decreto municipal nº 10/2026 (tabela de temporalidade)"}


def _sapezal():
    return Municipality.query.filter_by(slug="sapezal").one()


def _configure(muni):
    from server.modules.lgpd.retention import save_retention_settings
    save_retention_settings(muni, SETTINGS)
    db.session.commit()  # as the admin's request


def _end_links(operator_id):
    """Every permit the operator holds or drives ended (extinto) in 2015."""
    as_driver = select(permit_drivers.c.permit_id).where(permit_drivers.c.operator_id == operator_id)
    for permit in Permit.query.filter(or_(Permit.holder_operator_id == operator_id, Permit.id.in_(as_driver))):
        permit.status, permit.valid_until = "extinto", LONG_AGO
        permit.valid_from = permit.issued_on = LONG_AGO.replace(year=2014)
        permit.status_changed_at = datetime.datetime(2015, 3, 2, tzinfo=datetime.timezone.utc)
    db.session.commit()


def _with_autos():
    autos = select(FieldRecord.operator_id).where(FieldRecord.kind == "auto", FieldRecord.operator_id.is_not(None))
    return Operator.query.filter(Operator.municipality_id == _sapezal().id, Operator.id.in_(autos)).first()


def _without_autos():
    from server.modules.autos.process_models import AutoPenalty
    from server.modules.fieldsync.models import AppliedPenalty
    busy = select(FieldRecord.operator_id).where(FieldRecord.operator_id.is_not(None))
    penalised = select(AppliedPenalty.operator_id).where(AppliedPenalty.operator_id.is_not(None))
    pending = select(AutoPenalty.operator_id).where(AutoPenalty.operator_id.is_not(None))
    return (Operator.query.filter(Operator.municipality_id == _sapezal().id, Operator.phone.is_not(None),
                                  Operator.id.not_in(busy), Operator.id.not_in(penalised), Operator.id.not_in(pending))
            .order_by(Operator.id).first())


def test_lapsed_operator_anonymised_export_and_registry_show_it(app, demo, client):
    from server.modules.jobs.registry import run_daily
    from server.modules.lgpd.export import collect

    with app.app_context():
        muni = _sapezal()
        operator = _without_autos()
        ident, name, cpf, phone = operator.id, operator.name, operator.cpf, operator.phone
        _end_links(ident)
        # A correction made while the record was alive: its values go, the entry (who, when, why) stays.
        from server.modules.permits.entities import save_entity
        save_entity(Operator, muni, {"phone": "(65) 91234-5678"}, operator, reason="Pedido do titular")
        account = User(username=f"op{cpf}", name=name, role="operator", operator_id=ident, municipality_id=muni.id)
        db.session.add(account)
        db.session.commit()
        _configure(muni)
        [(task, count)] = run_daily(local_today(), only={"lgpd.retention"})
        assert count >= 1
        operator = db.session.get(Operator, ident)
        assert operator.anonymized_scope == "total" and operator.anonymized_on == local_today()
        assert operator.name != name and operator.cpf != cpf and operator.phone is None
        assert not operator.cpf.isdigit()  # never mistaken for a real CPF
        assert operator.birth_date.month == 1 and operator.birth_date.day == 1  # the year only
        account = User.query.filter_by(operator_id=ident).one()
        assert account.active is False and cpf not in account.username and account.password_hash is None
        # The rows stay (history), the personal values are gone from every table and audit entry.
        data = collect(operator)
        assert data["permit"] and data["operator"][0]["anonymized_scope"] == "total"
        dumped = json.dumps(data, ensure_ascii=False)
        assert cpf not in dumped and name not in dumped and phone not in dumped and "91234-5678" not in dumped
        assert fold(name) not in dumped  # nor the accent-folded copy the name search keeps
        correction = AuditLog.query.filter_by(entity="operator", entity_id=str(ident), action="update").one()
        assert correction.reason == "Pedido do titular" and correction.actor_label == "sistema"
        assert correction.after["phone"] == "[anonimizado]"
        done = AuditLog.query.filter_by(entity="operator", entity_id=str(ident), action="lgpd_anonymise").one()
        assert done.after["anonymized_scope"] == "total" and "cpf" in done.after["campos"]
        admin = User(username="admin.sapezal", name="Adm Sapezal", role="admin", municipality_id=muni.id)
        admin.set_password(DEMO_PASSWORD)
        db.session.add(admin)
        db.session.commit()
    login(client, "admin.sapezal")
    detail = client.get(f"/bo/operadores/{ident}").get_data(as_text=True)
    assert "anonimizados por completo" in detail and cpf[:3] + "." + cpf[3:6] not in detail
    page = client.get(f"/bo/lgpd/operadores/{ident}").get_data(as_text=True)
    assert 'id="anonymized"' in page and "Pedido do titular" in page


def test_operator_with_autos_still_retained_keeps_what_they_need(app, demo):
    from server.modules.lgpd.anonymise import run_retention

    from server.modules.demo.review import load_review_demo

    with app.app_context():
        load_review_demo()  # a Sapezal fiscal's phone pushes signed autos through the real sync
        muni = _sapezal()
        operator = _with_autos()
        assert operator is not None, "the demo holds autos about a Sapezal operator"
        ident, name, cpf, cnh = operator.id, operator.name, operator.cpf, operator.cnh_number
        operator.phone, operator.address = "(65) 90000-1111", "Rua A, 1"
        db.session.commit()
        _end_links(ident)
        _configure(muni)
        out = run_retention(muni, local_today())
        assert ident in out["parcial"] and ident not in out["total"]
        operator = db.session.get(Operator, ident)
        assert operator.anonymized_scope == "parcial"
        assert (operator.name, operator.cpf, operator.cnh_number) == (name, cpf, cnh)  # the autos identify them
        assert operator.phone is None and operator.address is None and operator.photo_path is None
        # Ten years on, the autos are past their period too: then everything goes.
        later = lei_810_years(local_today(), 10)  # from 29 February: 1 March (Lei 810/1949 art. 3º)
        out = run_retention(muni, later)
        assert ident in out["total"]
        assert db.session.get(Operator, ident).cpf != cpf


def test_the_photo_leaves_storage_only_once_the_anonymisation_holds(app, demo):
    """The stored photo is deleted after the commit (transaction.after_commit): a run rolled back
    leaves the operator their photo, row and file alike."""
    import io

    from PIL import Image

    from server.core import transaction
    from server.core.storage import storage
    from server.modules.lgpd.anonymise import run_retention
    from server.modules.registry.photos import AREA, store_operator_photo

    with app.app_context():
        muni = _sapezal()
        operator = _without_autos()
        ident = operator.id
        jpeg = io.BytesIO()
        Image.new("RGB", (60, 80), (17, 99, 3)).save(jpeg, "JPEG")  # a colour no demo photo has
        relative = store_operator_photo(operator, jpeg.getvalue())
        db.session.commit()
        _end_links(ident)
        _configure(muni)
        assert ident in run_retention(muni, local_today())["total"]
        db.session.rollback()  # the unit failed after the run
        assert db.session.get(Operator, ident).photo_path == relative and storage(AREA).exists(relative)
        with transaction.unit_of_work():  # as the daily run's date or `flask lgpd retention`
            assert ident in run_retention(_sapezal(), local_today())["total"]
            assert storage(AREA).exists(relative)  # not before the commit
        assert db.session.get(Operator, ident).photo_path is None and not storage(AREA).exists(relative)


def test_job_is_idempotent_and_does_nothing_unconfigured(app, demo, runner):
    from server.modules.lgpd.anonymise import run_retention

    with app.app_context():
        muni = _sapezal()
        ident = _without_autos().id
        _end_links(ident)
        assert run_retention(muni, local_today()) == {"configured": False, "parcial": [], "total": []}
        assert db.session.get(Operator, ident).anonymized_scope is None
    result = runner.invoke(args=["lgpd", "retention", "--municipality", "sapezal"])
    assert result.exit_code == 1 and "não configurados" in result.output
    with app.app_context():
        _configure(_sapezal())
    dry = runner.invoke(args=["lgpd", "retention", "--municipality", "sapezal", "--dry-run"])
    assert dry.exit_code == 0 and "seriam anonimizados por completo" in dry.output and str(ident) in dry.output
    with app.app_context():
        assert db.session.get(Operator, ident).anonymized_scope is None  # the dry run wrote nothing
    first = runner.invoke(args=["lgpd", "retention", "--municipality", "sapezal"])
    assert first.exit_code == 0 and str(ident) in first.output
    with app.app_context():
        entries = AuditLog.query.filter_by(action="lgpd_anonymise").count()
        snapshot = [(o.id, o.name, o.cpf, o.anonymized_scope) for o in Operator.query.order_by(Operator.id)]
        assert run_retention(_sapezal(), local_today()) == {"configured": True, "parcial": [], "total": []}
        assert AuditLog.query.filter_by(action="lgpd_anonymise").count() == entries
        assert [(o.id, o.name, o.cpf, o.anonymized_scope) for o in Operator.query.order_by(Operator.id)] == snapshot


def test_retention_settings_admin_only_sourced_dated_audited(app, demo, client):
    with app.app_context():
        muni = _sapezal()
        admin = User(username="admin.sapezal", name="Adm Sapezal", role="admin", municipality_id=muni.id)
        admin.set_password(DEMO_PASSWORD)
        db.session.add(admin)
        db.session.commit()
    login(client, "backoffice.sapezal")
    assert client.get("/bo/lgpd/retencao").status_code == 403
    client.post("/logout", data={"csrf_token": csrf_token(client, "/bo/")})
    login(client, "admin.sapezal")
    page = client.get("/bo/lgpd/retencao").get_data(as_text=True)
    assert 'id="retention-unset"' in page and "Lei 9.873/1999, art. 1º" in page
    token = csrf_token(client, "/bo/lgpd/retencao")
    bad = client.post("/bo/lgpd/retencao", data={**SETTINGS, "autos_years": "cinco", "registry_source": "",
                                                  "csrf_token": token})
    assert bad.status_code == 422
    text = bad.get_data(as_text=True)
    assert "Informe o prazo em anos" in text and "Informe o ato ou a lei" in text
    assert client.post("/bo/lgpd/retencao", data=SETTINGS).status_code == 400  # no CSRF
    assert client.post("/bo/lgpd/retencao", data={**SETTINGS, "csrf_token": token}).status_code == 302
    with app.app_context():
        saved = _sapezal().setting("retention")
        assert saved["autos_years"] == 5 and saved["registry_source"] == SETTINGS["registry_source"]
        assert saved["set_on"] == local_today().isoformat() and saved["set_by"] == "admin.sapezal"
        entry = AuditLog.query.filter_by(action="retention_settings").one()
        assert entry.actor_label == "admin.sapezal" and entry.municipality_id == _sapezal().id
    assert 'id="retention-saved"' in client.get("/bo/lgpd/retencao").get_data(as_text=True)
