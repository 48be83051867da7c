"""A phone that kept its field data the old way (IndexedDB v2: the whole registry extract in one
`reference/field` record) takes the update: the upgrade to v3 moves the rows into their stores
and v5 (issue 40) moves them on into chunks, in the same upgrade, keeping the cursor, and the
phone still finds a permit and gives its verdict offline (issue 24)."""
from playwright.sync_api import expect

from .fiscal_helpers import check_screen, enroll
from .helpers import wait_for_service_worker

# Every store of the phone as [key, value] pairs (out-of-line keys) or values (in-line keys), then
# the database rebuilt at v2 — the stores of the two first steps of db.js — with the registry
# rows folded back into reference "field", as the previous app version stored them.
REBUILD_AS_V2 = """async () => {
    const db = await import('./js/data/db.js');
    const handle = await db.openDb();
    const dump = {};
    for (const name of handle.objectStoreNames) {
        const tx = handle.transaction(name);
        const store = tx.objectStore(name);
        const [keys, values] = await Promise.all([store.getAllKeys(), store.getAll()].map((r) => new Promise((ok) => { r.onsuccess = () => ok(r.result); })));
        dump[name] = keys.map((key, i) => [key, values[i]]);
    }
    const { readField } = await import('./js/fiscal/field-store.js');
    const kinds = db.FIELD_KINDS;
    const field = dump.reference.find(([key]) => key === 'field')[1];
    const rows = (await readField()).data;
    for (const kind of kinds) field.data[kind] = rows[kind];
    handle.close();
    await new Promise((ok, fail) => { const r = indexedDB.deleteDatabase('motofiscal'); r.onsuccess = ok; r.onerror = fail; });
    const old = await new Promise((ok, fail) => {
        const r = indexedDB.open('motofiscal', 2);
        r.onupgradeneeded = () => {
            const d = r.result;
            for (const name of ['meta', 'credential', 'reference']) d.createObjectStore(name);
            d.createObjectStore('drafts', { keyPath: 'id' });
            d.createObjectStore('outbox', { keyPath: 'id' });
            d.createObjectStore('photos', { keyPath: 'sha256' });
        };
        r.onsuccess = () => ok(r.result);
        r.onerror = fail;
    });
    const names = ['meta', 'credential', 'reference', 'drafts', 'outbox', 'photos'];
    const tx = old.transaction(names, 'readwrite');
    for (const name of names) {
        for (const [key, value] of dump[name]) {
            if (tx.objectStore(name).keyPath) tx.objectStore(name).put(value); else tx.objectStore(name).put(value, key);
        }
    }
    await new Promise((ok) => { tx.oncomplete = ok; });
    old.close();
    const permit = field.data.permits.find((p) => p.status === 'ativo' && p.holder_operator_id);
    return { cursor: field.data.cursor, permits: field.data.permits.length, permit,
             name: field.data.operators.find((o) => o.id === permit.holder_operator_id).name };
}"""

AFTER_UPGRADE = """async () => {
    const db = await import('./js/data/db.js');
    const { readField, readPermitView } = await import('./js/fiscal/field-store.js');
    const handle = await db.openDb();
    const field = await db.get('reference', 'field');
    const rows = (await readField()).data;
    return { version: handle.version, latest: db.DB_VERSION, cursor: field.data.cursor, leftInRecord: 'permits' in field.data,
             permits: rows.permits.length, operators: rows.operators.length,
             stores: Array.from(handle.objectStoreNames).filter((n) => db.FIELD_KINDS.includes(n) || n === 'field_chunks'),
             found: (await readPermitView(rows.permits[0].number))?.permit.id === rows.permits[0].id };
}"""


