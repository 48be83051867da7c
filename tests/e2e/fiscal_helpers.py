"""Helpers for the fiscal browser tests: a stoppable server on a fixed port, a fake camera that
shows a crachá, axe-core and screenshots."""
import threading
from io import BytesIO
from pathlib import Path

from PIL import Image
from playwright.sync_api import expect
from werkzeug.serving import make_server

from .helpers import save_shot, serious_violations

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "demo-motofiscal"  # every demo user's password


def enroll(page, base_url, pin, device_name, username="fiscal.sapezal", timeout=30000, password=PASSWORD):
    """Enrol this browser as a fiscal's phone from the login route, straight to the home screen
    (the journey test walks the same steps with a look at each screen)."""
    page.goto(f"{base_url}/app/#/fiscal/entrar")
    page.fill("#username", username)
    page.fill("#password", password)
    page.fill("#device-name", device_name)
    page.get_by_role("button", name="Entrar e cadastrar este celular").click()
    page.fill("#pin", pin)
    page.fill("#pin-again", pin)
    page.get_by_role("button", name="Salvar PIN").click()
    page.get_by_role("button", name="Começar").click(timeout=timeout)  # the first download
    expect(page.locator("#go-scan")).to_be_visible()


def phone_filming_cracha(browser, live_app, payload, tmp_path, device_scale_factor=1):
    """A browser process of its own whose fake camera films the printed crachá of `payload`, and a
    phone-sized page in it (pt-BR, Cuiabá, camera and location granted; CSP bypassed so that axe
    can be injected). Returns (camera browser, context, page, page errors); the caller closes the
    context and the browser."""
    from server.modules.credentials.models import Credential
    from server.modules.credentials.operations import card_data
    from server.modules.credentials.render import card_png_bytes

    from .conftest import CHROMIUM, CHROMIUM_ARGS, PHONE

    with live_app.app_context():
        png = card_png_bytes(card_data(Credential.query.filter_by(payload=payload).one()))
    camera = browser.browser_type.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS + [
        "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-video-capture={write_y4m(png, tmp_path / 'cracha.y4m')}"])
    context = camera.new_context(viewport=PHONE, device_scale_factor=device_scale_factor, locale="pt-BR",
                                 timezone_id="America/Cuiaba", service_workers="allow",
                                 permissions=["camera", "geolocation"],
                                 geolocation={"latitude": -13.5436, "longitude": -58.8143, "accuracy": 12},
                                 bypass_csp=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return camera, context, page, errors


class StoppableServer:
    """The app on 127.0.0.1:<port>; stop() and start() again on the SAME port, so the browser
    keeps its origin (service worker, IndexedDB) across a server outage."""

    def __init__(self, app, port=0):
        self.app, self.port, self.server, self.thread = app, port, None, None

    def start(self):
        self.server = make_server("127.0.0.1", self.port, self.app, threaded=True)
        self.port = self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)

    @property
    def url(self):
        return f"http://localhost:{self.port}"


def write_y4m(png_bytes, path, width=640, height=480, frames=10, fps=10):
    """A looping fake-camera video (YUV4MPEG2, 4:2:0) of the crachá centred on a grey desk, at
    fps frames per second (the fake device delivers them at that rate)."""
    card = Image.open(BytesIO(png_bytes)).convert("RGB")
    card.thumbnail((int(width * 0.95), int(height * 0.95)))
    frame = Image.new("RGB", (width, height), (128, 128, 128))
    frame.paste(card, ((width - card.width) // 2, (height - card.height) // 2))
    y, cb, cr = frame.convert("YCbCr").split()
    half = (width // 2, height // 2)
    planes = y.tobytes() + cb.resize(half).tobytes() + cr.resize(half).tobytes()
    with open(path, "wb") as out:
        out.write(f"YUV4MPEG2 W{width} H{height} F{fps}:1 Ip A1:1 C420jpeg\n".encode())
        for _ in range(frames):
            out.write(b"FRAME\n" + planes)
    return path


def shot(page, name):
    save_shot(page, f"fiscal-{name}", full_page=False)


def check_screen(page, name):
    """Screenshot + accessibility check of one fiscal screen."""
    shot(page, name)
    violations = serious_violations(page)
    assert not violations, f"{name}: {violations}"
