"""Two gunicorn servers, A and B, over one PostgreSQL, one Redis and one S3-protocol object store (each with
its own instance folder), as behind a load
balancer that sends each request wherever it likes: a phone enrols on A and pushes to B, its
photo arrives on A, a clerk logged in on A reviews and prints the notificação on B, the public page
checks it on A, a key rotated on A signs a crachá on B, a login limit reached on A holds on B, and
the shell's compressed bytes and ETags are the same on both. PostgreSQL only: SQLite is a file on
one machine, not something two servers share."""
import http.client
import secrets
from types import SimpleNamespace
from urllib.parse import urlsplit

import pytest

from autos_process_helpers import INFRACTION, _auto_fields, first_operator_and_permit
from compression_checks import SHELL_URLS, assert_shell_compression
from conftest import PG_URL, _base_config, _empty_tables
from fieldsync_device import FakeDevice, sha256_hex
from helpers import csrf_token, login
from ratelimit_backends import REDIS_URL, delete_keys, redis_answers
from two_servers import Http, flask_cli, free_port, shared_env, start, stop, storage_env, wait_healthy

from server.extensions import db

pytestmark = [pytest.mark.db, pytest.mark.skipif(
    not PG_URL, reason="two app servers share one PostgreSQL (set MOTOFISCAL_TEST_DATABASE_URL)")]

SLUG = "paranatinga"


@pytest.fixture(scope="module")
def servers(database_url, tmp_path_factory, s3_server):
    from server import create_app
    from server.modules.demo.dataset import load_demo
    app = create_app(_base_config(database_url, tmp_path_factory.mktemp("test-process")))
    with app.app_context():
        _empty_tables()
        load_demo(credentials=False)
        db.session.commit()  # the loader stages; `flask demo load` commits
    redis = redis_answers()
    port_a, port_b = free_port(), free_port()
    env = shared_env(database_url, REDIS_URL if redis else "memory://", f"http://localhost:{port_a}",
                     storage_env(s3_server))
    # The limits are counted per client address (X-Forwarded-For from the one trusted proxy): an
    # address of this run's own keeps the shared Redis free of other runs' counts.
    # (IPv6 documentation addresses, 2001:db8::/32: wide enough that two runs never pick the same.)
    address, other = (f"2001:db8::{secrets.token_hex(2)}:{secrets.token_hex(2)}" for _ in range(2))
    run = secrets.token_hex(6)  # in the user names tried, so the per-account counts are this run's too
    processes = [start(port, {**env, "MOTOFISCAL_INSTANCE_PATH": str(tmp_path_factory.mktemp(f"instance-{name}"))})
                 for port, name in ((port_a, "a"), (port_b, "b"))]
    try:
        for process, port in zip(processes, (port_a, port_b)):
            wait_healthy(process, port)
        yield SimpleNamespace(a=f"http://127.0.0.1:{port_a}", b=f"http://127.0.0.1:{port_b}", ports=(port_a, port_b),
                              env=env, app=app, redis=redis, s3=s3_server, address=address, other=other, run=run)
    finally:
        for process in processes:
            stop(process)
        if redis:
            for pattern in (f"*[/|]{address}/*", f"*[/|]{other}/*", f"*{run}*"):  # this run's keys
                delete_keys(f"LIMITS:{pattern}")  # (the limiter's default prefix)


def _jpeg():
    import io

    from PIL import Image
    out = io.BytesIO()
    Image.new("RGB", (64, 48), (20, 120, 60)).save(out, "JPEG", quality=80)
    return out.getvalue()


