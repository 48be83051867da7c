"""A prefeitura's first month in the production topology (issue 36): nginx with the guide's
configuration in front of two gunicorn servers, PostgreSQL with the owner and the app role (the
servers connect as the app role, which row-level security binds), Redis, an S3-protocol store.
Every set-up command is a block of docs/operations.md run as written, as the role the guide names
(tools/prodlike/opsdoc.py). Every request of the month goes through nginx, which spreads it over
both servers; its access log says which server answered.

PostgreSQL only (`make test` runs it once, in the PostgreSQL pass); it needs nginx (`make
prod-deps`): skipped without it, except under `make test` (MOTOFISCAL_PROD_LIKE_REQUIRED=1).

The month: municipality and administrator (guide) → configured from the first-day screen (public
address, fiscal unit, users, calendar) → a 300-row spreadsheet as Excel leaves it (identifiers
as numbers without their leading zeros, a column the clerk added) imported in one pass through the
back office: upload → job progress → report → "Importar" → done, every step through nginx (the
upload and the job live in the database, so either server answers each step) → operator photos in
one ZIP named by CPF → crachás in batches, one PDF of A4 sheets → a fiscal's day over both
servers → review and notificação → the first-day list all done → backup (guide) → restore into a
new database (guide) → a server over the restored database, as the app role.
"""
import io
import os
import re
import subprocess
import time
import zipfile
from urllib.parse import urlsplit

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from autos_process_helpers import INFRACTION, _auto_fields
from conftest import PG_URL, _base_config
from fieldsync_device import FakeDevice, sha256_hex
from helpers import csrf_token, login
from registry_import_data import cnh_leading_zero, cpf_leading_zero, renavam_leading_zero, values_for
from two_servers import Http

pytestmark = [pytest.mark.db, pytest.mark.skipif(
    not PG_URL, reason="the production topology runs on PostgreSQL (set MOTOFISCAL_TEST_DATABASE_URL)")]

SLUG = "paranatinga"  # the guide's `municipality` block
ADMIN = "admin.paranatinga"
PASSWORD = "senha-do-primeiro-mes"
ROWS = 300  # the imported fleet
FISCAL_DAY = 3  # permits the fiscal inspects (the first auto on the first one)
PHOTOS = 12  # operators whose photo goes in the ZIP


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


def _browser(prod, cookies=None, base_url=None) -> Http:
    """A browser (or phone) talking to nginx over TLS, trusting the topology's certificate."""
    client = Http(base_url or prod.public_url, cookies=cookies)
    client.session.verify = str(prod.tls_cert)
    client.session.trust_env = False  # else REQUESTS_CA_BUNDLE, when set, replaces `verify`
    # Over HTTPS the CSRF check wants the Referer a browser sends (Flask-WTF's SSL strict mode).
    client.session.headers["Referer"] = client.base_url + "/"
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


def _first_day(client) -> tuple[dict, str]:
    """{item key: state} of the first-day screen, and its HTML."""
    page = client.get("/bo/primeiro-dia")
    assert page.status_code == 200, page.get_data(as_text=True)[:500]
    html = page.get_data(as_text=True)
    return dict(re.findall(r'id="item-([a-z]+)".*?data-state="([a-z]+)"', html, re.S)), html


def _pending(client) -> set:
    return {key for key, state in _first_day(client)[0].items() if state == "pendente"}


def _follow_job(client, location) -> str:
    """The job's page, polled through nginx (either server answers) until it stops saying it is
    running; the page refreshes itself every 2 s, so does this."""
    path = urlsplit(location).path
    for _ in range(300):  # a bound against a job that never ends, not a timing assertion
        page = client.get(path)
        assert page.status_code in (200, 422), page.get_data(as_text=True)[:1000]
        html = page.get_data(as_text=True)
        if 'id="job-state"' not in html:
            return html
        time.sleep(1)
    raise AssertionError(f"{path} still running after 300 polls")


def _excel_damaged_xlsx(columns, rows) -> bytes:
    """The sheet as Excel keeps it: identifiers typed in "Geral" columns became numbers without
    their leading zeros, and the clerk added a column of notes."""
    from openpyxl import Workbook
    book = Workbook(write_only=True)
    sheet = book.create_sheet("Cadastro")
    sheet.append([c.header for c in columns] + ["Observações"])
    for row in rows:
        sheet.append([int(row[c.key]) if c.key in ("operator.cpf", "operator.cnh_number", "vehicle.renavam")
                      else row.get(c.key, "") for c in columns] + ["anotação do balcão"])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _pdf_pages(pdf_bytes, tmp_path) -> int:
    path = tmp_path / "crachas.pdf"
    path.write_bytes(pdf_bytes)
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))


