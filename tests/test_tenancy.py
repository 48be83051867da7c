"""Cross-tenant test derived from the models and the URL map (issue 20).

Every table with a `municipality_id` (db.metadata) is a tenant table; every route of the app
(app.url_map) whose path takes an id must say here which tenant table the id names (ROUTE_IDS)
or why it is not a tenant id (NOT_TENANT_IDS) — a new route fails `test_every_route_with_an_id_is_
classified` until it is. With the full demo loaded (three municipalities) plus field records
pushed in two of them, a user of another municipality gets 404 for every such id, and for every
combination where one id of a route is another municipality's and the others are their own (ids
reachable through a foreign key); the owner's same request is not a 404 (so the 404 is the scope,
not a wrong URL). Runs on SQLite and PostgreSQL.
"""
import io

import pytest
from PIL import Image

from fieldsync_device import FakeDevice
from helpers import DEMO_PASSWORD, csrf_token, login
from server.core.tenancy import tenant_tables
from server.extensions import db

# On PostgreSQL, as the application's role that row-level security binds (tests/conftest.py):
# a 404 here must come from the views' scope, and a view that forgot it would get no row either.
pytestmark = pytest.mark.app_role

STAFF, ADMIN, API, OPERATOR = "staff", "admin", "api", "operator"


def _models():
    return {m.class_.__table__.name: m.class_ for m in db.Model.registry.mappers
            if hasattr(m.class_, "__table__")}


def _cancel_request(mid):
    from server.modules.fieldsync.models import FieldRecord
    row = (FieldRecord.query.filter_by(municipality_id=mid, kind="cancel_request").order_by(FieldRecord.id).first())
    return {"rid": row.target_id, "req_id": row.id} if row else None


def _seizure(mid):
    from server.modules.autos.process_models import Seizure
    row = Seizure.query.filter_by(municipality_id=mid).order_by(Seizure.id).first()
    return {"case_id": row.case_id, "seizure_id": row.id} if row else None


def _notified_case(mid):
    from server.modules.autos.process_models import AutoNotification
    row = AutoNotification.query.filter_by(municipality_id=mid).order_by(AutoNotification.id).first()
    return {"case_id": row.case_id} if row else None


def _auto_record(mid):
    from server.modules.fieldsync.models import FieldRecord
    row = FieldRecord.query.filter_by(municipality_id=mid, kind="auto").order_by(FieldRecord.id).first()
    return {"rid": row.id} if row else None


def _operator_with_photo(mid):
    from server.modules.registry.models import Operator
    row = (Operator.query.filter(Operator.municipality_id == mid, Operator.photo_path.isnot(None))
           .order_by(Operator.id).first())
    return {"operator_id": row.id} if row else None


def _active_credential(mid):
    from server.modules.credentials import operations as ops
    from server.modules.credentials.models import Credential
    for row in Credential.query.filter_by(municipality_id=mid).order_by(Credential.id):
        if ops.effective_status(row) == "active":
            return {"credential_id": row.id}
    return None


def _filing_attachment(mid):
    from server.modules.autos.process_models import AutoAppeal
    for appeal in AutoAppeal.query.filter_by(municipality_id=mid).order_by(AutoAppeal.id):
        if appeal.attachments:
            return {"case_id": appeal.case_id, "sha256": appeal.attachments[0]["sha256"]}
    return None


def _credential_batch(mid):
    from server.core.audit import AuditLog
    row = AuditLog.query.filter_by(municipality_id=mid, action="credential_batch").order_by(AuditLog.id).first()
    return {"batch_id": row.id} if row else None


def _charge_case(mid):
    from server.modules.collection.models import PixCharge
    row = PixCharge.query.filter_by(municipality_id=mid).order_by(PixCharge.id).first()
    return {"case_id": row.case_id} if row else None


