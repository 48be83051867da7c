"""The operator's copy in any hand (issue 34, item 5), in each municipality: once the operator's
app is installed (first access done), a fiscal's signed copy verifies on the operator's phone
with the network cut — the copy worker (pwa/copy-sw.js, scope /a/) keeps the page and the
municipality's device keys, refreshed at each contact. Keys saved before the fiscal's phone was
enrolled do not know it: the page says so instead of calling the copy false, and the next
contact of the operator's app fixes it. A changed byte is still refused offline, and a version-1
copy (base32, written before issue 34) still verifies."""
import base64
import time
from datetime import datetime, timezone

import pytest
from playwright.sync_api import expect

from .conftest import PHONE
from .fiscal_helpers import enroll
from .helpers import save_shot, serious_violations, wait_for_service_worker
from .test_operator_badge import _first_access
from .test_operator_copy import ISSUE, NOT_YET, _tampered, read_issued_copy

KEYS_SAVED = """async (ibge) => {
    const cache = await caches.open('copy-keys');
    const saved = await cache.match(`/api/v1/public/municipalities/${ibge}/device-keys`);
    if (!saved) return null;
    return { at: saved.headers.get('X-Copy-Keys-Saved'), devices: (await saved.json()).keys.map((k) => k.device_id) };
}"""

COPY_WORKER_ACTIVE = """async () => {
    const registration = await navigator.serviceWorker.getRegistration('/a/');
    return Boolean(registration && registration.active && registration.active.state === 'activated');
}"""

# The fiscal phone's session and a signature of given bytes by its device key (as the issued
# screen signs a copy).
SIGN = """async (hex) => {
    const { deviceKey, session } = await import('./js/fiscal/session.js');
    const { signBytes } = await import('./js/fiscal/device-key.js');
    const bytes = Uint8Array.from(hex.match(/../g).map((h) => parseInt(h, 16)));
    const signature = await signBytes(await deviceKey(), bytes);
    return { deviceId: (await session()).device_id, signature: Array.from(signature) };
}"""


