"""The field app's IndexedDB schema in a real browser: stores, keys, and data surviving reopen."""
from playwright.sync_api import expect

from .helpers import wait_for_service_worker


def test_schema_has_the_stores_later_screens_rely_on(page, live_server):
    page.goto(f"{live_server}/app/")
    expect(page.locator("#go-operator")).to_be_visible()
    result = page.evaluate("""async () => {
        const db = await import('./js/data/db.js');
        const handle = await db.openDb();
        const stores = {};
        const tx = handle.transaction(Array.from(handle.objectStoreNames));
        for (const name of handle.objectStoreNames) stores[name] = tx.objectStore(name).keyPath;
        return { version: handle.version, declared: db.DB_VERSION, stores };
    }""")
    assert result["version"] == result["declared"] == 5
    assert result["stores"] == {"meta": None, "credential": None, "reference": None,
                                "drafts": "id", "outbox": "id", "photos": "sha256", "field_chunks": None,
                                "operator_outbox": "id", "operator_files": "sha256"}


def test_outbox_record_survives_a_reload_offline(page, context, live_server):
    page.goto(f"{live_server}/app/")
    wait_for_service_worker(page)
    page.evaluate("""async () => {
        const db = await import('./js/data/db.js');
        await db.put('outbox', { id: '7d1f0c1e-0000-4000-8000-000000000001', kind: 'test' });
    }""")
    context.set_offline(True)
    page.reload()
    expect(page.locator("#go-operator")).to_be_visible()
    record = page.evaluate("""async () => {
        const db = await import('./js/data/db.js');
        return db.get('outbox', '7d1f0c1e-0000-4000-8000-000000000001');
    }""")
    assert record == {"id": "7d1f0c1e-0000-4000-8000-000000000001", "kind": "test"}


# 2,500 permits with their rows, stored by the app's own storeAnswer (a snapshot answer in rows).
STORE_REGISTRY = """async () => {
    const { storeAnswer } = await import('./js/fiscal/field-store.js');
    const n = 2500;
    const ids = Array.from({ length: n }, (_, i) => i + 1);
    await storeAnswer({
        cursor: 40, snapshot: true, generated_at: '2026-12-01T12:00:00Z',
        permits: ids.map((id) => ({ id, number: `SAP-${id}`, status: id % 7 ? 'ativo' : 'suspenso', holder_operator_id: 10000 + id, vehicle_id: 20000 + id, ponto_id: 1 + (id % 3) })),
        operators: ids.map((id) => ({ id: 10000 + id, name: `Operador ${id}` })),
        vehicles: ids.map((id) => ({ id: 20000 + id, plate: `QQA${String(id).padStart(4, '0')}` })),
        pontos: [1, 2, 3].map((id) => ({ id, name: `Ponto ${id}` })),
        penalties: [],
    }, { etag: 'e40', fetchedAt: '2026-12-01T12:00:05Z' });
}"""


def _open_with_registry(page, live_server):
    """The app's start page, then STORE_REGISTRY written through it."""
    page.goto(f"{live_server}/app/")
    expect(page.locator("#go-operator")).to_be_visible()
    page.evaluate(STORE_REGISTRY)

def test_the_whole_extract_reads_back_page_by_page_complete_and_in_order(page, live_server):
    # readField asks 1,000 rows at a time (a tap can run between pages): 2,500 permits come back
    # all, once each, in key order, with the meta they were stored with.
    _open_with_registry(page, live_server)
    read = page.evaluate("""async () => {
        const { readField } = await import('./js/fiscal/field-store.js');
        const r = await readField();
        return { etag: r.etag, cursor: r.data.cursor, ids: r.data.permits.map((p) => p.id),
                 operators: r.data.operators.length, vehicles: r.data.vehicles.length, pontos: r.data.pontos.length };
    }""")
    assert read["ids"] == list(range(1, 2501))
    assert (read["operators"], read["vehicles"], read["pontos"]) == (2500, 2500, 3)
    assert (read["etag"], read["cursor"]) == ("e40", 40)