def test_phone_clerk_and_public_pages_move_between_the_two_servers(servers):
    a, b = Http(servers.a), Http(servers.b)
    flask_cli(servers.env, "keys", "create", "--municipality", SLUG)  # on A's machine

    # The phone enrols on A (token, device, key) and pushes an inspection and an auto to B.
    phone = FakeDevice(a, f"fiscal.{SLUG}")
    phone.client = b
    operator_id, permit_number, permit_id = first_operator_and_permit(servers.app, SLUG)
    photo = _jpeg()
    sha = sha256_hex(photo)
    inf_id, citation, amount, brl = INFRACTION[SLUG]
    inspection = phone.record(phone.body("inspection", permit_number=permit_number, photos=[sha]))
    auto = phone.auto(phone.reserve(1)[0], inspection_id=inspection["id"], operator_id=operator_id,
                      permit_number=permit_number, plate="QBX1A23", place="Av. Brasil, 100",
                      auto_fields=_auto_fields(servers.app, SLUG, permit_number), photos=[sha],
                      infractions=[{"id": inf_id, "citation": citation, "amount": amount, "amount_brl": brl,
                                    "decision": "confirmed", "removal_reason": None}])
    pushed = phone.push([inspection, auto])
    assert pushed.status_code == 200, pushed.data
    # Its photo goes to A.
    phone.client = a
    uploaded = a.put(f"/api/v1/sync/photos/{sha}", data=photo, headers={**phone.headers, "Content-Type": "image/jpeg"})
    assert uploaded.status_code == 201, uploaded.data
    bucket, prefix = servers.env["STORAGE_URL"][len("s3://"):].split("/", 1)
    stored = servers.s3.client().list_objects_v2(Bucket=bucket, Prefix=prefix).get("Contents", [])
    assert any(sha in item["Key"] for item in stored)  # in the object store, not a server's folder

    # The clerk logs in on A; the same browser (its cookies) then works on B.
    clerk_a = Http(servers.a)
    login(clerk_a, f"backoffice.{SLUG}")
    clerk_b = Http(servers.b, cookies=clerk_a.session.cookies)
    record_page = f"/bo/revisao/registros/{auto['id']}"
    assert clerk_b.get(record_page).status_code == 200
    assert clerk_b.get(f"/bo/revisao/fotos/{sha}").data == photo  # uploaded on A, seen on B
    decided = clerk_b.post(f"{record_page}/decisao", data={
        "action": "homologar", "reason": "Fatos confirmados pelas fotos do fiscal.",
        "csrf_token": csrf_token(clerk_b, record_page)})
    assert decided.status_code in (302, 303), decided.get_data(as_text=True)[:500]
    with servers.app.app_context():
        from server.modules.autos.models import AutoCase
        case = AutoCase.query.filter_by(record_id=auto["id"]).one()
        assert case.state == "homologado"
        case_id = case.id
    process = f"/autos/{case_id}/processo"
    notified = clerk_b.post(f"{process}/notificar", data={"csrf_token": csrf_token(clerk_b, process)})
    assert notified.status_code == 303, notified.get_data(as_text=True)[:500]
    pdf = clerk_b.get(f"/autos/{case_id}/notificacao.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    with servers.app.app_context():
        from server.modules.autos.process_models import AutoNotification
        payload = AutoNotification.query.filter_by(case_id=case_id).one().payload
    camera = {"X-Forwarded-For": servers.address}  # the public pages' limits count this run's address
    public = Http(servers.a).get(urlsplit(payload).path, headers=camera)  # an anonymous phone camera, on A
    assert public.status_code == 200 and "Documento autêntico" in public.get_data(as_text=True)

    # A key rotated on A's machine signs the next crachá, issued on B; A's public page checks it.
    flask_cli(servers.env, "keys", "rotate", "--municipality", SLUG)
    issued = clerk_b.post(f"/bo/permits/{permit_id}/credential", data={
        "reason": "emissão", "csrf_token": csrf_token(clerk_b, record_page)})
    assert issued.status_code == 302
    with servers.app.app_context():
        from server.modules.credentials.models import Credential, IssuerKey
        from server.modules.registry.models import Municipality
        muni = Municipality.query.filter_by(slug=SLUG).one()
        keys = IssuerKey.query.filter_by(municipality_id=muni.id).order_by(IssuerKey.id).all()
        credential = Credential.query.filter_by(permit_id=permit_id).order_by(Credential.id.desc()).first()
        assert len(keys) == 2 and credential.issuer_key_id == keys[-1].id
        payload = credential.payload
    page = Http(servers.a).get(urlsplit(payload).path, headers=camera).get_data(as_text=True)
    assert "VÁLIDO" in page and "INVÁLIDO" not in page

    # Logging out on B ends the session on A too (the session row is in the shared database).
    clerk_b.post("/logout", data={"csrf_token": csrf_token(clerk_b, record_page)})
    assert clerk_a.get(record_page).status_code == 302


def test_a_login_limit_reached_on_one_server_holds_on_the_other(servers):
    if not servers.redis:
        pytest.skip(f"no Redis answers at {REDIS_URL}: the servers ran with memory:// limits")
    a, b = Http(servers.a), Http(servers.b)

    def failed_login(server, address, n):
        return server.post("/api/v1/auth/token", json={"username": f"ninguem{n}-{servers.run}", "password": "x"},
                           headers={"X-Forwarded-For": address}).status_code

    assert [failed_login(a, servers.address, n) for n in range(10)] == [401] * 10
    assert failed_login(b, servers.address, 10) == 429
    assert failed_login(b, servers.other, 11) == 401  # another client is not held


def _raw_get(port, path):
    def get(accept=None, etag=None):
        headers = {}
        if accept is not None:
            headers["Accept-Encoding"] = accept
        if etag:
            headers["If-None-Match"] = etag
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        body = response.read()  # as sent: http.client decodes nothing
        conn.close()
        return response.status, dict(response.getheaders()), body
    return get


@pytest.mark.parametrize("path", SHELL_URLS)
def test_the_shell_is_compressed_alike_by_both_servers(servers, path):
    port_a, port_b = servers.ports
    assert_shell_compression(_raw_get(port_a, path))
    # The same bytes and ETag from either server: a copy fetched from A revalidates on B.
    status, headers, body = _raw_get(port_a, path)(accept="gzip, br")
    status_b, headers_b, _ = _raw_get(port_b, path)(accept="gzip, br", etag=headers["ETag"])
    assert status_b == 304 and headers_b["ETag"] == headers["ETag"]
