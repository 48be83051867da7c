"""The field app's benchmark harness, shared by bench/fieldapp_perf.py and bench/sync_day.py: the app
over a demo database, the crachá the fake camera films, enrolment, pages at 4× CPU whose workers are
stretched too, the page-side probes (WATCH, MERGE) and the floor page the figures are divided by."""
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PASSWORD = "demo-motofiscal"

# Sets window.__homeAt / __verdictAt (performance.now()) the first frame each is visible, and
# __tapAt, the last pointerdown's timeStamp (same clock). window.__rearm() watches for the next verdict.
WATCH = """(() => {
  addEventListener('pointerdown', (event) => { window.__tapAt = event.timeStamp; }, true);
  let before = null; // the verdict on screen when re-armed: only a new one counts
  window.__rearm = () => { window.__verdictAt = null; before = document.querySelector('#verdict-word'); };
  const seen = (sel) => { const e = document.querySelector(sel); return e && e.offsetParent !== null; };
  const tick = () => {
    if (!window.__homeAt && seen('#go-scan')) { window.__homeAt = performance.now(); console.debug('bench:home'); }
    if (!window.__verdictAt && seen('#verdict-word') && document.querySelector('#verdict-word') !== before) {
      window.__verdictAt = performance.now();
      window.__frameAt = performance.getEntriesByName('scan-frame').pop()?.startTime ?? null;
      window.__decodedAt = performance.getEntriesByName('scan-decoded').pop()?.startTime ?? null;
      window.__verifiedAt = performance.getEntriesByName('scan-verified').pop()?.startTime ?? null;
      window.__engine = performance.getEntriesByName('scan-decoded').pop()?.detail?.engine ?? null;
      window.__decodeMs = performance.getEntriesByName('scan-decoded').pop()?.detail?.ms ?? null;
      console.debug('bench:verdict');
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();"""

MERGE = """async ({ permits, runs }) => {
  const { mergeField, indexField } = await import('./js/fiscal/field-merge.js');
  const rows = (n, make) => Array.from({ length: n }, (_, i) => make(i + 1));
  const stored = {
    cursor: 10, generated_at: new Date().toISOString(), municipality: { slug: 'sapezal' }, photo_url: '/x',
    permits: rows(permits, (id) => ({ id, number: `SAP-${id}`, kind: 'individual', status: 'ativo', issued_on: '2025-01-02', valid_until: '2026-12-31', holder_operator_id: id, vehicle_id: id, ponto_id: 1 + id % 40 })),
    operators: rows(permits, (id) => ({ id, name: `Operador Número ${id} da Silva`, cpf: '***.456.789-**', photo: 1, cnh_category: 'A', cnh_expiry: '2028-01-01', birth_date: '1990-05-06', residence_since: '2010-01-01' })),
    vehicles: rows(permits, (id) => ({ id, plate: `QQA${String(id).padStart(4, '0')}`, make: 'Honda', model: 'CG 160', year_manufacture: 2020, engine_cc: 160 })),
    pontos: rows(40, (id) => ({ id, name: `Ponto ${id}` })), penalties: [],
  };
  const delta = { snapshot: false, cursor: 11, generated_at: new Date().toISOString(),
    permits: { id: [4321], number: ['SAP-4321'], kind: ['individual'], status: ['suspenso'], issued_on: ['2025-01-02'], valid_until: ['2026-12-31'], holder_operator_id: [4321], vehicle_id: [4321], ponto_id: [2] },
    operators: { id: [] }, vehicles: { id: [] }, pontos: { id: [] }, penalties: { id: [] }, removed: {} };
  const merge = [], index = [];
  let out;
  for (let i = 0; i < runs; i += 1) {
    let t = performance.now();
    out = mergeField(stored, delta);
    merge.push(performance.now() - t);
    t = performance.now();
    indexField(out);
    index.push(performance.now() - t);
  }
  const changed = out.permits.find((p) => p.id === 4321).status;
  return { merge, index, changed, permits: out.permits.length };
}"""


# The floor page: one module, its own worker, a button painted at once; floorTrip() is a frame's
# round trip without any decoding (canvas read → worker → echo → painted).
FLOOR = {
    "/bench-floor/": ("text/html", '<!doctype html><html lang="pt-BR"><head><meta charset="utf-8">'
                      '<meta name="viewport" content="width=device-width"><title>floor</title>'
                      '<script type="module" src="floor.js"></script></head><body><main id="screen">'
                      '</main></body></html>'),
    "/bench-floor/floor.js": ("text/javascript", """
const worker = new Worker('worker.js');
const button = document.createElement('button');
button.id = 'go-scan';
button.textContent = 'Ler crachá';
document.getElementById('screen').append(button);
window.floorTrip = () => new Promise((resolve) => {
  const canvas = document.createElement('canvas');
  canvas.width = 640; canvas.height = 480;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  ctx.fillStyle = '#888'; ctx.fillRect(0, 0, 640, 480);
  const started = performance.now();
  const image = ctx.getImageData(0, 0, 640, 480);
  worker.onmessage = () => {
    const word = document.createElement('p');
    word.textContent = 'VÁLIDO';
    document.getElementById('screen').replaceChildren(word);
    requestAnimationFrame(() => resolve(performance.now() - started));
  };
  worker.postMessage({ data: image.data.buffer }, [image.data.buffer]);
});
"""),
    "/bench-floor/worker.js": ("text/javascript",
                               "self.postMessage({ ready: true });\n"
                               "self.onmessage = (event) => self.postMessage({ n: event.data.data.byteLength });\n"),
}

