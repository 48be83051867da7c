"""Randomized fault run of the fiscal's outbox in a real browser: every iteration signs a few
records (inspections and an auto, with photos) through the app's own modules (records.js,
IndexedDB, the outbox replay of sync.js), injects one fault picked by a seeded RNG, lets the sync
finish and checks that the server holds every record and every photo exactly once.

Faults: the push or a photo upload aborted before it reaches the server, or after the server
answered (so the server committed and the phone never heard); the in-process server killed
mid-push; the network cut mid-photo upload; the page killed (closed, reopened) while a request
is in flight. One browser, one server, one enrolled phone for the whole run.

MOTOFISCAL_FAULT_SEED fixes the seed (printed on every run); MOTOFISCAL_FAULT_RUNS the number of
iterations (default 50)."""
import os
import random
import time

import pytest
from playwright.sync_api import expect

from .conftest import PHONE
from .fiscal_helpers import StoppableServer, enroll

RUNS = int(os.environ.get("MOTOFISCAL_FAULT_RUNS", "50"))
FAULTS = ["push_abort_before", "push_abort_after", "photo_abort_before", "photo_abort_after",
          "server_killed_mid_push", "network_cut_mid_photo", "page_killed_mid_push",
          "page_killed_mid_photo"]

# Runs in the page: a checklist photo (compressed by photos.js), an inspection citing it, and on
# the last one an auto citing the same photo plus a drawn signature — sealed and queued by
# records.commitRecord exactly as the screens do. Returns what the phone believes it sent.
CREATE = """async ({ inspections, salt }) => {
    const records = await import('./js/fiscal/records.js');
    const field = await import('./js/fiscal/field-data.js');
    const { compressPhoto } = await import('./js/fiscal/photos.js');
    const { signaturePad } = await import('./js/fiscal/signature-pad.js');
    const { uuid, randomToken } = await import('./js/fiscal/bytes.js');
    const canvasBlob = (w, h, type, draw) => new Promise((resolve) => {
        const c = document.createElement('canvas'); c.width = w; c.height = h;
        draw(c.getContext('2d')); c.toBlob(resolve, type, 0.9);
    });
    const made = [];
    let last = null;
    for (let i = 0; i < inspections; i += 1) {
        const raw = await canvasBlob(900, 600, 'image/jpeg', (g) => {
            g.fillStyle = `hsl(${(salt * 37 + i * 90) % 360} 60% 50%)`; g.fillRect(0, 0, 900, 600);
            g.fillStyle = '#fff'; g.font = '48px sans-serif'; g.fillText(`placa ${salt}-${i}`, 40, 300);
        });
        const sha = await records.storePhoto(await compressPhoto(raw));
        const id = uuid();
        await records.commitRecord({
            id, kind: 'inspection', photos: [sha],
            summary: { name: null, plate: 'QQA1B23', permit_number: null },
            fields: {
                clock: records.deviceClock(null), gps: null, no_gps_reason: 'Teste de falhas',
                data_age_s: 0, photos: [sha], permit_number: null, plate: 'QQA1B23', operator_id: null,
                credential: null, answers: { 'vehicle.red_plate': false },
                answer_sources: { 'vehicle.red_plate': 'fiscal' },
                item_photos: { 'vehicle.red_plate': [sha] }, evaluation: null, decisions: {}, pack_versions: {},
            },
        });
        made.push({ id, kind: 'inspection', photos: [sha] });
        last = { id, sha };
    }
    const pad = signaturePad('Assinatura do fiscal', 'sig-fault');
    const g = pad.node.querySelector('canvas').getContext('2d');
    g.beginPath(); g.moveTo(20, 200); g.lineTo(200 + salt % 400, 40); g.lineTo(680, 200 - salt % 150); g.stroke();
    const sig = await records.storePhoto(await pad.toBlob());
    const number = await field.takeNumber();
    const id = uuid();
    const photos = [last.sha, sig];
    await records.commitRecord({
        id, kind: 'auto', photos,
        summary: { number, name: null, plate: 'QQA1B23', public_token: null, infractions: [], inspection_id: last.id },
        fields: {
            inspection_id: last.id, number, place: 'Rua do Teste, 1', clock: records.deviceClock(null),
            gps: null, no_gps_reason: 'Teste de falhas', data_age_s: 0, photos, permit_number: null,
            plate: 'QQA1B23', operator_id: null,
            infractions: [{ id: 'teste', citation: null, label_pt: 'Teste', amount: null, amount_brl: null, decision: 'confirmed', removal_reason: null }],
            auto_fields: {}, signatures: { fiscal: sig, operator: null, operator_refused: true },
            defence: { deadline_days: null, instance: null, due: null }, public_token: randomToken(32),
        },
    });
    made.push({ id, kind: 'auto', photos });
    return made;
}"""

