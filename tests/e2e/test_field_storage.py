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


def test_the_whole_extract_reads_back_page_by_page_complete_and_in_order(page, live_server):
    # readField asks 1,000 rows at a time (a tap can run between pages): 2,500 permits come back
    # all, once each, in key order, with the meta they were stored with.
    page.goto(f"{live_server}/app/")
    expect(page.locator("#go-operator")).to_be_visible()
    page.evaluate(STORE_REGISTRY)
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
    page.goto(f"{live_server}/app/")
    expect(page.locator("#go-operator")).to_be_visible()
    page.evaluate(STORE_REGISTRY)
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


def test_the_head_answers_before_the_rows_are_read_and_is_the_read_copy_after(page, live_server):
    # loadFieldHead (the home, the verdict) does not wait for the rows: its look-up reads the one
    # permit; once loadField has read the rows, it is that same copy (no second read).
    page.goto(f"{live_server}/app/")
    expect(page.locator("#go-operator")).to_be_visible()
    page.evaluate(STORE_REGISTRY)
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
    page.goto(f"{live_server}/app/")
    expect(page.locator("#go-operator")).to_be_visible()
    page.evaluate(STORE_REGISTRY)
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
    page.goto(f"{live_server}/app/")
    expect(page.locator("#go-operator")).to_be_visible()
    page.evaluate(STORE_REGISTRY)
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