def test_old_single_record_data_is_moved_into_rows_and_verdicts_work_offline(page, context, live_server):
    enroll(page, live_server, "2468", "Celular de antes da atualização")
    wait_for_service_worker(page)
    old = page.evaluate(REBUILD_AS_V2)
    assert old["permits"] > 0 and old["permit"]

    context.set_offline(True)
    page.reload()  # the app opens IndexedDB at its latest version: the v3 step (and later) run here, offline
    expect(page.locator("#go-scan")).to_be_visible()
    after = page.evaluate(AFTER_UPGRADE)
    assert after["latest"] >= 5  # v3 moved the single record into rows, v5 the rows into chunks
    assert after == {"version": after["latest"], "latest": after["latest"], "cursor": old["cursor"], "leftInRecord": False, "permits": old["permits"],
                     "operators": after["operators"], "stores": ["field_chunks"], "found": True}
    assert after["operators"] > 0

    # Offline, the search finds the permit by its number and opens its verdict.
    page.goto(f"{live_server}/app/#/fiscal/buscar")
    page.fill("#search-text", old["permit"]["number"])
    page.get_by_role("button", name="Buscar").click()
    expect(page.locator("#verdict-word")).to_have_text("VÁLIDO")
    expect(page.locator("#verdict-permit")).to_have_text(old["permit"]["number"])
    # Name and face identify the driver; no CPF or CNH number travels to the phone any more.
    expect(page.locator("#verdict-name")).to_have_text(old["name"])
    expect(page.locator("main")).not_to_contain_text("CPF")
    expect(page.locator("main")).not_to_contain_text("CNH")
    check_screen(page, "verdict-after-upgrade")
    context.set_offline(False)


def _on_the_field_store(page, live_server, body):
    """Evaluate `body` (statements ending in a return) on the app's shell with `db` (data/db.js),
    the field store's functions and `at` (a download's ETag and time) in scope; the registry it
    stored is removed afterwards."""
    page.goto(f"{live_server}/app/")
    expect(page.locator("#go-operator")).to_be_visible()
    return page.evaluate("""async () => {
        const db = await import('./js/data/db.js');
        const { readField, readKind, readPermitView, readRow, storeAnswer } = await import('./js/fiscal/field-store.js');
        const at = { etag: 'e', fetchedAt: '2026-12-01T10:00:00Z' };
        try {""" + body + """} finally {
            await db.clear('field_chunks');
            await db.del('reference', 'field');
        }
    }""")


def test_a_delta_lands_whole_or_not_at_all(page, live_server):
    """The cursor moves only with its rows: a delta that cannot be stored leaves rows and cursor as
    they were; a good one writes its rows and removals and the new cursor together."""
    result = _on_the_field_store(page, live_server, """
        await storeAnswer({ cursor: 5, snapshot: true, permits: [{ id: 1, number: '1', status: 'ativo' }, { id: 2, number: '2', status: 'ativo' }],
                            operators: [{ id: 9, name: 'Ana' }], removed: {} }, at);
        let refused = null;
        try {  // the second row has no id: the store refuses it, the whole transaction aborts
            await storeAnswer({ cursor: 6, snapshot: false, permits: [{ id: 1, number: '1', status: 'suspenso' }, { number: 'x' }], removed: { operators: [9] } }, at);
        } catch (error) { refused = error.name; }
        const afterBad = { cursor: (await db.get('reference', 'field')).data.cursor, permit: (await readRow('permits', 1)).status, operators: (await readKind('operators')).length };
        await storeAnswer({ cursor: 7, snapshot: false, permits: [{ id: 1, number: '1', status: 'suspenso' }], removed: { permits: [2] } }, at);
        const afterGood = { cursor: (await db.get('reference', 'field')).data.cursor, permit: (await readRow('permits', 1)).status, permits: (await readKind('permits')).length,
                            byNumber: (await readPermitView('1')).permit.id, removed: await readPermitView('2') };
        return { refused, afterBad, afterGood };
    """)
    assert result == {"refused": "DataError", "afterBad": {"cursor": 5, "permit": "ativo", "operators": 1},
                      "afterGood": {"cursor": 7, "permit": "suspenso", "permits": 1, "byNumber": 1, "removed": None}}