# Runs in the page: sync until nothing is pending (the app's backoff timer would also get there,
# only slower). Returns the outbox as the phone sees it.
SETTLE = """async (deadlineMs) => {
    const { syncNow } = await import('./js/fiscal/sync.js');
    const { isPending } = await import('./js/fiscal/outbox.js');
    const db = await import('./js/data/db.js');
    const end = Date.now() + deadlineMs;
    for (;;) {
        await syncNow('manual').catch(() => {});
        const all = await db.getAll('outbox');
        if (!all.some(isPending) || Date.now() > end) {
            return all.map((e) => ({ id: e.id, kind: e.kind, state: e.state, error: e.error, photos: e.photos }));
        }
        await new Promise((r) => setTimeout(r, 100));
    }
}"""

# A sync run started and not awaited (as the app's triggers do): it may hang on a held request.
NUDGE = "() => { import('./js/fiscal/sync.js').then((m) => m.syncNow('test')).catch(() => {}); }"

NUMBERS_LEFT = """async () => {
    const field = await import('./js/fiscal/field-data.js');
    const left = (await field.numbers()).available.length;
    if (left < 3) await field.download();
    return (await field.numbers()).available.length;
}"""


@pytest.fixture
def server(live_app):
    srv = StoppableServer(live_app).start()
    yield srv
    try:
        srv.stop()
    except Exception:  # already stopped
        pass


class Fault:
    """One fault, armed on the `nth` request matching its URL; every other request passes."""

    def __init__(self, name, nth, rng, server, context):
        self.name, self.nth, self.rng, self.server, self.context = name, nth, rng, server, context
        self.seen = 0
        self.fired = False
        self.pattern = "**/api/v1/sync/push" if "push" in name else "**/api/v1/sync/photos/*"

    def handle(self, route):
        if route.request.method not in ("POST", "PUT") or self.fired:
            return route.continue_()
        self.seen += 1
        if self.seen != self.nth:
            return route.continue_()
        self.fired = True
        after = self.name.endswith("_after") or (self.name.startswith(("page_", "network_")) and self.rng.random() < 0.5)
        if self.name == "server_killed_mid_push":
            route.fetch()  # the server commits the batch …
            self.server.stop()  # … and dies before the phone hears back
            return route.abort("connectionreset")
        if after:
            route.fetch()
        if self.name.startswith("page_killed"):
            route.request.frame.page.close()  # killed with the request in flight
            try:
                route.abort()
            except Exception:  # gone with its page
                pass
            return None
        if self.name == "network_cut_mid_photo":
            self.context.set_offline(True)
            return route.abort("internetdisconnected")
        return route.abort("connectionreset" if after else "connectionrefused")


def _enroll(page, url):
    enroll(page, url, "1357", "Celular das falhas")


def _open(context, url, errors):
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{url}/app/#/fiscal")
    expect(page.locator("#go-scan")).to_be_visible(timeout=15000)
    return page


def _server_view(app, device_id, shas):
    from server.modules.fieldsync.models import EvidencePhoto, FieldRecord, FieldRecordConflict, RecordPhoto

    with app.app_context():
        rows = FieldRecord.query.filter_by(device_id=device_id).all()
        ids = [r.id for r in rows]
        return {
            "records": {r.id: {"kind": r.kind, "flags": r.flags, "seq": r.seq} for r in rows},
            "record_count": len(rows),
            "photos": {rid: sorted(p.sha256 for p in RecordPhoto.query.filter_by(record_id=rid)) for rid in ids},
            # By hash, whoever uploaded it first (another test's phone may have sent the same bytes).
            "evidence": {sha: EvidencePhoto.query.filter_by(sha256=sha).count() for sha in shas
                         if EvidencePhoto.query.filter_by(sha256=sha).count()},
            "conflicts": FieldRecordConflict.query.filter_by(device_id=device_id).count(),
        }


