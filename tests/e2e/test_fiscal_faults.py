"""Randomized fault run of the fiscal's outbox in a real browser: every iteration signs a few
records (inspections and an auto, with photos) through the app's own modules (records.js,
IndexedDB, the outbox replay of sync.js), injects one fault picked by a seeded RNG, lets the sync
finish and checks that the server holds every record and every photo exactly once.

Faults: the push or a photo upload aborted before it reaches the server, or after the server
answered (so the server committed and the phone never heard); the in-process server killed
mid-push; the network cut mid-photo upload; the page killed (closed, reopened) while a request
is in flight. One browser, one server, one enrolled phone for the whole run.

Poison records (issue 20) are signed among them, in a seeded order: an inspection whose device
clock says year 0001 with an offset (the server's UTC arithmetic overflowed on it), an auto whose
number is longer than its column, and an inspection the phone signs under a record id already
held by another phone — of another municipality or another of Sapezal, picked by the seed; that
phone pushes its own record under the id first. The server answers the first two `rejected` and
the third `foreign`; the phone must set each aside with the reason (recusado) while every other
record still arrives, the back office of the phone's municipality must list them (the foreign one
without a word of the holder's record), and the holder's record stays as it was.

The seed is fixed (DEFAULT_SEED, printed on every run) so a failure replays as it was;
MOTOFISCAL_FAULT_SEED=<n> runs another one, MOTOFISCAL_FAULT_SEED=random rolls a new one (printed).
MOTOFISCAL_FAULT_RUNS is the number of iterations (default 50)."""
import os
import random
import time
import uuid

import pytest
from playwright.sync_api import expect

from fieldsync_device import FakeDevice

from .conftest import PHONE
from .fiscal_helpers import StoppableServer, enroll
from .helpers import backoffice_login, check_backoffice_screen

RUNS = int(os.environ.get("MOTOFISCAL_FAULT_RUNS", "50"))
DEFAULT_SEED = 20_2026
POISON_EVERY = 5  # one iteration in five also signs a poison record
POISON_KINDS = ("bad_clock", "oversized_number", "foreign_id")
# What the phone shows for each (the server's field name and reason, as the outbox words it).
POISON_REASONS = {"bad_clock": "body.clock.device_at", "oversized_number": "body.number",
                  "foreign_id": "id: Este identificador não pertence a este aparelho"}
HOLDER_PLATE = "QQH0L99"  # on the holders' records only: never shown to the phone's municipality
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