def test_chunks_an_earlier_version_wrote_as_row_objects_still_read_and_a_delta_packs_what_it_touches(page, live_server):
    """A phone updated from the version before packed chunks holds chunks that are arrays of row
    objects: verdict, whole read and single rows read them as they are, and a delta writes the
    chunks it touches packed (data/db.js packRows) without losing their other rows."""
    result = _on_the_field_store(page, live_server, """
        await storeAnswer({ cursor: 5, snapshot: true, removed: {},
                            permits: [{ id: 1, number: 'A-1', status: 'ativo', holder_operator_id: 9 }, { id: 2, number: 'A-2', status: 'ativo', holder_operator_id: 10 }],
                            operators: [{ id: 9, name: 'Ana' }, { id: 10, name: 'Bruno', photo: 1 }] }, at);
        const packed = Array.isArray(await db.get('field_chunks', ['permits', 0]));
        for (const key of [['permits', 0], ['operators', 0]]) await db.put('field_chunks', db.chunkRows(await db.get('field_chunks', key)), key);
        const old = { permits: Array.isArray(await db.get('field_chunks', ['permits', 0])), operators: Array.isArray(await db.get('field_chunks', ['operators', 0])) };
        const view = await readPermitView('A-1');
        const whole = await readField();
        const before = { holder: view.operator.name, permits: whole.data.permits.map((p) => p.id), operators: whole.data.operators.map((o) => o.name), row: (await readRow('operators', 10)).photo };
        await storeAnswer({ cursor: 6, snapshot: false, permits: [{ id: 2, number: 'A-2', status: 'suspenso', holder_operator_id: 10 }], removed: {} }, at);
        const after = { permitsChunkArray: Array.isArray(await db.get('field_chunks', ['permits', 0])), operatorsChunkArray: Array.isArray(await db.get('field_chunks', ['operators', 0])),
                        one: (await readRow('permits', 1)).status, two: (await readRow('permits', 2)).status, holder: (await readPermitView('A-2')).operator.name };
        return { packed, old, before, after };
    """)
    assert result == {"packed": False, "old": {"permits": True, "operators": True},
                      "before": {"holder": "Ana", "permits": [1, 2], "operators": ["Ana", "Bruno"], "row": 1},
                      "after": {"permitsChunkArray": False, "operatorsChunkArray": True, "one": "ativo", "two": "suspenso", "holder": "Bruno"}}


def test_a_download_in_this_tab_updates_what_the_screens_read(page, live_app, live_server):
    """After a delta the screens see the changed row at once, from the rows this tab kept and
    patched (no re-read of the stores), and the stores hold the same row."""
    from server.extensions import db
    from server.modules.registry.models import Municipality, Permit, Ponto

    enroll(page, live_server, "2468", "Celular de Nortelândia", username="fiscal.nortelandia")
    with live_app.app_context():
        muni = Municipality.query.filter_by(slug="nortelandia").one()
        permit = Permit.query.filter(Permit.municipality_id == muni.id, Permit.ponto_id.isnot(None)).order_by(Permit.id).first()
        ponto = db.session.get(Ponto, permit.ponto_id)
        number, ponto_id, name = permit.number, ponto.id, ponto.name
        ponto.name = f"{name} (renomeado)"
        db.session.commit()
    try:
        seen = page.evaluate("""async (number) => {
            const field = await import('./js/fiscal/field-data.js');
            const db = await import('./js/data/db.js');
            const before = (await field.loadField()).index.byNumber(number).ponto.name;
            const { steps } = await field.download();
            const after = (await field.loadField()).index.byNumber(number).ponto.name;
            const { readRow } = await import('./js/fiscal/field-store.js');
            return { before, after, step: steps.field, stored: (await readRow('pontos', (await field.loadField()).index.byNumber(number).ponto.id)).name };
        }""", number)
    finally:
        with live_app.app_context():
            db.session.get(Ponto, ponto_id).name = name
            db.session.commit()
    assert seen == {"before": name, "after": f"{name} (renomeado)", "step": "ok", "stored": f"{name} (renomeado)"}