# endpoint → [(who may call it, {path argument: tenant table}, other path arguments, picker)]:
# picker(municipality id) → path ids consistent for that municipality (default: the first row
# of the argument's table). Several entries = several variants (a ledger of an operator or of a permit).
ROUTE_IDS = {
    "autos.seizure_pdf": [(STAFF, {"case_id": "auto_case", "seizure_id": "seizure"}, {}, _seizure)],
    "autos.notification_pdf": [(STAFF, {"case_id": "auto_case"}, {}, _notified_case)],
    "autos.process_page": [(STAFF, {"case_id": "auto_case"}, {}, None)],
    "autos.process_csv": [(STAFF, {"case_id": "auto_case"}, {}, None)],
    "autos.process_action": [(STAFF, {"case_id": "auto_case"}, {"action": "pagamento"}, None)],
    "autos.ledger_page": [(STAFF, {"ident": "operator"}, {"kind": "operador"}, None),
                          (STAFF, {"ident": "permit"}, {"kind": "permissao"}, None)],
    "autos.ledger_csv": [(STAFF, {"ident": "operator"}, {"kind": "operador", "lista": "autos"}, None),
                         (STAFF, {"ident": "permit"}, {"kind": "permissao", "lista": "penalidades"}, None)],
    "credentials.print_file": [(STAFF, {"credential_id": "credential"}, {"filename": "cracha.png"},
                                _active_credential)],
    "credentials.revoke": [(STAFF, {"credential_id": "credential"}, {}, None)],
    "credentials.issue": [(STAFF, {"permit_id": "permit"}, {}, None)],
    "backoffice.documents_form": [(STAFF, {"ident": "operator"}, {"subject": "operator"}, None),
                                  (STAFF, {"ident": "vehicle"}, {"subject": "vehicle"}, None)],
    "backoffice.company_detail": [(STAFF, {"ident": "company"}, {}, None)],
    "backoffice.company_edit": [(STAFF, {"ident": "company"}, {}, None)],
    "backoffice.issqn_pay": [(STAFF, {"ident": "issqn_charge"}, {}, None)],
    "backoffice.operator_detail": [(STAFF, {"ident": "operator"}, {}, None)],
    "backoffice.operator_edit": [(STAFF, {"ident": "operator"}, {}, None)],
    "backoffice.operator_photo_upload": [(STAFF, {"ident": "operator"}, {}, None)],
    "backoffice.operator_photo": [(STAFF, {"ident": "operator"}, {},
                                   lambda mid: ({"ident": p["operator_id"]} if (p := _operator_with_photo(mid)) else None))],
    "backoffice.permit_detail": [(STAFF, {"ident": "permit"}, {}, None)],
    "backoffice.permit_action": [(STAFF, {"ident": "permit"}, {"action": "suspend"}, None)],
    "backoffice.permit_absence": [(STAFF, {"ident": "permit"}, {}, None)],
    "backoffice.permit_desistencia": [(STAFF, {"ident": "permit"}, {}, None)],
    "backoffice.permit_edit": [(STAFF, {"ident": "permit"}, {}, None)],
    "backoffice.renewal_documents": [(STAFF, {"ident": "permit"}, {}, None)],
    "backoffice.renewal_first_documents": [(STAFF, {"ident": "permit"}, {}, None)],
    "backoffice.permit_substitute": [(STAFF, {"ident": "permit"}, {}, None)],
    "backoffice.permit_transfer": [(STAFF, {"ident": "permit"}, {}, None)],
    "backoffice.ponto_detail": [(STAFF, {"ident": "ponto"}, {}, None)],
    "backoffice.ponto_edit": [(STAFF, {"ident": "ponto"}, {}, None)],
    "backoffice.vehicle_detail": [(STAFF, {"ident": "vehicle"}, {}, None)],
    "backoffice.vehicle_edit": [(STAFF, {"ident": "vehicle"}, {}, None)],
    "backoffice.policy_new": [(STAFF, {"ident": "vehicle"}, {}, None)],
    "backoffice.vistoria_new": [(STAFF, {"ident": "vehicle"}, {}, None)],
    "review.conflict_page": [(STAFF, {"cid": "field_record_conflict"}, {}, None)],
    "traffic.report_page": [(STAFF, {"report_id": "traffic_report"}, {}, None)],
    "review.record_page": [(STAFF, {"rid": "field_record"}, {}, _auto_record)],
    "review.answers_csv": [(STAFF, {"rid": "field_record"}, {}, _auto_record)],
    "review.correct": [(STAFF, {"rid": "field_record"}, {}, _auto_record)],
    "review.decide": [(STAFF, {"rid": "field_record"}, {}, _auto_record)],
    "review.cancel_request": [(STAFF, {"rid": "field_record", "req_id": "field_record"}, {}, _cancel_request)],
    "selection_bo.candidate_action": [(STAFF, {"ident": "candidate"}, {"action": "prazo"}, None)],
    "selection_bo.edital_detail": [(STAFF, {"ident": "edital"}, {}, None)],
    "selection_bo.candidate_new": [(STAFF, {"ident": "edital"}, {}, None)],
    "selection_bo.classification_file": [(STAFF, {"ident": "edital"}, {}, None)],
    "selection_bo.tie_break": [(STAFF, {"ident": "edital"}, {}, None)],
    "selection_bo.publish": [(STAFF, {"ident": "edital"}, {}, None)],
    "accounts_admin.toggle_active": [(ADMIN, {"user_id": "user"}, {}, None)],
    "accounts_admin.reset_password": [(ADMIN, {"user_id": "user"}, {}, None)],
    "accounts_admin.revoke": [(ADMIN, {"device_id": "device"}, {}, None)],
    "accounts_admin.operator_code": [(STAFF, {"operator_id": "operator"}, {}, None)],
    "accounts_admin.operator_code_show": [(STAFF, {"operator_id": "operator"}, {}, None)],
    "fieldsync.operator_thumbnail": [(API, {"operator_id": "operator"}, {}, _operator_with_photo)],
    "backoffice.calendar_closure_remove": [(STAFF, {"ident": "calendar_closure"}, {}, None)],
    "backoffice.operator_rehabilitation": [(STAFF, {"ident": "operator"}, {}, None)],
    "lgpd.request_page": [(ADMIN, {"ident": "operator"}, {}, None)],
    "lgpd.export": [(ADMIN, {"ident": "operator"}, {"kind": "zip"}, None)],
    "review.rejected_page": [(STAFF, {"rid": "field_record_rejected"}, {}, None)],
    "autos.attachment_file": [(STAFF, {"case_id": "auto_case"}, {"sha256": "0" * 64}, _filing_attachment)],
    "collection_bo.penalty_pdf": [(STAFF, {"case_id": "auto_case"}, {}, _charge_case)],
    "collection_bo.line_action": [(STAFF, {"line_id": "statement_line"}, {"action": "descartar"}, None)],
    "collection_bo.charge_dam": [(STAFF, {"charge_id": "pix_charge"}, {}, None)],
    "notices.notice_detail": [(STAFF, {"notice_id": "notice"}, {}, None)],
    "notices.notice_retry": [(STAFF, {"notice_id": "notice"}, {}, None)],
    "notices.operator_contact": [(STAFF, {"operator_id": "operator"}, {}, None)],
    "notices.notice_read": [(OPERATOR, {"notice_id": "notice"}, {}, None)],
    "first_day.credential_batch_report": [(STAFF, {"batch_id": "audit_log"}, {}, _credential_batch)],
    "first_day.credential_batch_pdf": [(STAFF, {"batch_id": "audit_log"}, {}, _credential_batch)],
}

