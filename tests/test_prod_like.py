"""A prefeitura's first month in the production topology (issue 36): nginx with the guide's
configuration in front of two gunicorn servers, PostgreSQL with the owner and the app role (the
servers connect as the app role, which row-level security binds), Redis, an S3-protocol store.
Every set-up command is a block of docs/operations.md run as written, as the role the guide names
(tools/prodlike/opsdoc.py). Every request of the month goes through nginx, which spreads it over
both servers; its access log says which server answered.

PostgreSQL only (`make test` runs it once, in the PostgreSQL pass); it needs nginx (`make
prod-deps`): skipped without it, except under `make test` (MOTOFISCAL_PROD_LIKE_REQUIRED=1).

The month, and what stands in for what the issue's other parts will add:
  municipality and administrator (guide) → users by the administrator → registry import
  (checked through nginx, written by the CLI) → operator photos → crachás → a fiscal's day over both
  servers → review and notificação → backup (guide) → restore into a new database (guide) → a
  server over the restored database, as the app role.
"""
import csv
import io
import os
from urllib.parse import urlsplit

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from autos_process_helpers import INFRACTION, _auto_fields
from conftest import PG_URL, _base_config
from fieldsync_device import FakeDevice, sha256_hex
from helpers import csrf_token, login
from registry_import_data import values_for
from two_servers import Http

pytestmark = [pytest.mark.db, pytest.mark.skipif(
    not PG_URL, reason="the production topology runs on PostgreSQL (set MOTOFISCAL_TEST_DATABASE_URL)")]

SLUG = "paranatinga"  # the guide's `municipality` block
ADMIN = "admin.paranatinga"
PASSWORD = "senha-do-primeiro-mes"
PERMITS = 3


@pytest.fixture(scope="module")
def prod(tmp_path_factory):
    from tools.prodlike import nginx
    from tools.prodlike.topology import ProdLike

    if nginx.binary() is None:
        message = "nginx not installed (`make prod-deps`)"
        if os.environ.get("MOTOFISCAL_PROD_LIKE_REQUIRED") == "1":
            pytest.fail(message)
        pytest.skip(message)
    admin_url = make_url(PG_URL).set(database="postgres").render_as_string(hide_password=False)
    topology = ProdLike(tmp_path_factory.mktemp("prod-like"), pg_admin_url=admin_url, log=print)
    topology.up()
    try:
        yield topology
    finally:
        topology.down()


def _browser(prod, cookies=None) -> Http:
    """A browser (or phone) talking to nginx over TLS, trusting the topology's certificate."""
    client = Http(prod.public_url, cookies=cookies)
    client.session.verify = str(prod.tls_cert)
    client.session.trust_env = False  # else REQUESTS_CA_BUNDLE, when set, replaces `verify`
    # Over HTTPS the CSRF check wants the Referer a browser sends (Flask-WTF's SSL strict mode).
    client.session.headers["Referer"] = prod.public_url + "/"
    return client


def _owner_app(prod, tmp_path, database=None):
    """An app over the database as its owner: the test's own view of what was written."""
    from server import create_app
    return create_app(_base_config(prod.database_url("owner", database), tmp_path / "owner-view"))


def _cli(prod, *args) -> str:
    """A flask command on an app server's machine: the env file's DATABASE_URL, the app role."""
    from tools.prodlike import opsdoc
    quoted = " ".join("'" + a.replace("'", "'\\''") + "'" for a in args)
    return opsdoc.run_script(f".venv/bin/flask --app server {quoted}", prod.guide_env())


def _upstreams(prod, path_prefix) -> set:
    """The servers (upstream addresses) nginx sent the requests under `path_prefix` to."""
    return {line.split()[-1] for line in prod.nginx_log().splitlines()
            if line.split()[1].startswith(path_prefix) and line.split()[-1] != "-"}


def _post_form(client, path, form_page, data, files=None):
    data = {**data, "csrf_token": csrf_token(client, form_page)}
    return client.session.post(client.base_url + path, data=data, files=files, allow_redirects=False, timeout=60)


def _jpeg(color):
    from PIL import Image
    out = io.BytesIO()
    Image.new("RGB", (240, 320), color).save(out, "JPEG", quality=80)
    return out.getvalue()