def _v1_body(ibge, device_id, number, place, label, citation):
    """A version-1 copy body, byte by byte as docs/sync-api.md describes it (not by the codec)."""
    def text(value):
        data = value.encode()
        return bytes([len(data)]) + data
    minutes = int((datetime(2026, 3, 5, 13, 47, tzinfo=timezone.utc) - datetime(2020, 1, 1, tzinfo=timezone.utc)).total_seconds() // 60)
    body = bytes([1]) + int(ibge).to_bytes(3, "big") + device_id.to_bytes(4, "big") + bytes(range(32))
    body += minutes.to_bytes(4, "big") + (-16).to_bytes(1, "big", signed=True)
    body += text(number) + text("QBA1C23") + text("") + text(place)
    body += bytes([255]) + (0xFFFF).to_bytes(2, "big") + text("")
    body += bytes([1]) + text(label) + text(citation) + bytes([2])
    return body


def _poll(page, script, arg, check, what, timeout=30):
    """Evaluate `script` until `check` holds for its value (wait_for_function takes a promise as
    truthy, so async checks are polled from here)."""
    deadline = time.monotonic() + timeout
    while True:
        value = page.evaluate(script, arg)
        if check(value):
            return value
        assert time.monotonic() < deadline, f"{what}: still {value!r} after {timeout} s"
        page.wait_for_timeout(250)


def _wait_keys(page, ibge, device_id=None, after=None):
    """Until the operator's phone holds the municipality's keys (with `device_id`, saved after
    `after`); returns the saved time."""
    saved = _poll(page, KEYS_SAVED, ibge, lambda s: bool(s) and (device_id is None or device_id in s["devices"])
                  and (after is None or s["at"] > after), "saved device keys")
    return saved["at"]


@pytest.mark.parametrize("slug", ["sapezal", "paranatinga", "nortelandia"])
def test_copy_verifies_offline_on_the_operators_phone(browser, live_server, live_app, operator_access, slug):
    from server.modules.registry.models import Municipality, Permit

    access = operator_access(slug)
    with live_app.app_context():
        muni = Municipality.query.filter_by(slug=slug).one()
        ibge = muni.ibge_code
        operator_id = Permit.query.filter_by(municipality_id=muni.id, number=access["permit_number"]).one().main_driver.id

    # The operator installs the app: first access, online. The app keeps the copy worker and the keys.
    operator = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="pt-BR",
                                   timezone_id="America/Cuiaba", service_workers="allow")
    op = operator.new_page()
    errors = []
    op.on("pageerror", lambda error: errors.append(str(error)))
    _first_access(op, live_server, access)
    _poll(op, COPY_WORKER_ACTIVE, None, bool, "copy worker active")
    first_saved = _wait_keys(op, ibge)

    # Then a fiscal's phone is enrolled (its key unknown to what the operator saved) and, with no
    # signal, issues an auto to this operator.
    phone = browser.new_context(viewport=PHONE, device_scale_factor=1, locale="pt-BR",
                                timezone_id="America/Cuiaba", service_workers="allow")
    page = phone.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    enroll(page, live_server, "1357", f"Celular offline {slug}", username=f"fiscal.{slug}")
    wait_for_service_worker(page)
    phone.set_offline(True)
    auto = page.evaluate(ISSUE, {"operatorId": operator_id, "permitNumber": access["permit_number"]})
    page.goto(f"{live_server}/app/#/fiscal/auto-emitido?id={auto['id']}")
    url = read_issued_copy(page, live_server, slug)
    device_id = page.evaluate("async () => (await (await import('./js/fiscal/session.js')).session()).device_id")

    # No signal on the operator's phone either. The saved keys predate the fiscal's phone: the
    # page says it cannot verify yet — never that the copy is false.
    operator.set_offline(True)
    op.goto(url)
    expect(op.locator("#copy-verdict")).to_have_text("Cópia não conferida")
    expect(op.locator("#copy-status")).to_contain_text("não está entre as chaves guardadas neste celular")
    expect(op.locator("#copy-body h2")).to_have_text(f"Auto de infração nº {auto['number']}")
    save_shot(op, f"operator-copy-offline-unknown-device-{slug}", full_page=True)
    assert serious_violations(op) == []

    # One contact of the operator's app (the crachá screen, online) refreshes the saved keys.
    operator.set_offline(False)
    op.goto(f"{live_server}/app/#/operador/cracha")
    expect(op.locator("#badge-name")).to_have_text(access["name"])
    _wait_keys(op, ibge, device_id=device_id, after=first_saved)

    # Network cut again: the copy verifies on the operator's phone, from the saved page and keys.
    operator.set_offline(True)
    op.goto(url)
    op.reload()
    expect(op.locator("#copy-verdict")).to_have_text(NOT_YET)
    expect(op.locator("#copy-status")).to_contain_text("sem consultar o servidor, com as chaves dos aparelhos do município guardadas em")
    for label in auto["labels"]:
        expect(op.locator("#copy-infractions")).to_contain_text(label)
    expect(op.locator("#copy-infractions")).not_to_contain_text(auto["removed"])
    expect(op.locator("#copy-body")).to_contain_text("Av. Tancredo Neves, 1200")
    expect(op.locator("#copy-municipality")).to_contain_text(f"{muni.name}/{muni.uf}")
    assert op.evaluate("navigator.onLine") is False
    assert op.evaluate("Boolean(navigator.serviceWorker.controller)")  # the copy worker answered
    save_shot(op, f"operator-copy-offline-verified-{slug}", full_page=True)
    assert serious_violations(op) == []

    # Still offline: one changed bit is refused.
    op.goto(_tampered(url, 20))
    op.reload()
    expect(op.locator("#copy-verdict")).to_have_text("Assinatura inválida")

    # A version-1 copy (base32), signed by the same phone's key before version 2 existed: verified.
    body = _v1_body(ibge, device_id, "OLD-2025-000001", "Rua Velha, 1", "Sem colete", "Lei antiga, art. 1")
    signed = page.evaluate(SIGN, body.hex())
    assert signed["deviceId"] == device_id
    fragment = base64.b32encode(body + bytes(signed["signature"])).decode().rstrip("=")
    op.goto(f"{live_server}/a/#{fragment}")
    op.reload()
    expect(op.locator("#copy-verdict")).to_have_text(NOT_YET)
    expect(op.locator("#copy-body h2")).to_have_text("Auto de infração nº OLD-2025-000001")
    expect(op.locator("#copy-infractions")).to_contain_text("Sem colete")
    assert not errors, errors
    operator.close()
    phone.close()