# Path arguments that are not the id of a tenant row, and why.
NOT_TENANT_IDS = {
    "autos.public_notification": "public page: the signed code is the credential (no ids)",
    "autos.public_notification_lower": "public page: the signed code is the credential (no ids)",
    "credentials.public_check_url": "public crachá page: the signed QR is the credential",
    "credentials.public_check": "public crachá page: the signed QR is the credential",
    "autos.public_page": "public auto page: an unguessable token printed on the auto",
    "credentials.public_keys": "public keys of every municipality (public by design)",
    "rules_api.composed": "municipality slug: published rules of the laws (public by design)",
    "credentials.trust": "municipality slug: trust data, checked by check_municipality_slug",
    "fieldsync.photo_head": "content hash, looked up in the caller's municipality only",
    "fieldsync.photo_put": "content hash, stored in the caller's municipality only",
    "autos.attachment_head": "content hash, looked up in the caller's municipality only",
    "autos.attachment_put": "content hash, stored in the caller's municipality only",
    "review.photo": "content hash, looked up in the caller's municipality only",
    "fieldapp.shell_file": "static file of the field app",
    "static": "static file",
    "autos.public_auto_status": "public auto status: the unguessable token printed on the auto",
    "fieldsync.public_device_keys": "IBGE code: a municipality's device public keys (public by design, no personal data)",
    "registry_import.template": "file kind (csv, xlsx) of the caller's own municipality's template",
    "registry_import.job": "import job id: random, bound to the uploader (user) and municipality",
    "registry_import.errors_csv": "import job id: random, bound to the uploader (user) and municipality",
    "registry_import.job_status": "import job id: random, bound to the uploader (user) and municipality",
    "registry_import.commit": "import job id: random, bound to the uploader (user) and municipality",
    "onboarding.create_municipality_admin": "platform administration: the municipality itself, platform admin only",
}


