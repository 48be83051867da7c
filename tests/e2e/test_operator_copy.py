"""The operator's signed copy (issue 18, item 6; issue 34, item 5): the QR on the fiscal's
issued-auto screen carries the auto, signed by the device key, in the URL fragment. With three
infractions it is at error correction M or better and version 15 or lower, whole on a 390×844
screen as it opens, and zxing-cpp decodes it from that screenshot scaled to 50 % and blurred, as a
second phone's camera sees it. It opens — in a fresh browser, while the auto has never reached the
server — a page that shows and verifies the copy; a changed byte says "Assinatura inválida"; once
the phone syncs, the same address says the server received it and shows where the auto stands."""
import subprocess
from io import BytesIO

import zxingcpp
from PIL import Image, ImageFilter
from playwright.sync_api import expect

from .conftest import PHONE
from .fiscal_helpers import enroll
from .helpers import save_png, save_shot, serious_violations, wait_for_service_worker
from .test_fiscal_faults import SETTLE
from .test_operator_badge import _first_access

NOT_YET = "Cópia assinada pelo aparelho do fiscal — ainda não recebida pelo servidor"

# An auto sealed exactly as the auto screen seals one (fiscal-auto.js): three confirmed infractions
# of the municipal law as the phone's rules state them (the longest titles the pack has, so the QR
# is measured at its worst), one removed; nothing typed but the place.
ISSUE = """async ({ operatorId, permitNumber }) => {
    const records = await import('./js/fiscal/records.js');
    const field = await import('./js/fiscal/field-data.js');
    const { signaturePad } = await import('./js/fiscal/signature-pad.js');
    const { uuid, randomToken } = await import('./js/fiscal/bytes.js');
    const { rules } = await field.loadField();
    const municipal = rules.packs.filter((p) => p.id !== 'federal-base').flatMap((p) => p.infractions || [])
        .sort((x, y) => y.label_pt.length - x.label_pt.length);
    const [a, b, c, d] = municipal;
    const pad = signaturePad('Assinatura do fiscal', 'sig-copy');
    const g = pad.node.querySelector('canvas').getContext('2d');
    g.beginPath(); g.moveTo(20, 200); g.lineTo(300, 40); g.lineTo(680, 180); g.stroke();
    const sig = await records.storePhoto(await pad.toBlob());
    const number = await field.takeNumber();
    const id = uuid();
    const item = (i, decision) => ({ id: i.id, citation: i.citation, label_pt: i.label_pt, amount: null, amount_brl: null, decision, removal_reason: decision === 'removed' ? 'Não se aplica' : null });
    await records.commitRecord({
        id, kind: 'auto', photos: [sig], draftId: null,
        summary: { number, name: null, plate: 'QBA1C23', public_token: null, infractions: [a.label_pt, b.label_pt, c.label_pt], inspection_id: null },
        fields: {
            inspection_id: uuid(), number, place: 'Av. Tancredo Neves, 1200', clock: records.deviceClock(null),
            gps: null, no_gps_reason: 'Sem sinal de GPS', data_age_s: 60, photos: [sig], permit_number: permitNumber, plate: 'QBA1C23',
            operator_id: operatorId,
            infractions: [item(a, 'confirmed'), item(b, 'confirmed'), item(c, 'confirmed'), item(d, 'removed')],
            auto_fields: {}, signatures: { fiscal: sig, operator: null, operator_refused: true },
            defence: { deadline_days: null, instance: null, due: null }, public_token: randomToken(32),
        },
    });
    return { id, number, labels: [a.label_pt, b.label_pt, c.label_pt], removed: d.label_pt };
}"""


def _decode(png):
    image = png if isinstance(png, Image.Image) else Image.open(BytesIO(png))
    found = [r for r in zxingcpp.read_barcodes(image) if r.format == zxingcpp.BarcodeFormat.QRCode]
    assert len(found) == 1, f"{len(found)} QR codes read from the screenshot"
    return found[0]