# The database rebuilt at v4 (issue 37's schema), the registry rows in v3's one store per kind,
# as the app before issue 40 kept them.
REBUILD_AS_V4 = """async () => {
    const db = await import('./js/data/db.js');
    const { readField } = await import('./js/fiscal/field-store.js');
    const rows = (await readField()).data;
    const handle = await db.openDb();
    const dump = {};
    for (const name of ['meta', 'credential', 'reference', 'drafts', 'outbox', 'photos', 'operator_outbox', 'operator_files']) {
        const store = handle.transaction(name).objectStore(name);
        const [keys, values] = await Promise.all([store.getAllKeys(), store.getAll()].map((r) => new Promise((ok) => { r.onsuccess = () => ok(r.result); })));
        dump[name] = keys.map((key, i) => [key, values[i]]);
    }
    handle.close();
    await new Promise((ok, fail) => { const r = indexedDB.deleteDatabase('motofiscal'); r.onsuccess = ok; r.onerror = fail; });
    const indexes = { permits: ['number', 'holder_operator_id', 'vehicle_id'], operators: [], vehicles: ['plate'], pontos: [], penalties: ['operator_id', 'permit_id'] };
    const old = await new Promise((ok, fail) => {
        const r = indexedDB.open('motofiscal', 4);
        r.onupgradeneeded = () => {
            const d = r.result;
            for (const name of ['meta', 'credential', 'reference']) d.createObjectStore(name);
            d.createObjectStore('drafts', { keyPath: 'id' });
            d.createObjectStore('outbox', { keyPath: 'id' });
            d.createObjectStore('photos', { keyPath: 'sha256' });
            for (const [kind, names] of Object.entries(indexes)) {
                const store = d.createObjectStore(kind, { keyPath: 'id' });
                for (const index of names) store.createIndex(index, index);
            }
            d.createObjectStore('operator_outbox', { keyPath: 'id' });
            d.createObjectStore('operator_files', { keyPath: 'sha256' });
        };
        r.onsuccess = () => ok(r.result);
        r.onerror = fail;
    });
    const names = [...Object.keys(dump), ...Object.keys(indexes)];
    const tx = old.transaction(names, 'readwrite');
    for (const [name, pairs] of Object.entries(dump)) {
        for (const [key, value] of pairs) {
            if (tx.objectStore(name).keyPath) tx.objectStore(name).put(value); else tx.objectStore(name).put(value, key);
        }
    }
    for (const kind of Object.keys(indexes)) for (const row of rows[kind]) tx.objectStore(kind).put(row);
    await new Promise((ok) => { tx.oncomplete = ok; });
    old.close();
    const permit = rows.permits.find((p) => p.status === 'ativo' && p.holder_operator_id);
    return { cursor: dump.reference.find(([key]) => key === 'field')[1].data.cursor,
             permits: rows.permits.length, operators: rows.operators.length, permit };
}"""


def test_rows_kept_one_store_per_kind_move_into_chunks(page, context, live_server):
    """A phone of issue 37's app (IndexedDB v4, a store per registry kind) takes the update: v5
    moves every row into `field_chunks` in the upgrade, drops the old stores, keeps the cursor,
    and the verdict finds a permit offline."""
    enroll(page, live_server, "2468", "Celular da versão 4")
    wait_for_service_worker(page)
    old = page.evaluate(REBUILD_AS_V4)
    assert old["permits"] > 0 and old["permit"]

    context.set_offline(True)
    page.reload()
    expect(page.locator("#go-scan")).to_be_visible()
    after = page.evaluate(AFTER_UPGRADE)
    assert after == {"version": after["latest"], "latest": after["latest"], "cursor": old["cursor"], "leftInRecord": False,
                     "permits": old["permits"], "operators": old["operators"], "stores": ["field_chunks"], "found": True}
    page.goto(f"{live_server}/app/#/fiscal/buscar")
    page.fill("#search-text", old["permit"]["number"])
    page.get_by_role("button", name="Buscar").click()
    expect(page.locator("#verdict-word")).to_have_text("VÁLIDO")
    expect(page.locator("#verdict-permit")).to_have_text(old["permit"]["number"])
    context.set_offline(False)