def test_every_route_with_an_id_is_classified(app):
    tenant = {t.name for t in tenant_tables()}
    unclassified, stale = [], []
    endpoints = set()
    for rule in app.url_map.iter_rules():
        if not rule.arguments:
            continue
        endpoints.add(rule.endpoint)
        if rule.endpoint in NOT_TENANT_IDS:
            continue
        specs = ROUTE_IDS.get(rule.endpoint)
        if specs is None:
            unclassified.append(f"{rule.rule} ({rule.endpoint})")
            continue
        for _who, ids, extra, _pick in specs:
            missing = set(rule.arguments) - set(ids) - set(extra)
            if missing:
                unclassified.append(f"{rule.rule} ({rule.endpoint}): argument(s) {sorted(missing)}")
            stale += [f"{rule.endpoint}: {t} is not a table with municipality_id" for t in ids.values()
                      if t not in tenant]
    stale += [f"{e}: no such route" for e in set(ROUTE_IDS) | set(NOT_TENANT_IDS) if e not in endpoints]
    assert not unclassified, (
        "Routes taking an id that tests/test_tenancy.py does not classify: add each to ROUTE_IDS "
        "(which tenant table its id names) or to NOT_TENANT_IDS (why it is not a tenant id):\n  "
        + "\n  ".join(sorted(unclassified)))
    assert not stale, "\n".join(sorted(stale))


# --- the data: the full demo, plus synced records in two municipalities ---------------------------

def _jpeg():
    out = io.BytesIO()
    Image.new("RGB", (64, 48), (40, 90, 200)).save(out, "JPEG")
    return out.getvalue()


def _field_data(app, client, slug):
    """An auto, a cancellation request for it, a conflict and a seizure in `slug`."""
    import json
    from fieldsync_device import b64url
    phone = FakeDevice(client, f"fiscal.{slug}")
    number = phone.reserve(1)[0]
    auto = phone.auto(number, plate="ABC1D23")
    request = phone.record(phone.body("cancel_request", auto_id=auto["id"], reason="Placa anotada errada."))
    assert [r["status"] for r in phone.push([auto, request]).json["results"]] == ["accepted", "accepted"]
    changed = json.loads(auto["body"])
    changed["plate"] = "ZZZ9Z99"
    text = json.dumps(changed, ensure_ascii=False, separators=(",", ":"))
    item = {"id": changed["id"], "body": text, "signature": b64url(phone.key.sign(text.encode()))}
    assert phone.push([item]).json["results"][0]["status"] == "conflict"
    poison = phone.inspection()
    poison["signature"] = "A" * 101  # more than the column holds: rejected and kept in quarantine
    assert phone.push([poison]).json["results"][0]["status"] == "rejected"
    from server.core.clock import local_today
    from server.modules.autos.models import AutoCase
    from server.modules.autos.payments import record_seizure
    with app.app_context():
        case = AutoCase.query.filter_by(record_id=auto["id"]).one()
        record_seizure(case, "apreensao", local_today().isoformat())
        db.session.commit()
    return phone


def _process_after_notice(app, client, case_id):
    """Issue 37's rows in Paranatinga: the operator files a recurso with a photo from the app, the
    penalty is applied (a fine: a PIX charge and its notices), a statement line waits for a clerk."""
    import hashlib
    from datetime import timedelta

    from autos_process_helpers import backdate_notification
    from operator_helpers import operator_headers
    from server.core.clock import local_today
    from server.modules.autos import process_operations
    from server.modules.autos.models import AutoCase
    from server.modules.collection.reconcile import import_statement
    from server.modules.registry.models import Municipality
    with app.app_context():
        case = db.session.get(AutoCase, case_id)
        operator_id, record_id = case.record.operator_id, case.record_id
    served = local_today() - timedelta(days=20)
    backdate_notification(app, case_id, served - timedelta(days=1))
    with app.app_context():
        process_operations.record_service(db.session.get(AutoCase, case_id), "postal_ar", served.isoformat(),
                                          "AR JT123456789BR")  # the deadline passed: the fine is applied
        db.session.commit()  # the test plays the requests that would have committed these
    headers = operator_headers(app, client, operator_id)
    photo = _jpeg()
    sha = hashlib.sha256(photo).hexdigest()
    assert client.put(f"/api/v1/operator/attachments/{sha}", data=photo, content_type="image/jpeg",
                      headers=headers).status_code == 201
    filing = {"id": "0b1e0c2a-5d7e-4f41-9a3b-7c1d2e3f4a5b", "auto_id": record_id,
              "text": "Recorro: a placa anotada não é a da minha moto.", "attachments": [sha]}
    answer = client.post("/api/v1/operator/filings", json={"records": [filing]}, headers=headers)
    assert answer.json["results"][0]["status"] == "accepted", answer.json
    with app.app_context():
        muni = Municipality.query.filter_by(slug="paranatinga").one()
        import_statement(muni, "extrato.csv", "data;valor;historico\n01/02/2026;50,00;PIX RECEBIDO FULANO\n".encode())
        db.session.commit()