def test_a_first_month_through_nginx_with_two_servers_and_the_app_role(prod, tmp_path):
    # --- Nobody on the application's path bypasses row-level security ---------------------
    admin = create_engine(prod.pg_admin_url)
    with admin.connect() as conn:
        attributes = conn.execute(text("SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = :r"),
                                  {"r": prod.settings["DB_APP_ROLE"]}).one()
    admin.dispose()
    assert tuple(attributes) == (False, False)
    assert make_url(prod.app_env()["DATABASE_URL"]).username == prod.settings["DB_APP_ROLE"]

    # --- The municipality and its administrator: the guide's block, as the app role --------
    # TODO(i36c): then configure it from the first-day screen (deadlines, authority, amounts…)
    # once it exists; Paranatinga's law fixes what its first notificação needs, so nothing is
    # configured here today.
    created = prod.run_block("municipality", stdin=f"{PASSWORD}\n{PASSWORD}\n")
    assert "Paranatinga/MT criado" in created and f"Administrador {ADMIN} criado" in created

    office = _browser(prod)
    login(office, ADMIN, PASSWORD)
    for username, role in (("clerk.paranatinga", "backoffice"), ("fiscal.paranatinga", "fiscal")):
        made = _post_form(office, "/bo/usuarios/", "/bo/usuarios/", {
            "username": username, "name": f"Pessoa {role}", "role": role, "password": PASSWORD})
        assert made.status_code == 302, made.text[:500]
    clerk = _browser(prod)
    login(clerk, "clerk.paranatinga", PASSWORD)

    # The login limits count in the shared Redis (a wrong password, under a name of this run's).
    import redis
    stranger = f"ninguem-{prod.run_id}"
    refused = _browser(prod).post("/api/v1/auth/token", json={"username": stranger, "password": "x"})
    assert refused.status_code == 401
    limits = redis.Redis.from_url(prod.app_env()["RATELIMIT_STORAGE_URI"])
    counted = list(limits.scan_iter(f"LIMITS:*{stranger}*"))
    assert counted, "no login limit counted in Redis"
    limits.delete(*counted)

    # --- The registry the secretariat keeps: checked through nginx, written by the CLI ------
    view = _owner_app(prod, tmp_path)
    with view.app_context():
        from server.core.clock import local_today
        from server.modules.registry.models import Municipality
        from server.modules.registry_import.columns import columns_for
        columns = columns_for(Municipality.query.filter_by(slug=SLUG).one())
        today = local_today()
    sheet = io.StringIO()
    writer = csv.writer(sheet, delimiter=";")
    writer.writerow([c.header for c in columns])
    for i in range(PERMITS):
        row = values_for(i, today)
        writer.writerow([row.get(c.key, "") for c in columns])
    data = sheet.getvalue().encode("utf-8-sig")
    checked = _post_form(clerk, "/bo/importacao/", "/bo/importacao/", {},
                         files={"file": ("cadastro.csv", data, "text/csv")})
    assert checked.status_code == 200, checked.text[:1000]
    assert f"{PERMITS} linhas" in checked.text or f"{PERMITS} válidas" in checked.text, checked.text[:2000]
    # TODO(i36b): "Importar" through nginx (today the upload waits in the instance folder of the
    # server that checked it, and the other one answers 404), then the Excel-damaged 300-row sheet
    # in one corrected pass. Until then the same file is written by the documented CLI.
    upload = tmp_path / "cadastro.csv"
    upload.write_bytes(data)
    imported = _cli(prod, "registry-import", "run", "--municipality", SLUG, "--commit", str(upload))
    assert "Importado: 3" in imported, imported

    with view.app_context():
        from server.modules.registry.models import Permit
        permits = [(p.id, p.number, p.main_driver.id) for p in Permit.query.order_by(Permit.id)]
    assert len(permits) == PERMITS

    # --- Operator photos and crachás, through nginx --------------------------------------
    # TODO(i36c): bulk operator photos (a ZIP named by CPF) and bulk crachá issuance (one PDF of
    # A4 sheets, with a report) once they exist; today one request per operator and per permit.
    for n, (permit_id, _number, operator_id) in enumerate(permits):
        page = f"/bo/operadores/{operator_id}"
        sent = _post_form(clerk, f"{page}/foto", page, {},
                          files={"photo": ("foto.jpg", _jpeg((30 * n, 90, 140)), "image/jpeg")})
        assert sent.status_code == 302, sent.text[:500]
        issued = _post_form(clerk, f"/bo/permits/{permit_id}/credential", f"/bo/permits/{permit_id}",
                            {"reason": "emissão"})
        assert issued.status_code == 302, issued.text[:500]
    with view.app_context():
        from server.modules.credentials.models import Credential
        credentials = Credential.query.order_by(Credential.id).all()
        badge_payloads = [c.payload for c in credentials]
    assert len(badge_payloads) == PERMITS
    assert all(p.startswith(prod.public_url.upper()) for p in badge_payloads)  # the QR opens nginx
    public = _browser(prod).get(urlsplit(badge_payloads[0]).path).get_data(as_text=True)
    assert "VÁLIDO" in public and "INVÁLIDO" not in public
    assert len(_upstreams(prod, "/bo/")) == 2  # the clerk's requests went to both servers

    # --- A fiscal's day: every request through nginx, which alternates the two servers -----
    phone = FakeDevice(_browser(prod), "fiscal.paranatinga", password=PASSWORD)
    number = phone.reserve(1)[0]
    evidence = _jpeg((200, 40, 40))
    sha = sha256_hex(evidence)
    inf_id, citation, amount, brl = INFRACTION[SLUG]
    auto = None
    for n, (_permit_id, permit_number, operator_id) in enumerate(permits):
        inspection = phone.record(phone.body("inspection", permit_number=permit_number,
                                             photos=[sha] if n == 0 else []))
        items = [inspection]
        if n == 0:
            auto = phone.auto(number, inspection_id=inspection["id"], operator_id=operator_id,
                              permit_number=permit_number, plate="QBX1A23", place="Rodoviária Municipal",
                              auto_fields=_auto_fields(view, SLUG, permit_number), photos=[sha],
                              infractions=[{"id": inf_id, "citation": citation, "amount": amount, "amount_brl": brl,
                                            "decision": "confirmed", "removal_reason": None}])
            items.append(auto)
        for item in items:  # one push per record, as a phone with a weak signal sends them
            pushed = phone.push([item])
            assert pushed.status_code == 200, pushed.data
        uploaded = phone.client.put(f"/api/v1/sync/photos/{sha}", data=evidence,
                                    headers={**phone.headers, "Content-Type": "image/jpeg"}) if n == 0 else None
        assert uploaded is None or uploaded.status_code in (200, 201), uploaded and uploaded.data
    assert len(_upstreams(prod, "/api/v1/sync/push")) == 2  # the day was split across both servers

    # --- Review and notificação (the clerk, through nginx) --------------------------------
    record_page = f"/bo/revisao/registros/{auto['id']}"
    assert clerk.get(f"/bo/revisao/fotos/{sha}").data == evidence  # from the object store
    decided = _post_form(clerk, f"{record_page}/decisao", record_page, {
        "action": "homologar", "reason": "Fatos confirmados pelas fotos do fiscal."})
    assert decided.status_code in (302, 303), decided.text[:500]
    with view.app_context():
        from server.modules.autos.models import AutoCase
        case_id = AutoCase.query.filter_by(record_id=auto["id"]).one().id
    process = f"/autos/{case_id}/processo"
    notified = _post_form(clerk, f"{process}/notificar", process, {})
    assert notified.status_code == 303, notified.text[:500]
    pdf = clerk.get(f"/autos/{case_id}/notificacao.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    with view.app_context():
        from server.modules.autos.process_models import AutoNotification
        notice_path = urlsplit(AutoNotification.query.filter_by(case_id=case_id).one().payload).path
    assert "Documento autêntico" in _browser(prod).get(notice_path).get_data(as_text=True)

    # Row-level security held for the servers: as the app role, with no municipality set, the
    # permits are invisible; the owner sees them.
    app_role = create_engine(prod.database_url("app"))
    with app_role.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM permit")).scalar() == 0
    app_role.dispose()

    # --- Backup, as the owner (the guide's block) -----------------------------------------
    prod.run_block("backup")
    archives = list((prod.folder / "backups").glob("motofiscal-*.tar"))
    assert len(archives) == 1
    assert archives[0].stat().st_mode & 0o777 == 0o600  # personal data: the owner's only

    # --- Restore into a new database (the guide's block), then the app role works again -----
    restored = prod.run_block("restore")
    assert "restaurado" in restored, restored
    restored_db = prod.settings["DB_NAME"] + "_restored"  # the app role granted by the restore itself
    restored_storage = prod.settings["STORAGE_URL"] + "-restaurado"
    from tools.prodlike.topology import free_port
    port = free_port()
    prod.start_server("restored", port, DATABASE_URL=prod.database_url("app", restored_db),
                      STORAGE_URL=restored_storage)
    after = Http(f"http://127.0.0.1:{port}")
    login(after, "clerk.paranatinga", PASSWORD)
    assert after.get(f"/autos/{case_id}/notificacao.pdf").data.startswith(b"%PDF")
    assert after.get(f"/bo/revisao/fotos/{sha}").data == evidence  # the photo, from the restored prefix
    badge = after.get(urlsplit(badge_payloads[0]).path).get_data(as_text=True)
    assert "VÁLIDO" in badge and "INVÁLIDO" not in badge
    prod.stop_process("gunicorn-restored")
