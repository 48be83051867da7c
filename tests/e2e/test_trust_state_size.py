"""A city-sized registry on the phone (issue 40, item 1): with 20,000 permits and their crachás,
the trust data is whole after ONE update. The status list used to be read 5,000 entries a request
and one request a sync, so a crachá issued after the first 5,000 entries read "emitida após a
última atualização dos dados" (DESCONHECIDO) until the fifth update.

The registry is written in bulk (tests/large_registry.py: what 20,000 back-office actions would
leave, signed crachás and status list included); the crachá under test is issued last, after the
phone's first download, through the real operation, and the phone then updates once."""
import shutil

import pytest
from playwright.sync_api import expect

from server import create_app

from large_registry import PASSWORD, populate
from .conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, ROOT
from .fiscal_helpers import StoppableServer, check_screen, enroll, write_y4m
from .helpers import SCREEN_SCALE

PERMITS = 20_000
USERNAME = "fiscal.cidade"


@pytest.fixture(scope="module")
def city(tmp_path_factory, pwa_root):
    from flask_migrate import upgrade

    instance = tmp_path_factory.mktemp("city")
    app = create_app({"TESTING": True, "SECRET_KEY": "e2e-city",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{instance / 'city.sqlite3'}",
                      "FIELDAPP_ROOT": str(pwa_root), "RATELIMIT_ENABLED": False})
    app.instance_path = str(instance)
    with app.app_context():
        upgrade(directory=str(ROOT / "migrations"))
    populate(app, PERMITS, credentials=True, username=USERNAME)
    server = StoppableServer(app).start()
    yield app, server
    server.stop()


def _issue_last(app):
    """A crachá for an active permit that has none yet, through credentials.operations: its
    status-list entry is the last of all."""
    from server.core.clock import local_today
    from server.modules.credentials.models import StatusListEntry
    from server.modules.credentials.operations import card_data, issue_credential
    from server.modules.credentials.render import card_png_bytes
    from server.modules.registry.models import Permit
    from server.extensions import db

    with app.app_context():
        # The highest-numbered active permit: its crachá (if it had one) is superseded, and the
        # new one's entry comes after every other.
        permit = (Permit.query.filter(Permit.status == "ativo", Permit.valid_until >= local_today())
                  .order_by(Permit.id.desc()).first())
        credential = issue_credential(permit)
        last = db.session.query(db.func.max(StatusListEntry.id)).scalar()
        entry = db.session.get(StatusListEntry, last)
        assert (entry.kind, entry.ref, entry.status) == ("credential", str(credential.serial), "active")
        assert db.session.query(StatusListEntry).count() > 2 * 5000  # past the old page size, twice
        db.session.commit()  # as the back office's request
        return credential.permit_number, card_png_bytes(card_data(credential))


def test_a_crachá_issued_last_reads_válido_after_one_update(city, browser, tmp_path):
    app, server = city
    video = tmp_path / "cracha.y4m"
    # The fake camera opens its file when the scanner asks for it: a blank desk until then.
    shutil.copyfile(write_y4m(_blank_png(), tmp_path / "desk.y4m"), video)
    camera = browser.browser_type.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS + [
        "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-video-capture={video}"])
    context = camera.new_context(viewport=PHONE, device_scale_factor=SCREEN_SCALE, locale="pt-BR",
                                 timezone_id="America/Cuiaba", service_workers="allow",
                                 permissions=["camera", "geolocation"], bypass_csp=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        enroll(page, server.url, "1357", "Celular da cidade", username=USERNAME, password=PASSWORD,
               timeout=180000)  # the first download: 20,000 permits and their crachás
        number, png = _issue_last(app)
        write_y4m(png, video)

        page.goto(f"{server.url}/app/#/fiscal/dados")  # one update, "Atualizar dados"
        expect(page.locator("#data-steps")).to_contain_text("Crachás e chaves", timeout=120000)
        expect(page.locator("#data-steps li").first).to_contain_text("Atualizado")
        # The stored list holds every crachá: one status per permit and per crachá.
        held = page.evaluate("""async () => {
            const { get } = await import('./js/data/db.js');
            const trust = (await get('reference', 'trust')).data;
            const count = (kind) => Object.values(trust.statuses[kind]).reduce((n, refs) => n + refs.length, 0);
            return { permits: count('permit'), credentials: count('credential') };
        }""")
        assert held["permits"] == PERMITS
        page.get_by_role("button", name="Começar").click()
        page.locator("#go-scan").click()
        expect(page.locator("#verdict-word")).to_have_text("VÁLIDO", timeout=60000)
        expect(page.locator("#verdict-permit")).to_have_text(number)
        check_screen(page, "verdict-city-of-20000")
        with app.app_context():
            from server.modules.credentials.models import Credential
            assert held["credentials"] == Credential.query.count()
    finally:
        context.close()
        camera.close()
    assert errors == []


def _blank_png():
    from io import BytesIO

    from PIL import Image

    out = BytesIO()
    Image.new("RGB", (320, 200), (200, 200, 200)).save(out, format="PNG")
    return out.getvalue()