def test_one_permit_read_through_the_indexes_is_the_view_the_whole_index_gives(page, live_server):
    # The verdict asked before the rows are in memory reads one permit through the `number`
    # index (readPermitView): the same view as the in-memory index, null for a permit not held.
    _open_with_registry(page, live_server)
    result = page.evaluate("""async () => {
        const { readField, readPermitView } = await import('./js/fiscal/field-store.js');
        const { indexField } = await import('./js/fiscal/field-merge.js');
        const index = indexField((await readField()).data);
        const numbers = ['SAP-1', 'SAP-1234', 'SAP-2499', 'SAP-700', ' sap-42 '];
        const views = await Promise.all(numbers.map((n) => readPermitView(n)));
        return { same: numbers.map((n, i) => JSON.stringify(views[i]) === JSON.stringify(index.byNumber(n))),
                 sample: views[1], missing: await readPermitView('SAP-9999') };
    }""")
    assert result["same"] == [True] * 5
    assert result["sample"] == {"permit": {"id": 1234, "number": "SAP-1234", "status": "ativo", "holder_operator_id": 11234, "vehicle_id": 21234, "ponto_id": 2},
                                "operator": {"id": 11234, "name": "Operador 1234"},
                                "vehicle": {"id": 21234, "plate": "QQA1234"},
                                "ponto": {"id": 2, "name": "Ponto 2"}, "plate": "QQA1234"}
    assert result["missing"] is None


def test_a_permit_read_in_one_round_trip_through_the_kept_look_up_stays_true_after_deltas(page, live_server):
    # A tab keeps the number look-up in memory (readNumberLookup): each entry names the permit's
    # rows, so a verdict reads them in one round trip. A delta moves numbers and refs; a look-up
    # read before it must still give the stored truth (the rows read decide), and one read after
    # it names the new rows. A bucket written before the refs (bare ids) still answers.
    _open_with_registry(page, live_server)
    result = page.evaluate("""async () => {
        const db = await import('./js/data/db.js');
        const { readField, readNumberLookup, readPermitView, storeAnswer } = await import('./js/fiscal/field-store.js');
        const { indexField } = await import('./js/fiscal/field-merge.js');
        const look = (lookup, n) => readPermitView(n, lookup).then((v) => v && { id: v.permit.id, vehicle: v.vehicle?.id ?? null, operator: v.operator?.id ?? null });
        const numbers = ['SAP-1', 'SAP-1234', 'SAP-2499', 'SAP-700', ' sap-42 ', 'SAP-9999'];
        const before = await readNumberLookup();
        let index = indexField((await readField()).data);
        const same = await Promise.all(numbers.map(async (n) => JSON.stringify(await readPermitView(n, before)) === JSON.stringify(index.byNumber(n))));
        // The delta: 1234 changes vehicle, 700 its number, 5 leaves, 3000 arrives, 42 changes holder.
        await storeAnswer({ cursor: 41, snapshot: false, permits: [
            { id: 1234, number: 'SAP-1234', status: 'ativo', holder_operator_id: 11234, vehicle_id: 21235, ponto_id: 2 },
            { id: 700, number: 'SAP-70000', status: 'ativo', holder_operator_id: 10700, vehicle_id: 20700, ponto_id: 1 },
            { id: 3000, number: 'SAP-3000', status: 'ativo', holder_operator_id: 10001, vehicle_id: 20001, ponto_id: 3 },
            { id: 42, number: 'SAP-42', status: 'ativo', holder_operator_id: 10043, vehicle_id: 20042, ponto_id: 1 },
        ], removed: { permits: [5] } }, { etag: 'e41', fetchedAt: '2026-12-01T13:00:00Z' });
        const after = ['SAP-1234', 'SAP-700', 'SAP-70000', 'SAP-5', 'SAP-3000', 'SAP-42'];
        const stale = {};
        for (const n of after) stale[n] = await look(before, n);
        const fresh = await readNumberLookup();
        const entries = Object.fromEntries(after.map((n) => [n, fresh[db.numberBucket(n)][db.numberKey(n)] ?? null]));
        index = indexField((await readField()).data);
        const freshSame = await Promise.all(after.map(async (n) => JSON.stringify(await readPermitView(n, fresh)) === JSON.stringify(index.byNumber(n))));
        // The kept entry alone finds the rows: with SAP-2499's stored bucket emptied, only the one
        // round-trip read can still answer (the stored look-up has no SAP-2499 any more).
        const bucket = db.numberBucket('SAP-2499');
        const stored = await db.get('field_chunks', ['number', bucket]);
        await db.put('field_chunks', {}, ['number', bucket]);
        const keptOnly = { withKept: await look(fresh, 'SAP-2499'), withoutKept: await look(null, 'SAP-2499') };
        // A bucket as an earlier version wrote it: bare permit ids.
        await db.put('field_chunks', Object.fromEntries(Object.entries(stored).map(([k, v]) => [k, v[0]])), ['number', bucket]);
        const bare = { stored: await look(null, 'SAP-2499'), lookup: await look(await readNumberLookup(), 'SAP-2499') };
        return { same, stale, entries, freshSame, keptOnly, bare };
    }""")
    assert result["same"] == [True] * 6
    truth = {"SAP-1234": {"id": 1234, "vehicle": 21235, "operator": 11234}, "SAP-700": None,
             "SAP-70000": {"id": 700, "vehicle": 20700, "operator": 10700}, "SAP-5": None,
             "SAP-3000": {"id": 3000, "vehicle": 20001, "operator": 10001},
             "SAP-42": {"id": 42, "vehicle": 20042, "operator": 10043}}
    assert result["stale"] == truth
    assert result["entries"] == {"SAP-1234": [1234, 11234, 21235, 2], "SAP-700": None, "SAP-70000": [700, 10700, 20700, 1],
                                 "SAP-5": None, "SAP-3000": [3000, 10001, 20001, 3], "SAP-42": [42, 10043, 20042, 1]}
    assert result["freshSame"] == [True] * 6
    assert result["keptOnly"] == {"withKept": {"id": 2499, "vehicle": 22499, "operator": 12499}, "withoutKept": None}
    assert result["bare"] == {"stored": {"id": 2499, "vehicle": 22499, "operator": 12499},
                              "lookup": {"id": 2499, "vehicle": 22499, "operator": 12499}}


