"""Browser tests: the real app on a live server, driven by Debian's headless Chromium.

The server runs in a thread (werkzeug make_server) on 127.0.0.1 and is opened as
http://localhost:<port>, a secure context, so service workers run. It uses its own temporary
SQLite database (migrated with the real migrations, demo data loaded) and a private copy of
pwa/, which a test may change to publish a new version of the shell.
"""
import shutil
import threading
from pathlib import Path

import pytest
from PIL import Image, ImageDraw
from werkzeug.serving import make_server

from server import create_app
from server.extensions import db as _db
from .helpers import SCREEN_SCALE

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
# The last flag: Chromium 156, even headless, loads its omnibox popup (a WebUI page of ~100 modules,
# chrome://omnibox-popup.top-chrome) in a renderer of its own for every new tab — ~750 ms of CPU
# per page at the moment our page starts (a trace of bench/fieldapp_perf.py's cold start), taking a
# core of the two from the page under test (disabling PreloadTopChromeWebUI alone did not stop it;
# these three did). A phone's browser has no such page to prewarm.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup"]
PHONE = {"width": 390, "height": 844}


def pytest_collection_modifyitems(items):
    for item in items:
        if "/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def pwa_root(tmp_path_factory):
    return Path(shutil.copytree(ROOT / "pwa", tmp_path_factory.mktemp("shell") / "pwa",
                                ignore=shutil.ignore_patterns("node_modules")))


@pytest.fixture(scope="session")
def live_app(tmp_path_factory, pwa_root):
    from flask_migrate import upgrade

    from server.modules.demo.dataset import load_demo

    instance = tmp_path_factory.mktemp("instance")
    app = create_app({"TESTING": True, "SECRET_KEY": "e2e",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{instance / 'e2e.sqlite3'}",
                      "FIELDAPP_ROOT": str(pwa_root),
                      # Many first accesses from 127.0.0.1 within a minute; limits have their own tests.
                      "RATELIMIT_ENABLED": False})
    app.instance_path = str(instance)
    with app.app_context():
        upgrade(directory=str(ROOT / "migrations"))
        load_demo()
        _db.session.commit()  # the loader stages, as under `flask demo load` (its command commits)
    return app


@pytest.fixture(scope="session")
def live_server(live_app):
    server = make_server("127.0.0.1", 0, live_app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://localhost:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def _no_context_outlives_its_test(request):
    """Closes what a test opened on the shared browser and left open (a failure before its own
    close): a page of it still syncing would run its route handlers in the next test, against a
    server already stopped, and fail that test too."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    before = set(browser.contexts)
    yield
    for leftover in set(browser.contexts) - before:
        try:
            leftover.close()
        except Exception:  # noqa: BLE001 (already closing with its test)
            pass


@pytest.fixture
def context(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=SCREEN_SCALE, locale="pt-BR",
                                  timezone_id="America/Cuiaba", service_workers="allow")
    yield context
    context.close()


@pytest.fixture
def page(context):
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    assert not errors, f"uncaught errors in the page: {errors}"


@pytest.fixture
def operator_access(live_app):
    """Give a demo operator of `slug` a photo and a first-access code, as the back office does."""
    from server.extensions import db
    from server.modules.credentials import operations as credentials
    from server.modules.operator_portal.operations import create_operator_access
    from server.modules.registry.models import Municipality, Permit

    def make(slug="sapezal", status="ativo"):
        with live_app.app_context():
            muni = Municipality.query.filter_by(slug=slug).one()
            permit = (Permit.query.filter_by(municipality_id=muni.id, status=status)
                      .order_by(Permit.id).first())
            operator = permit.main_driver
            photos = Path(live_app.instance_path) / "photos"
            photos.mkdir(exist_ok=True)
            photo = Image.new("RGB", (240, 300), (90, 120, 160))
            ImageDraw.Draw(photo).ellipse((60, 50, 180, 190), fill=(230, 200, 170))
            photo.save(photos / f"operator-{operator.id}.jpg", quality=80)
            operator.photo_path = f"operator-{operator.id}.jpg"
            code = create_operator_access(operator)
            db.session.commit()
            payload = None
            if status == "ativo":  # the back office signs crachás of active permits only
                if credentials.active_key(muni) is None:
                    credentials.create_key(muni)
                payload = credentials.issue_credential(permit).payload
                db.session.commit()  # as the back office's request
            return {"slug": slug, "code": code, "name": operator.name, "payload": payload,
                    "permit_number": permit.number, "plate": permit.vehicle.plate}
    return make


# --- The rules lab (issue 38): the full demo with the synthetic example municipality, and the
# amendment TEST FIXTURE published beside the shipped packs. A server of its own, so the other
# browser tests keep the three municipalities and the shipped laws.
AMENDMENTS = ROOT / "tests" / "fixtures" / "amendments"


@pytest.fixture(scope="session")
def lab_app(tmp_path_factory, pwa_root):
    from flask_migrate import upgrade

    from server.modules.demo.dataset import load_demo
    from server.modules.registry.models import Municipality
    from server.modules.rules.settings import save_value

    instance = tmp_path_factory.mktemp("lab-instance")
    app = create_app({"TESTING": True, "SECRET_KEY": "lab",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{instance / 'lab.sqlite3'}",
                      "FIELDAPP_ROOT": str(pwa_root), "RATELIMIT_ENABLED": False,
                      "RULES_EXTRA_PACKS_DIR": str(AMENDMENTS)})
    app.instance_path = str(instance)
    with app.app_context():
        upgrade(directory=str(ROOT / "migrations"))
        load_demo(example=True)
        # The decree the amendment leaves the appeal's days to, in force from the amendment's date.
        save_value(Municipality.query.filter_by(slug="paranatinga").one(), "deadlines", "paranatinga.prazo_recurso",
                   {"valid_from": "2026-03-01", "days": 10, "act": "Decreto nº 50/2026"}, "Decreto nº 50/2026")
        _db.session.commit()  # staged, as under a command: the live server reads them on its own connections
    return app


@pytest.fixture(scope="session")
def lab_server(lab_app):
    server = make_server("127.0.0.1", 0, lab_app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://localhost:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)