def test_outbox_survives_random_faults(browser, server, live_app):
    seed = int(os.environ.get("MOTOFISCAL_FAULT_SEED", random.SystemRandom().randrange(2**32)))
    print(f"\nfault run: seed {seed}, {RUNS} iterations (MOTOFISCAL_FAULT_SEED={seed} to replay)")
    rng = random.Random(seed)
    context = browser.new_context(viewport=PHONE, locale="pt-BR", timezone_id="America/Cuiaba",
                                  service_workers="allow")
    errors = []
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    _enroll(page, server.url)
    device_id = page.evaluate("async () => (await (await import('./js/fiscal/session.js')).session()).device_id")

    sent, fired, killed_signing, started = [], {}, 0, time.monotonic()
    for iteration in range(RUNS):
        assert page.evaluate(NUMBERS_LEFT) >= 1
        name = rng.choice(FAULTS)
        fault = Fault(name, rng.choice([1, 2]), rng, server, context)
        print(f"  {iteration:3d} {name} #{fault.nth} at {time.monotonic() - started:.1f} s", flush=True)
        context.route(fault.pattern, fault.handle)
        try:
            # Photos unique to this run (seed-derived): a photo already on the server hides nothing.
            sent += page.evaluate(CREATE, {"inspections": rng.choice([1, 1, 2]), "salt": rng.randrange(10**6) * 100 + iteration})
        except Exception:  # killed while signing: what was sealed before is in the outbox
            if not page.is_closed():
                raise
            killed_signing += 1
        for _ in range(100):  # the sync the commits started (or the next one) meets the fault
            if fault.fired or page.is_closed():
                break
            try:
                page.evaluate(NUDGE)
                page.wait_for_timeout(50)
            except Exception:  # the fault killed the page meanwhile
                if not page.is_closed():
                    raise
        fired[name] = fired.get(name, 0) + fault.fired
        context.unroute_all(behavior="wait")  # a handler still running finishes its fault first
        if name == "server_killed_mid_push" and fault.fired:
            time.sleep(rng.uniform(0, 0.4))  # the phone retries into a dead server meanwhile
            server.start()
        if name == "network_cut_mid_photo":
            context.set_offline(False)  # the app's "online" listener resumes the sync
        if page.is_closed():
            page = _open(context, server.url, errors)
        outbox = page.evaluate(SETTLE, 30000)
        stuck = [e for e in outbox if e["state"] != "enviado"]
        assert not stuck, f"iteration {iteration} ({name}, seed {seed}): {stuck}"

    elapsed = time.monotonic() - started
    # The phone's outbox is the truth of what was signed (a page killed while signing may have
    # sealed part of an iteration); every record the page saw committed must be in it.
    phone = {e["id"]: e for e in page.evaluate(SETTLE, 5000)}
    view = _server_view(live_app, device_id, {sha for e in phone.values() for sha in e["photos"]})
    assert {r["id"] for r in sent} <= set(phone), "a committed record vanished from the phone"
    lost = [rid for rid in phone if rid not in view["records"]]
    extra = [rid for rid in view["records"] if rid not in phone]
    duplicated_photos = {sha: n for sha, n in view["evidence"].items() if n != 1}
    photo_mismatch = [rid for rid, e in phone.items() if view["photos"].get(rid) != sorted(set(e["photos"]))]
    flagged = {rid: r["flags"] for rid, r in view["records"].items() if r["flags"]}
    shas = {sha for e in phone.values() for sha in e["photos"]}
    missing_photos = shas - set(view["evidence"])
    print(f"fault run: {len(phone)} records, {len(shas)} photos in {elapsed:.1f} s; faults fired {fired} "
          f"({killed_signing} pages killed while signing); lost {len(lost)}, duplicated records "
          f"{view['record_count'] - len(set(view['records']))}, records the phone does not know {len(extra)}, "
          f"duplicated photos {len(duplicated_photos)}, missing photos {len(missing_photos)}, "
          f"photo lists differing {len(photo_mismatch)}, conflicts {view['conflicts']}, flagged {len(flagged)}")
    assert sum(fired.values()) >= RUNS * 0.9, f"faults did not fire: {fired}"
    assert not lost and not extra, (lost, extra)
    assert view["record_count"] == len(phone)
    assert not duplicated_photos and not missing_photos and not photo_mismatch
    assert view["conflicts"] == 0
    # Chained in order, signed by the device key, numbered from its block: nothing flagged.
    assert not flagged, flagged
    assert sorted(r["seq"] for r in view["records"].values()) == list(range(1, len(phone) + 1))
    assert not errors, errors
    context.close()