@pytest.fixture
def world(app, client):
    from server.modules.accounts.operations import create_user
    from server.modules.demo.dataset import load_demo
    from server.modules.registry.models import Municipality, Operator
    with app.app_context():
        load_demo()
        db.session.commit()  # the loader stages; `flask demo load` commits
        munis = {m.slug: m.id for m in Municipality.query.order_by(Municipality.id)}
        for slug, mid in munis.items():  # a municipality's own administrator, for the admin routes
            create_user(mid, {"username": f"admin.{slug}", "name": f"Administração de {slug}", "role": "admin",
                              "password": DEMO_PASSWORD})
        photo_targets = {slug: Operator.query.filter_by(municipality_id=mid).order_by(Operator.id).first().id
                         for slug, mid in munis.items()}
        from datetime import date
        from server.modules.calendar.models import CalendarClosure
        db.session.add(CalendarClosure(municipality_id=munis["sapezal"], day=date(2030, 1, 2), kind="feriado_municipal",
                                       name_pt="Feriado municipal (teste)", act="Lei municipal de teste"))
        db.session.commit()
        from server.modules.credentials.bulk import issue_batch
        from server.modules.registry.models import Permit
        sapezal = db.session.get(Municipality, munis["sapezal"])
        issue_batch(sapezal, [Permit.query.filter_by(municipality_id=sapezal.id, status="ativo").order_by(Permit.id).first().id])
        db.session.commit()  # as the clerk's request
    phones = {slug: _field_data(app, client, slug) for slug in ("sapezal", "paranatinga")}
    from autos_process_helpers import homologated_case
    from server.modules.autos import process_operations
    from server.modules.autos.models import AutoCase
    case_id, _phone = homologated_case(app, client, "paranatinga", phone=phones["paranatinga"])
    with app.app_context():
        process_operations.issue_notification(db.session.get(AutoCase, case_id))
        db.session.commit()  # the test plays the request that would have committed it
    _process_after_notice(app, client, case_id)
    for slug, operator_id in photo_targets.items():
        clerk = app.test_client()
        login(clerk, f"backoffice.{slug}")
        path = f"/bo/operadores/{operator_id}"
        response = clerk.post(f"{path}/foto", data={"photo": (io.BytesIO(_jpeg()), "foto.jpg"),
                                                    "csrf_token": csrf_token(clerk, path)},
                              content_type="multipart/form-data")
        assert response.status_code in (200, 302), response.status_code
    return munis, phones


class _Callers:
    """One logged-in client per (role, municipality), made on first use."""

    def __init__(self, app, phones):
        self.app, self.phones, self.clients = app, phones, {}

    def get(self, who, slug):
        key = (who, slug)
        if key not in self.clients:
            if who == OPERATOR:
                from operator_helpers import operator_headers
                client = self.app.test_client()
                self.clients[key] = (client, operator_headers(self.app, client, self._operator_of(slug)), None)
            elif who == API:
                phone = self.phones.get(slug) or FakeDevice(self.app.test_client(), f"fiscal.{slug}")
                self.clients[key] = (phone.client, phone.headers, None)
            else:
                c = self.app.test_client()
                login(c, f"{'admin' if who == ADMIN else 'backoffice'}.{slug}")
                self.clients[key] = (c, {}, csrf_token(c, "/bo/"))
        return self.clients[key]

    def _operator_of(self, slug):
        """The operator the notices of `slug` are about (else the first with a permit)."""
        from server.modules.notices.models import Notice
        from server.modules.registry.models import Municipality, Permit
        with self.app.app_context():
            mid = Municipality.query.filter_by(slug=slug).one().id
            notice = Notice.query.filter_by(municipality_id=mid).order_by(Notice.id).first()
            if notice is not None:
                return notice.operator_id
            permit = next(p for p in Permit.query.filter_by(municipality_id=mid).order_by(Permit.id) if p.main_driver)
            return permit.main_driver.id

    def call(self, who, slug, method, path):
        client, headers, token = self.get(who, slug)
        if method == "GET":
            return client.get(path, headers=headers)
        return client.post(path, headers=headers, data={"csrf_token": token} if token else {})


