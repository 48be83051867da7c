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
    assert result["version"] == result["declared"] == 3
    assert result["stores"] == {"meta": None, "credential": None, "reference": None,
                                "drafts": "id", "outbox": "id", "photos": "sha256", "permits": "id",
                                "operators": "id", "vehicles": "id", "pontos": "id", "penalties": "id"}


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