def _degraded(png):
    """The screenshot as a second phone's camera sees it: half the pixels each way, slightly blurred."""
    image = Image.open(BytesIO(png)).convert("L")
    image = image.resize((image.width // 2, image.height // 2), Image.Resampling.BILINEAR)
    return image.filter(ImageFilter.GaussianBlur(0.7))


# The fragment's decimal digits (version 2), written here from docs/sync-api.md, not by the codec:
# each 7 bytes are 17 digits, a last group of k bytes the fewest digits that hold 256^k − 1.
GROUP_DIGITS = [0, 3, 5, 8, 10, 13, 15, 17]


def _digits_to_bytes(text):
    out = bytearray()
    for i in range(0, len(text), 17):
        chunk = text[i:i + 17]
        out += int(chunk).to_bytes(GROUP_DIGITS.index(len(chunk)), "big")
    return bytes(out)


def _bytes_to_digits(raw):
    return "".join(str(int.from_bytes(raw[i:i + 7], "big")).zfill(GROUP_DIGITS[len(raw[i:i + 7])])
                   for i in range(0, len(raw), 7))


def _tampered(url, at):
    """The same URL with one bit of the copy's bytes changed (still valid digits)."""
    head, fragment = url.split("#", 1)
    raw = bytearray(_digits_to_bytes(fragment))
    raw[at] ^= 0x01
    return f"{head}#{_bytes_to_digits(bytes(raw))}"


def _png(image):
    out = BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def _shot(page, name):
    save_shot(page, f"operator-copy-{name}", full_page=True)


def read_issued_copy(page, live_server, name):
    """On the issued-auto screen (390×844, device scale 1: the worst screen there is): the QR is
    whole on the screen as it opens, at error correction M or better and version ≤ 15, and
    zxing-cpp reads it from the screenshot and from that screenshot halved and blurred. → URL."""
    qr = page.locator("#auto-qr svg")
    # The screen signs the auto and draws its QR first: generous on a loaded machine.
    expect(qr).to_have_attribute("aria-label", "Código QR com a cópia assinada do auto", timeout=30000)
    expect(page.locator("#auto-key-pending")).to_have_count(0)  # the key went up at enrolment
    modules = int(qr.get_attribute("data-modules"))
    version = (modules - 17) // 4
    # Whole on the 390×844 screen as it opens: the fiscal turns the phone round, nothing to scroll.
    assert page.evaluate("window.scrollY") == 0
    box = qr.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    px_per_module = box["width"] / (modules + 8)
    shot = page.screenshot()
    save_png(f"operator-copy-fiscal-issued-{name}", shot)  # the screenshot the decoder reads, for a person too
    assert Image.open(BytesIO(shot)).size == (390, 844)
    result = _decode(shot)
    url = result.text
    print(f"\n{name}: QR version {version} ({modules} modules, {px_per_module:.2f} CSS px per module at 390 px, "
          f"ec {result.ec_level}), {len(url)} characters; zxing extra {result.extra}")
    assert url.startswith(f"{live_server}/a/#") and len(url.split("#", 1)[1]) > 100
    assert version <= 15  # three infractions, the longest titles of the pack
    assert int(result.extra["Version"]) == version  # zxing-cpp reads the version we measured
    assert result.ec_level in ("M", "Q", "H")
    # As another phone's camera sees the screen: 195×422 pixels, blurred.
    degraded = _degraded(shot)
    save_png(f"operator-copy-fiscal-issued-{name}-degraded", _png(degraded))
    assert _decode(degraded).text == url
    return url


def test_copy_qr_verifies_before_the_auto_reaches_the_server(browser, live_server, live_app, operator_access, tmp_path):
    from server.extensions import db
    from server.modules.fieldsync.models import FieldRecord
    from server.modules.registry.models import Municipality, Permit

    access = operator_access("sapezal")
    with live_app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        operator_id = Permit.query.filter_by(municipality_id=muni.id, number=access["permit_number"]).one().main_driver.id

    phone = browser.new_context(viewport=PHONE, device_scale_factor=1, locale="pt-BR",
                                timezone_id="America/Cuiaba", service_workers="allow")
    page = phone.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    enroll(page, live_server, "2468", "Celular da cópia")
    wait_for_service_worker(page)
    # From here the fiscal's phone has no signal at all: the auto stays on it.
    phone.set_offline(True)
    auto = page.evaluate(ISSUE, {"operatorId": operator_id, "permitNumber": access["permit_number"]})
    page.goto(f"{live_server}/app/#/fiscal/auto-emitido?id={auto['id']}")
    url = read_issued_copy(page, live_server, "sapezal")
    # No Web Bluetooth in this browser (as on an iPhone): no print button; the PDF share remains.
    expect(page.locator("#print-unavailable")).to_be_visible()
    expect(page.locator("#print-copy")).to_have_count(0)
    expect(page.locator("#share-copy")).to_be_visible()
    assert serious_violations(page) == []

    # Optional path: the same copy as a PDF made on the offline phone (download where the browser
    # cannot share files): its text, and its QR decoded from a rendering of the page.
    pdf_lib_loaded = "performance.getEntriesByType('resource').some((e) => e.name.includes('/vendor/pdf-lib/'))"
    assert page.evaluate(pdf_lib_loaded) is False  # the PDF library is loaded on the tap only
    with page.expect_download() as download:
        page.locator("#share-copy").click()
    assert page.evaluate(pdf_lib_loaded) is True  # ... from the service worker's cache (offline)
    pdf = tmp_path / "copy.pdf"
    download.value.save_as(pdf)
    assert download.value.suggested_filename == f"copia-auto-{auto['number']}.pdf"
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert f"Auto de infração nº {auto['number']}" in text and "Av. Tancredo Neves, 1200" in text
    assert all(label.split(":")[0] in text for label in auto["labels"]) and "valor a definir" in text
    assert "Cópia assinada pelo aparelho do fiscal" in text and "Sapezal" in text
    subprocess.run(["pdftoppm", "-r", "110", "-png", "-singlefile", str(pdf), str(tmp_path / "copy")], check=True)
    assert _decode((tmp_path / "copy.png").read_bytes()).text == url
    save_png("operator-copy-pdf", (tmp_path / "copy.png").read_bytes())

    # The printer screen says the same, and points to the PDF.
    page.goto(f"{live_server}/app/#/fiscal/impressora")
    expect(page.locator("#printer-unavailable")).to_contain_text("Compartilhar cópia (PDF)")
    _shot(page, "printer-unavailable")
    assert serious_violations(page) == []

    with live_app.app_context():
        assert db.session.get(FieldRecord, auto["id"]) is None  # never pushed

    # The operator's phone: a fresh browser, nothing of the fiscal's, the app's strict CSP on.
    operator = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="pt-BR",
                                   timezone_id="America/Cuiaba")
    copy_page = operator.new_page()
    copy_errors = []
    copy_page.on("pageerror", lambda error: copy_errors.append(str(error)))
    requests = []
    copy_page.on("request", lambda request: requests.append(request.url))
    copy_page.goto(url)
    expect(copy_page.locator("#copy-verdict")).to_have_text(NOT_YET)
    expect(copy_page.locator("#copy-body h2")).to_have_text(f"Auto de infração nº {auto['number']}")
    for label in auto["labels"]:
        expect(copy_page.locator("#copy-infractions")).to_contain_text(label)
    expect(copy_page.locator("#copy-infractions")).not_to_contain_text(auto["removed"])
    expect(copy_page.locator("#copy-infractions")).to_contain_text("a definir")
    expect(copy_page.locator("#copy-body")).to_contain_text("Av. Tancredo Neves, 1200")
    expect(copy_page.locator("#copy-body")).to_contain_text("QBA1C23")
    expect(copy_page.locator("#copy-body")).to_contain_text(access["permit_number"])
    expect(copy_page.locator("body")).not_to_contain_text(access["name"])  # no name in the copy
    # Sapezal's law leaves the defence deadline to the municipality (not configured in the demo).
    expect(copy_page.locator("#copy-defence")).to_contain_text("conta a partir da notificação")
    expect(copy_page.locator("#copy-municipality")).to_contain_text("Sapezal/MT")
    assert not any("#" in r for r in requests)  # the fragment went to no server
    _shot(copy_page, "not-yet-received")
    assert serious_violations(copy_page) == []

    # One changed bit in the body (its public token), then one in the signature: both refused.
    raw_len = len(_digits_to_bytes(url.split("#", 1)[1]))
    for at in (20, raw_len - 10):
        copy_page.goto(_tampered(url, at))
        copy_page.reload()  # a fragment-only change does not reload the document
        expect(copy_page.locator("#copy-verdict")).to_have_text("Assinatura inválida")
        expect(copy_page.locator("#copy-body")).to_be_empty()
    _shot(copy_page, "tampered")
    assert serious_violations(copy_page) == []

    # The fiscal's phone gets signal: the auto syncs; the same address now says so.
    phone.set_offline(False)
    outbox = page.evaluate(SETTLE, 30000)
    assert all(e["state"] == "enviado" for e in outbox), outbox
    with live_app.app_context():
        assert db.session.get(FieldRecord, auto["id"]).kind == "auto"
    copy_page.goto(url)
    copy_page.reload()
    expect(copy_page.locator("#copy-verdict")).to_have_text("Cópia assinada pelo aparelho do fiscal e recebida pelo servidor")
    expect(copy_page.locator("#server-state")).to_contain_text("Recebido")
    expect(copy_page.locator("#server-amounts")).to_contain_text("a definir")
    expect(copy_page.locator("#copy-server")).to_contain_text("Notificação")
    _shot(copy_page, "received")
    assert serious_violations(copy_page) == []

    # The same operator in the app's portal: "Minhas autuações" says where the auto stands.
    _first_access(copy_page, live_server, access)
    copy_page.get_by_role("button", name="Minhas autuações").click()
    item = copy_page.locator("#autos-list li", has_text=f"Auto nº {auto['number']}")
    expect(item.locator(".auto-state")).to_have_text("Situação: Recebido (aguarda revisão)")
    expect(item.locator(".auto-notification")).to_have_text("Notificação: ainda não emitida.")
    expect(item.locator(".auto-amounts")).to_contain_text(f"{auto['labels'][0]}: a definir")
    expect(item.locator(".deadline").first).to_contain_text("Lei 125/1999")
    _shot(copy_page, "minhas-autuacoes")
    assert serious_violations(copy_page) == []
    assert not errors and not copy_errors, errors + copy_errors
    operator.close()
    phone.close()