def _masked_cpf(cpf):
    return f"{cpf[:3]}.{cpf[3:6]}.{cpf[6:9]}-{cpf[9:]}"


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
    created = prod.run_block("municipality", stdin=f"{PASSWORD}\n{PASSWORD}\n")
    assert "Paranatinga/MT criado" in created and f"Administrador {ADMIN} criado" in created

    view = _owner_app(prod, tmp_path)
    with view.app_context():
        from server.core.clock import local_today
        from server.modules.registry.models import Municipality
        from server.modules.registry_import.columns import columns_for
        columns = columns_for(Municipality.query.filter_by(slug=SLUG).one())
        today = local_today()

    # --- Configured from the first-day screen, by the administrator, through nginx ----------
    office = _browser(prod)
    login(office, ADMIN, PASSWORD)
    state, _html = _first_day(office)
    # Paranatinga's law fixes its deadlines, authorities and amounts; `municipality create` made
    # the signing key and recorded the guide's public address.
    assert {k: state[k] for k in ("prazos", "valores", "chave", "endereco")} == dict.fromkeys(
        ("prazos", "valores", "chave", "endereco"), "feito"), state
    assert _pending(office) == {"unidades", "fiscais", "aparelhos", "crachas", "calendario"}

    # The municipality's own public address (the certificate's other name for nginx): the QR of
    # its crachás must print this one, not the server's PUBLIC_BASE_URL.
    address = f"https://127.0.0.1:{prod.nginx_port}"
    saved = _post_form(office, "/bo/primeiro-dia/endereco", "/bo/primeiro-dia", {"public_base_url": address})
    assert saved.status_code == 302, saved.text[:500]
    state, html = _first_day(office)
    assert state["endereco"] == "feito" and f"apontam para {address}." in html
    # Paranatinga's fines are in UFIR (Lei 311/2007): its value in R$, extinct at R$ 1,0641
    # (Lei 10.522/2002, art. 29, § 3º).
    unit = _post_form(office, "/bo/unidades", "/bo/unidades", {
        "unit": "UFIR", "valid_from": "2000-10-26", "value_brl": "1,0641",
        "source": "Lei 10.522/2002, art. 29, § 3º"})
    assert unit.status_code == 302, unit.text[:1000]
    holiday = _post_form(office, "/bo/calendario", "/bo/calendario", {
        "day": f"{today.year}-01-02", "kind": "feriado_municipal", "name_pt": "Feriado municipal (teste)",
        "act": f"Lei municipal de teste nº 1/{today.year}"})
    assert holiday.status_code == 302, holiday.text[:1000]
    for username, role in (("clerk.paranatinga", "backoffice"), ("fiscal.paranatinga", "fiscal")):
        made = _post_form(office, "/bo/usuarios/", "/bo/usuarios/", {
            "username": username, "name": f"Pessoa {role}", "role": role, "password": PASSWORD})
        assert made.status_code == 302, made.text[:500]
    # What is left needs the fleet (crachás) and the fiscal's phone (its first login).
    assert _pending(office) == {"aparelhos", "crachas"}
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

    # --- The registry the secretariat keeps, as Excel left it: one pass through nginx --------
    rows = [{**values_for(i, today), "operator.cpf": cpf_leading_zero(i), "operator.cnh_number": cnh_leading_zero(i),
             "vehicle.renavam": renavam_leading_zero(i)} for i in range(ROWS)]
    sheet = _excel_damaged_xlsx(columns, rows)
    checking = _post_form(clerk, "/bo/importacao/", "/bo/importacao/", {}, files={"file": (
        "cadastro.xlsx", sheet, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")})
    assert checking.status_code == 303, checking.text[:1000]
    report = _follow_job(clerk, checking.headers["Location"])
    assert f"{ROWS} linhas: <strong>{ROWS} válidas</strong>" in report, report[:3000]
    assert "“Observações”: Coluna desconhecida: ignorada" in report and 'id="erros"' not in report
    report_path = urlsplit(checking.headers["Location"]).path
    importing = _post_form(clerk, f"{report_path}/gravar", report_path, {"only_valid": "0"})
    assert importing.status_code == 303, importing.text[:1000]
    done = _follow_job(clerk, importing.headers["Location"])
    assert 'id="import-done"' in done and f"Importação concluída: {ROWS} permissões, {ROWS} pessoas" in done, \
        done[:3000]
    # The upload, the progress and the report were answered by both servers.
    assert len(_upstreams(prod, "/bo/importacao/")) == 2

    with view.app_context():
        from server.modules.registry.models import Operator, Permit
        permits = [(p.id, p.number, p.main_driver.id) for p in Permit.query.order_by(Permit.number)]
        stored = {o.cpf for o in Operator.query}
    assert len(permits) == ROWS
    assert stored == {r["operator.cpf"] for r in rows}  # the zeros Excel dropped, restored

    # --- Operator photos: one ZIP named by CPF, as the clerk's folder has them --------------
    named = []
    for i in range(PHOTOS):
        cpf = rows[i]["operator.cpf"]
        name = (f"{_masked_cpf(cpf)}.jpg" if i % 3 == 0 else  # 012.345.678-90.jpg
                f"fotos/{int(cpf)}.JPG" if i % 3 == 1 else f"{cpf}.jpeg")  # zeros lost; plain
        named.append((name, _jpeg((20 * i, 90, 140))))
    named.append(("99999999999.jpg", _jpeg((0, 0, 0))))  # not a valid CPF: reported, not stored
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in named:
            out.writestr(name, data)
    photos = _post_form(clerk, "/bo/operadores/fotos/lote", "/bo/operadores/fotos/lote", {},
                        files={"zip": ("fotos.zip", archive.getvalue(), "application/zip")})
    assert photos.status_code == 200, photos.text[:1000]
    assert f'<strong id="matched-count">{PHOTOS}</strong>' in photos.text, photos.text[:3000]
    assert '<strong id="unknown-count">1</strong>' in photos.text
    with view.app_context():
        with_photo = {o.cpf for o in Operator.query.filter(Operator.photo_path.isnot(None))}
    assert with_photo == {rows[i]["operator.cpf"] for i in range(PHOTOS)}

    # --- Crachás in batches, through nginx --------------------------------------------------
    # First the fiscal's day's permits, chosen; their sheet (with photos) is printed.
    chosen = [permit_id for permit_id, _n, _o in permits[:FISCAL_DAY]]
    batch = _post_form(clerk, "/bo/crachas/lote", "/bo/crachas/lote", {"scope": "selecionadas", "permit_id": chosen})
    assert batch.status_code == 303, batch.text[:1000]
    batch_path = urlsplit(batch.headers["Location"]).path
    batch_report = clerk.get(batch_path).get_data(as_text=True)
    assert f'<strong id="issued-count">{FISCAL_DAY}</strong>' in batch_report, batch_report[:2000]
    sheet_pdf = clerk.get(f"{batch_path}/crachas.pdf")
    assert sheet_pdf.status_code == 200 and sheet_pdf.data.startswith(b"%PDF")
    assert _pdf_pages(sheet_pdf.data, tmp_path) == 1  # ten crachás to an A4 sheet
    # Then "all without one", batch after batch, until the screen says none is left.
    from server.modules.credentials.bulk import BATCH_MAX
    batches = []
    for _ in range(-(-(ROWS - FISCAL_DAY) // BATCH_MAX)):
        batch = _post_form(clerk, "/bo/crachas/lote", "/bo/crachas/lote", {"scope": "todas"})
        assert batch.status_code == 303, batch.text[:1000]
        batches.append(urlsplit(batch.headers["Location"]).path)
    last = clerk.get(batches[-1]).get_data(as_text=True)
    assert "Ainda há" not in last, last[:2000]
    full_sheet = clerk.get(f"{batches[0]}/crachas.pdf")
    assert full_sheet.status_code == 200
    assert _pdf_pages(full_sheet.data, tmp_path) == BATCH_MAX // 10
    with view.app_context():
        from server.modules.credentials.models import Credential
        assert Credential.query.filter_by(status="active").count() == ROWS
        badge_payloads = [Credential.query.filter_by(permit_id=permit_id).one().payload for permit_id in chosen]
    assert all(p.startswith(address.upper()) for p in badge_payloads)  # the municipality's own address
    # …which reaches nginx: the QR, opened by a phone.
    public = _browser(prod, base_url=address).get(urlsplit(badge_payloads[0]).path).get_data(as_text=True)
    assert "VÁLIDO" in public and "INVÁLIDO" not in public
    assert _pending(office) == {"aparelhos"}
    assert len(_upstreams(prod, "/bo/")) == 2  # the clerk's requests went to both servers

    # --- A fiscal's day: every request through nginx, which alternates the two servers -----
    phone = FakeDevice(_browser(prod), "fiscal.paranatinga", password=PASSWORD)
    number = phone.reserve(1)[0]
    evidence = _jpeg((200, 40, 40))
    sha = sha256_hex(evidence)
    inf_id, citation, amount, brl = INFRACTION[SLUG]
    auto = None
    for n, (_permit_id, permit_number, operator_id) in enumerate(permits[:FISCAL_DAY]):
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
    # The fiscal's phone is enrolled: nothing the first day needs is pending any more.
    state, html = _first_day(office)
    assert _pending(office) == set() and 'id="first-day-ready"' in html, state

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