def _pick(ids, picker, mid):
    if picker is not None:
        return picker(mid)
    models = _models()
    out = {}
    for arg, table in ids.items():
        model = models[table]
        row = db.session.query(model.id).filter(model.municipality_id == mid).order_by(model.id).first()
        if row is None:
            return None
        out[arg] = row[0]
    return out


def test_another_municipality_gets_404_for_every_tenant_id(app, world):
    munis, phones = world
    callers = _Callers(app, phones)
    rules = {r.endpoint: r for r in app.url_map.iter_rules() if r.endpoint in ROUTE_IDS}
    checks, controls, failures, uncovered = 0, [], [], []
    for endpoint, specs in sorted(ROUTE_IDS.items()):
        rule = rules[endpoint]
        method = "GET" if "GET" in rule.methods else "POST"
        for who, ids, extra, picker in specs:
            with app.app_context():
                picks = {slug: _pick(ids, picker, mid) for slug, mid in munis.items()}
            owners = [slug for slug, p in picks.items() if p]
            if not owners:
                uncovered.append(f"{endpoint} {sorted(ids.values())}")
                continue
            owner = owners[0]
            owned_path = rule.build({**extra, **picks[owner]}, append_unknown=False)[1]
            for stranger in munis:
                if stranger == owner:
                    continue
                response = callers.call(who, stranger, method, owned_path)
                checks += 1
                if response.status_code != 404:
                    failures.append(f"{method} {owned_path} as {who} of {stranger}: {response.status_code}")
                # Ids reachable through a foreign key: the stranger's own ids with one of the owner's.
                if len(ids) > 1 and picks[stranger]:
                    for arg in ids:
                        mixed = {**picks[stranger], arg: picks[owner][arg]}
                        path = rule.build({**extra, **mixed}, append_unknown=False)[1]
                        response = callers.call(who, stranger, method, path)
                        checks += 1
                        if response.status_code != 404:
                            failures.append(f"{method} {path} ({arg} of {owner}) as {who} of {stranger}: "
                                            f"{response.status_code}")
            controls.append((who, owner, method, owned_path))
    # The owner's own request is not a 404 (after every stranger's, as some controls change data).
    for who, owner, method, path in controls:
        status = callers.call(who, owner, method, path).status_code
        if status == 404 or status >= 500:
            failures.append(f"control: {method} {path} as {who} of {owner} (the owner): {status}")
    assert not uncovered, "No demo row for: " + "; ".join(uncovered) + " (add it to the `world` fixture)"
    assert not failures, f"{len(failures)} of {checks} cross-tenant requests leaked:\n  " + "\n  ".join(failures)
    assert checks >= 2 * len(ROUTE_IDS)


def test_foreign_keys_between_tenant_rows_stay_in_one_municipality(app, world):
    """The data itself: no tenant row points at another municipality's row (every foreign key
    between two tables with a municipality, over the whole demo and the synced records)."""
    from sqlalchemy import and_, func, select
    tenant = {t.name: t for t in tenant_tables()}
    crossing, pairs = [], 0
    with app.app_context():
        for table in tenant.values():
            for column in table.c:
                for fk in column.foreign_keys:
                    target = fk.column.table
                    if target.name not in tenant:
                        continue
                    pairs += 1
                    other = target.alias()
                    n = db.session.execute(select(func.count()).select_from(table.join(
                        other, and_(column == other.c[fk.column.name],
                                    table.c.municipality_id != other.c.municipality_id)))).scalar()
                    if n:
                        crossing.append(f"{table.name}.{column.name} → {target.name}: {n} row(s)")
    assert pairs > 20
    assert not crossing, "\n".join(crossing)


# --- the second wall: row-level security, read directly as the application's role --------------