# Evaluated in every worker of a measured page (Playwright's worker.evaluate, as soon as the
# worker exists — after its script's first synchronous run): each reply the worker posts first
# busy-waits (RATE − 1)× the time it took, counted from the request (the handler is wrapped; a
# 'message' listener missed the first request), or for the first, unrequested message ('ready':
# the .wasm compile and warm-up) from this injection.
STRETCH = """(rate) => {
  let since = performance.now();
  const post = self.postMessage.bind(self);
  self.postMessage = (message, transfer) => {
    const until = performance.now() + (rate - 1) * (performance.now() - since);
    while (performance.now() < until) { /* busy, as a slower CPU would be */ }
    return post(message, transfer);
  };
  const handler = self.onmessage;
  if (handler) self.onmessage = (event) => { since = performance.now(); return handler.call(self, event); };
  return Boolean(handler);
}"""
WORKER_RATE = int(os.environ.get("WORKER_RATE", "4"))
WRAPPED = []  # per stretched worker: True (handler wrapped) or why not, reported in the doc


class Slow:
    """WSGI wrapper: when `delay` is set, every response waits that long (a 2 s round trip);
    serves the floor page (FLOOR) itself."""

    def __init__(self, app):
        self.app, self.delay = app, 0.0

    def __call__(self, environ, start_response):
        floor = FLOOR.get(environ.get("PATH_INFO", ""))
        if floor:
            start_response("200 OK", [("Content-Type", f"{floor[0]}; charset=utf-8"), ("Cache-Control", "no-store")])
            return [floor[1].encode()]
        if self.delay:
            time.sleep(self.delay)
        return self.app(environ, start_response)


def make_app(tmp):
    from flask_migrate import upgrade

    from server import create_app
    from server.extensions import db
    from server.modules.demo.dataset import load_demo

    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp / 'bench.sqlite3'}",
                      # BENCH_PWA_ROOT: another copy of pwa/ (e.g. an older commit's) for an A/B run.
                      "FIELDAPP_ROOT": os.environ.get("BENCH_PWA_ROOT", str(ROOT / "pwa"))})
    app.instance_path = str(tmp)
    with app.app_context():
        upgrade(directory=str(ROOT / "migrations"))
        load_demo()
        db.session.commit()  # the loader stages, as under `flask demo load` (its command commits)
    return app


def crachá_png(app, aimed=False):
    """The printed crachá's PNG; aimed: its QR alone, ~260 px in the 640×480 frame, inside the
    scanner's yellow guide box — the crachá as a fiscal holds it to the camera."""
    from io import BytesIO

    from server.extensions import db
    from server.modules.credentials import operations as credentials
    from server.modules.credentials.operations import card_data
    from server.modules.credentials.render import card_png_bytes, qr_image, qr_matrix
    from server.modules.registry.models import Municipality, Permit

    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        from server.core.clock import local_today
        permit = (Permit.query.filter_by(municipality_id=muni.id, status="ativo")
                  .filter(Permit.valid_until >= local_today()).order_by(Permit.id).first())
        if credentials.active_key(muni) is None:
            credentials.create_key(muni)
        credential = credentials.issue_credential(permit)
        db.session.commit()
        card = card_data(credential)
        if not aimed:
            return card_png_bytes(card)
        out = BytesIO()
        qr_image(card.payload, 260 // len(qr_matrix(card.payload))).save(out, format="PNG")
        return out.getvalue()


def enroll(page, url, username="fiscal.sapezal", password=PASSWORD):
    page.goto(f"{url}/app/#/fiscal/entrar")
    page.fill("#username", username)
    page.fill("#password", password)
    page.fill("#device-name", "Celular do benchmark")
    page.get_by_role("button", name="Entrar e cadastrar este celular").click()
    page.fill("#pin", "1357")
    page.fill("#pin-again", "1357")
    page.get_by_role("button", name="Salvar PIN").click()
    page.get_by_role("button", name="Começar").click(timeout=900000)  # a city's first download
    page.wait_for_selector("#go-scan")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30000)


def throttled_page(context):
    """A new page at 4× CPU whose workers are stretched 4× too (STRETCH)."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})

    def stretch(worker):
        try:
            WRAPPED.append(worker.evaluate(STRETCH, WORKER_RATE))
        except Exception as error:  # a worker gone before we got to it (a left screen)
            WRAPPED.append(repr(error))

    if WORKER_RATE > 1:
        page.on("worker", stretch)
    return page


def on_fiscal_home(context, url, script):
    """Evaluate `script` in a new throttled page once the fiscal home shows, then close the page."""
    page = throttled_page(context)
    page.goto(f"{url}/app/#/fiscal")
    page.wait_for_selector("#go-scan")
    result = page.evaluate(script)
    page.close()
    return result


def wait_for(page, signal):
    """Wait for WATCH's console signal. Not wait_for_function: Playwright's polling runs its
    injected script in the page every frame, ~50 ms of main thread at 4× CPU (seen in a trace)
    competing with the very start it measures; a console event reaches us without touching it."""
    return page.expect_console_message(lambda message: message.text == f"bench:{signal}", timeout=60000)