# Runs in the page: one record the server must refuse, sealed and queued like any other (bad clock:
# year 0001 with +05:00; oversized: an auto number longer than its column; foreign id: a sound
# inspection of this phone under `heldId`, an id another phone already stored).
POISON = """async ({ which, heldId }) => {
    const records = await import('./js/fiscal/records.js');
    const { uuid, randomToken } = await import('./js/fiscal/bytes.js');
    const id = heldId || uuid();
    if (which === 'foreign_id') {
        await records.commitRecord({
            id, kind: 'inspection', photos: [], summary: { name: null, plate: 'QQP0I50', permit_number: null },
            fields: {
                clock: records.deviceClock(null), gps: null, no_gps_reason: 'Teste de falhas', data_age_s: 0,
                photos: [], permit_number: null, plate: 'QQP0I50', operator_id: null, credential: null,
                answers: {}, answer_sources: {}, item_photos: {}, evaluation: null, decisions: {}, pack_versions: {},
            },
        });
    } else if (which === 'bad_clock') {
        await records.commitRecord({
            id, kind: 'inspection', photos: [], summary: { name: null, plate: 'QQP0I50', permit_number: null },
            fields: {
                clock: { device_at: '0001-01-01T00:00:00+05:00', gps_at: null }, gps: null,
                no_gps_reason: 'Teste de falhas', data_age_s: 0, photos: [], permit_number: null, plate: 'QQP0I50',
                operator_id: null, credential: null, answers: {}, answer_sources: {}, item_photos: {},
                evaluation: null, decisions: {}, pack_versions: {},
            },
        });
    } else {
        const number = 'X'.repeat(41);
        await records.commitRecord({
            id, kind: 'auto', photos: [],
            summary: { number, name: null, plate: 'QQP0I50', public_token: null, infractions: [], inspection_id: null },
            fields: {
                inspection_id: null, number, place: 'Rua do Teste, 1', clock: records.deviceClock(null),
                gps: null, no_gps_reason: 'Teste de falhas', data_age_s: 0, photos: [], permit_number: null,
                plate: 'QQP0I50', operator_id: null, infractions: [], auto_fields: {},
                signatures: { fiscal: 'a'.repeat(64), operator: null, operator_refused: true },
                defence: { deadline_days: null, instance: null, due: null }, public_token: randomToken(32),
            },
        });
    }
    return { id, kind: which };
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


class Holders:
    """The other phones whose records hold the ids of the foreign poison: one of Paranatinga and
    another of Sapezal (enrolled through the real API, pushing signed records of their own)."""

    def __init__(self, app):
        self.app = app
        self.phones = {"outro_municipio": FakeDevice(app.test_client(), "fiscal.paranatinga", name="Celular vizinho"),
                       "outro_celular": FakeDevice(app.test_client(), "fiscal.sapezal", name="Outro celular")}
        self.held = {}  # record id → (which phone, the body it stored)

    def hold(self, rng):
        """A seeded new id, stored first by a seeded one of the phones → the id."""
        rid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        which = rng.choice(sorted(self.phones))
        phone = self.phones[which]
        body = phone.body("inspection", plate=HOLDER_PLATE)
        body["id"] = rid
        item = phone.record(body)
        response = phone.push([item])
        assert response.status_code == 200, (response.status_code, response.get_data(as_text=True))
        result = response.json["results"][0]
        assert result["status"] == "accepted", result
        self.held[rid] = (which, item["body"])
        return rid

    def check_untouched(self):
        """Each holder's record is still its own, as it sent it, and nobody filed a conflict on it."""
        from server.extensions import db
        from server.modules.fieldsync.models import FieldRecord, FieldRecordConflict

        with self.app.app_context():
            for rid, (which, body) in self.held.items():
                stored = db.session.get(FieldRecord, rid)
                assert (stored.device_id, stored.body) == (self.phones[which].device_id, body), rid
            assert not FieldRecordConflict.query.filter(FieldRecordConflict.record_id.in_(list(self.held))).count()


def _seqs(page):
    return page.evaluate("async () => Object.fromEntries((await (await import('./js/data/db.js')).getAll('outbox'))"
                         ".map((e) => [e.id, e.seq]))")


def _check_phone_shows(page, url, poison):
    """The fiscal's "Hoje" lists each poison record set aside, with the server's reason."""
    page.goto(f"{url}/app/#/fiscal/hoje")
    for rid, which in poison.items():
        row = page.locator(f"li[data-id='{rid}']")
        expect(row.locator(".state")).to_have_text("Recusado pelo servidor")
        expect(row).to_contain_text(POISON_REASONS[which])


def _check_quarantine(app, browser, url, device_id, poison):
    """Every poison record the phone sealed is in the server's quarantine once, with the reason it
    was answered (a foreign one: the id), and the back office of its municipality lists it —
    the foreign one without a word of the record holding its id (screenshot and axe-core at
    390 px)."""
    from server.modules.fieldsync.models import RejectedRecord
    from server.modules.fieldsync.ownership import FOREIGN_MESSAGE

    poison_ids = set(poison)

    with app.app_context():
        kept = RejectedRecord.query.filter_by(device_id=device_id).all()
        by_id = {}
        for row in kept:
            by_id.setdefault(row.record_id, []).append(row)
    assert set(by_id) == poison_ids, (set(by_id), poison_ids)
    assert all(len(rows) == 1 for rows in by_id.values()), "a poison record kept twice"
    for rid, rows in by_id.items():
        assert (rows[0].errors == {"id": [FOREIGN_MESSAGE]}) == (poison[rid] == "foreign_id"), rows[0].errors
    context = browser.new_context(viewport=PHONE, locale="pt-BR")
    page = context.new_page()
    backoffice_login(page, url, "backoffice.sapezal")
    page.goto(f"{url}/bo/revisao/recusados")
    problems = {}
    check_backoffice_screen("poison", page, "recusados", "390", problems)
    for rows in by_id.values():
        link = page.locator(f"a[href='/bo/revisao/recusados/{rows[0].id}']")
        expect(link).to_have_count(1)
    assert HOLDER_PLATE not in page.content()
    foreign = [rows[0].id for rid, rows in by_id.items() if poison[rid] == "foreign_id"]
    page.locator(f"a[href='/bo/revisao/recusados/{foreign[0]}']" if foreign else "table.list a").first.click()
    expect(page.locator("h1")).to_contain_text("recusado")
    if foreign:
        expect(page.locator("#h-why + p")).to_contain_text(f"Identificador (id): {FOREIGN_MESSAGE}")
        assert HOLDER_PLATE not in page.content()
    check_backoffice_screen("poison", page, "recusado", "390", problems)
    assert not problems, problems
    context.close()