def test_the_head_answers_before_the_rows_are_read_and_is_the_read_copy_after(page, live_server):
    # loadFieldHead (the home, the verdict) does not wait for the rows: its look-up reads the one
    # permit; once loadField has read the rows, it is that same copy (no second read).
    _open_with_registry(page, live_server)
    result = page.evaluate("""async () => {
        const f = await import('./js/fiscal/field-data.js');
        const head = await f.loadFieldHead();
        const lookUp = head.index.byNumber('SAP-5');
        const full = await f.loadField();
        return { lazy: lookUp instanceof Promise, number: (await lookUp).permit.number,
                 checkedAt: head.fieldCheckedAt, same: (await f.loadFieldHead()) === full,
                 inMemory: full.index.byNumber('SAP-5').permit.number };
    }""")
    assert result == {"lazy": True, "number": "SAP-5", "checkedAt": "2026-12-01T12:00:05Z",
                      "same": True, "inMemory": "SAP-5"}


def test_the_rows_read_waits_while_a_verdict_holds_it(page, live_server):
    # The scanner holds the home's read of the rows from the tap to the verdict's first frame
    # (holdRows, issue 40): the read stops between two of its short tasks, the verdict's own
    # look-up (through the number look-up) answers meanwhile, and the read completes once released.
    _open_with_registry(page, live_server)
    result = page.evaluate("""async () => {
        const f = await import('./js/fiscal/field-data.js');
        const release = f.holdRows();
        let done = false;
        const reading = f.loadField().then((data) => { done = true; return data; });
        const view = await (await f.loadFieldHead()).index.byNumber('SAP-7');
        await new Promise((ok) => setTimeout(ok, 500));
        const whileHeld = done;
        release();
        const data = await reading;
        return { whileHeld, done, verdictLookUp: view.permit.number, held: data.index.size };
    }""")
    assert result == {"whileHeld": False, "done": True, "verdictLookUp": "SAP-7", "held": 2500}


def test_a_read_overtaken_by_a_write_in_this_tab_starts_again(page, live_server):
    # A write in this tab while the idle read is under way (forgetField: the read is cancelled
    # and starts again; a download from another tab: the read sees another cursor and restarts):
    # whoever awaited the read gets the rows just written, not the ones it began with.
    _open_with_registry(page, live_server)
    result = page.evaluate("""async () => {
        const f = await import('./js/fiscal/field-data.js');
        const { storeAnswer } = await import('./js/fiscal/field-store.js');
        const release = f.holdRows();
        const reading = f.loadField();
        await new Promise((ok) => setTimeout(ok, 100));
        await storeAnswer({ cursor: 41, snapshot: true, permits: [{ id: 7, number: 'NOVO-7', status: 'ativo' }], removed: {} },
                          { etag: 'e41', fetchedAt: '2026-12-01T13:00:00Z' });
        f.forgetField();
        release();
        const data = await reading;
        return { held: data.index.size, found: data.index.byNumber('NOVO-7')?.permit.id ?? null };
    }""")
    assert result == {"held": 1, "found": 7}