def _child_tables():
    """Tables that reach a municipality only through a parent's foreign key (their policy is
    "the parent row is visible"): every table without a municipality that points at a tenant one."""
    tenant = {t.name for t in tenant_tables()}
    return {t.name: next(fk for fk in t.foreign_keys if fk.column.table.name in tenant and not fk.parent.nullable)
            for t in db.metadata.sorted_tables
            if t.name not in tenant and any(fk.column.table.name in tenant and not fk.parent.nullable
                                            for fk in t.foreign_keys)}


def _postgres_only(app):
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("row-level security is PostgreSQL's; SQLite has none (the views' scope is tested above)")


def test_every_tenant_table_has_a_forced_policy(app):
    _postgres_only(app)
    from sqlalchemy import text
    expected = {t.name for t in tenant_tables()} | set(_child_tables())
    with app.app_context():
        rows = db.session.execute(text(
            "SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity, count(p.polname) FROM pg_class c "
            "LEFT JOIN pg_policy p ON p.polrelid = c.oid WHERE c.relkind = 'r' AND c.relnamespace = "
            "'public'::regnamespace GROUP BY 1, 2, 3")).all()
        role = db.session.execute(text("SELECT current_user, rolsuper, rolbypassrls FROM pg_roles "
                                       "WHERE rolname = current_user")).one()
    guarded = {name for name, enabled, forced, policies in rows if enabled and forced and policies}
    assert not expected - guarded, f"tables without a forced row-level security policy: {sorted(expected - guarded)}"
    # The test connects as a role the policies bind (superusers and BYPASSRLS skip them).
    assert (role.rolsuper, role.rolbypassrls) == (False, False), role


def test_every_tenant_table_read_directly_shows_only_its_own_municipality(app, world):
    """Every tenant table and every child table, read with no filter at all as the application's
    role: with another municipality set, no row; with its own, exactly its rows; with none, none;
    and a row of another municipality cannot be written."""
    _postgres_only(app)
    from sqlalchemy import func, select
    from server.core.tenancy import NOTHING, crossing_municipalities, use_municipality, use_scope
    munis, _phones = world
    tables = {t.name: t for t in db.metadata.sorted_tables}
    tenant = [t.name for t in tenant_tables()]
    children = _child_tables()
    leaks, checked, empty = [], set(), []
    with app.app_context():
        with crossing_municipalities("test: the truth to compare with"):
            truth = {}
            for name in tenant:
                table = tables[name]
                truth[name] = dict(db.session.execute(select(table.c.municipality_id, func.count())
                                                      .group_by(table.c.municipality_id)).all())
            for name, fk in children.items():
                parent = fk.column.table
                truth[name] = dict(db.session.execute(
                    select(parent.c.municipality_id, func.count()).select_from(
                        tables[name].join(parent, fk.parent == fk.column)).group_by(parent.c.municipality_id)).all())
        for name, per_muni in truth.items():
            if not any(n for mid, n in per_muni.items() if mid is not None):
                empty.append(name)
            for slug, mid in munis.items():
                use_municipality(mid)
                seen = db.session.execute(select(func.count()).select_from(tables[name])).scalar()
                if seen != per_muni.get(mid, 0):
                    leaks.append(f"{name} as {slug}: {seen} row(s), its own are {per_muni.get(mid, 0)}")
                if per_muni.get(mid):
                    checked.add(name)
            use_scope(NOTHING)
            if n := db.session.execute(select(func.count()).select_from(tables[name])).scalar():
                leaks.append(f"{name} with no municipality set: {n} row(s)")
        db.session.rollback()
    assert not leaks, "\n".join(leaks)
    # With three municipalities, "exactly its own" is "none of the two others'" for every table
    # that holds rows; the world fixture fills most of them.
    assert len(checked) >= 0.7 * len(truth), f"too few tables hold rows: {sorted(empty)}"
    # Nor written: a row of another municipality is refused by the policy's WITH CHECK (same world,
    # to build it once).
    from sqlalchemy.exc import ProgrammingError
    from server.modules.registry.models import Ponto
    with app.app_context():
        use_municipality(munis["sapezal"])
        db.session.add(Ponto(municipality_id=munis["paranatinga"], name="Ponto alheio", capacity=5))
        with pytest.raises(ProgrammingError, match="row-level security"):
            db.session.flush()
        db.session.rollback()