def test_outbox_survives_random_faults(browser, server, live_app):
    chosen = os.environ.get("MOTOFISCAL_FAULT_SEED", str(DEFAULT_SEED))
    seed = random.SystemRandom().randrange(2**32) if chosen == "random" else int(chosen)
    print(f"\nfault run: seed {seed}, {RUNS} iterations (MOTOFISCAL_FAULT_SEED={seed} to replay)")
    rng = random.Random(seed)
    context = browser.new_context(viewport=PHONE, locale="pt-BR", timezone_id="America/Cuiaba",
                                  service_workers="allow")
    errors = []
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    _enroll(page, server.url)
    device_id = page.evaluate("async () => (await (await import('./js/fiscal/session.js')).session()).device_id")
    holders = Holders(live_app)
    poison_order = rng.sample(POISON_KINDS, len(POISON_KINDS))  # signed in turn, from a seeded start

    sent, fired, killed_signing, started = [], {}, 0, time.monotonic()
    poison = {}  # record id → which poison
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
        if iteration % POISON_EVERY == POISON_EVERY - 1 and not page.is_closed():
            which = poison_order[iteration // POISON_EVERY % len(poison_order)]
            held_id = holders.hold(rng) if which == "foreign_id" else None
            try:
                made = page.evaluate(POISON, {"which": which, "heldId": held_id})
                poison[made["id"]] = made["kind"]
            except Exception:  # killed while signing
                if not page.is_closed():
                    raise
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
        stuck = [e for e in outbox if e["state"] != ("recusado" if e["id"] in poison else "enviado")]
        assert not stuck, f"iteration {iteration} ({name}, seed {seed}): {stuck}"

    elapsed = time.monotonic() - started
    # The phone's outbox is the truth of what was signed (a page killed while signing may have
    # sealed part of an iteration); every record the page saw committed must be in it.
    everything = {e["id"]: e for e in page.evaluate(SETTLE, 5000)}
    # The poison records: set aside on the phone with the field named, kept by the server, listed
    # for the back office, never stored as records.
    assert poison, "no poison record was signed"
    for rid, which in poison.items():
        entry = everything.get(rid)
        if entry is None:
            continue  # the page was killed before it sealed it
        assert entry["state"] == "recusado", entry
        assert POISON_REASONS[which] in entry["error"], entry
    sealed = {rid: which for rid, which in poison.items() if rid in everything}
    if RUNS >= POISON_EVERY * len(POISON_KINDS):
        assert set(sealed.values()) == set(POISON_KINDS), f"a kind of poison was never sealed: {sealed}"
    sealed_poison = set(sealed)
    _check_phone_shows(page, server.url, sealed)
    _check_quarantine(live_app, browser, server.url, device_id, sealed)
    holders.check_untouched()
    phone = {rid: e for rid, e in everything.items() if rid not in poison}
    seqs = _seqs(page)
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
    print(f"fault run: {len(sealed_poison)} poison records ({', '.join(sorted(sealed.values()))}) set aside "
          f"on the phone and kept by the server")
    assert sum(fired.values()) >= RUNS * 0.9, f"faults did not fire: {fired}"
    assert not lost and not extra, (lost, extra)
    assert view["record_count"] == len(phone)
    assert not duplicated_photos and not missing_photos and not photo_mismatch
    assert view["conflicts"] == 0
    # Chained in order, signed by the device key, numbered from its block: nothing flagged but the
    # record right after a poison one, whose predecessor the server refused (chain_gap).
    after_poison = {seqs[rid] + 1 for rid in sealed_poison}
    wrongly = {rid: f for rid, f in flagged.items()
               if not (f == ["chain_gap"] and view["records"][rid]["seq"] in after_poison)}
    assert not wrongly, wrongly
    poison_seqs = {seqs[rid] for rid in sealed_poison}
    assert sorted(r["seq"] for r in view["records"].values()) == [
        s for s in range(1, len(everything) + 1) if s not in poison_seqs]
    assert not errors, errors
    context.close()
