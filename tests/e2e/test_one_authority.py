"""Issue 34, items 2 and 3, in each municipality, in headless Chromium: a stop where the driver has
no helmet and no vest. The vest is also CTB art. 244 IX, which only the traffic authority applies:

- on the phone (390×844) it is proposed apart, "A comunicar ao órgão de trânsito"; "Confirmar
  todas" leaves it there; the auto's fields, its infractions and the operator's signed copy
  (decoded from the QR with zxing-cpp) never carry it; the copy names the law's instrument and
  step;
- in the back office (1280×800 and 390×844) the review shows it apart, with its communication's
  number and "A comunicar"; the dashboard does not count it among the autos; the communication
  list has it "a comunicar" until the clerk records the sending, then "Comunicada em …"; the
  operator's "Minhas autuações" lists the auto without it;
- the clerk corrects the place: the notificação (PDF, read with pdftotext and rendered with
  pdftoppm, whose QR zxing-cpp reads back) prints the corrected place and says "Auto corrigido na
  revisão — versão 1", and nothing of the CTB infraction.
Every screen is checked with axe-core (no serious or critical violation) and saved for a person to
look at (`make shots`)."""
import re
import subprocess
from io import BytesIO

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from .conftest import PHONE
from .fiscal_helpers import check_screen, enroll, phone_filming_cracha
from .helpers import backoffice_login, save_png, save_shot, screen_problems
from .test_fiscal_auto_touches import swipe_through
from .test_fiscal_journey import server  # noqa: F401 (fixture)
from .test_operator_badge import _first_access

CTB_LABEL = "Transporte remunerado em desacordo com as normas do mototaxista"
SIGNED_PLACE = "Av. Brasil, em frente ao nº 100"
CORRECTED_PLACE = "Rua Goiás, 45, esquina com a Av. Brasil"
LAPTOP = {"width": 1280, "height": 800}
WORDS = {"sapezal": ("alvará de autorização", "defesa"), "paranatinga": ("permissão", "recurso"),
         "nortelandia": ("autorização", "recurso")}


def _sign(page, selector, amplitude=20):
    canvas = page.locator(selector)
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    page.mouse.move(box["x"] + 20, box["y"] + box["height"] / 2)
    page.mouse.down()
    for step in range(1, 12):
        page.mouse.move(box["x"] + 20 + step * 25, box["y"] + box["height"] / 2 + (-1) ** step * amplitude)
    page.mouse.up()


def _render(pdf_bytes, resolution):
    """The PDF's first page as PNG bytes (poppler's pdftoppm, as a person would open it)."""
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "doc.pdf"
        source.write_bytes(pdf_bytes)
        subprocess.run(["pdftoppm", "-png", "-r", str(resolution), "-f", "1", "-l", "1", "-singlefile",
                        str(source), str(Path(folder) / "page")], check=True)
        return (Path(folder) / "page.png").read_bytes()


def _check(page, prefix, name, problems):
    """Both sizes of a back-office screen: axe-core and no sideways scrolling, a screenshot each."""
    for size, viewport in (("1280", LAPTOP), ("390", PHONE)):
        page.set_viewport_size(viewport)
        page.reload()  # laid out at that size, as a phone or a laptop opens it (charts included)
        save_shot(page, f"{prefix}-{name}-{size}", full_page=True)
        found = screen_problems(page)
        if found:
            problems[f"{name} {size}"] = found
    page.set_viewport_size(LAPTOP)


def _configure_sapezal(app):
    """Sapezal's law asks the auto for a defence deadline it never fixes (art. 28 VI): the
    municipality configures it, with its decree, before a notificação can be issued. Returns what
    to put back (the session's other tests see the demo as it was)."""
    from server.extensions import db
    from server.modules.autos import process_operations as ops
    from server.modules.registry.models import Municipality
    from server.modules.rules.settings import save_value
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        before = dict(muni.settings or {})
        save_value(muni, "deadlines", "sapezal.prazo_defesa", 15, "Decreto nº 40/2026")
        ops.save_process_settings(Municipality.query.filter_by(slug="sapezal").one(), {"authority_pt": "Diretor de Trânsito"})
        db.session.commit()
    return before


def _restore(app, slug, settings):
    from server.extensions import db
    from server.modules.registry.models import Municipality
    with app.app_context():
        Municipality.query.filter_by(slug=slug).one().settings = settings
        db.session.commit()


@pytest.mark.parametrize("slug", ["sapezal", "paranatinga", "nortelandia"])
def test_ctb_item_goes_to_the_traffic_authority_and_the_notificacao_prints_the_corrected_auto(
        browser, server, live_app, operator_access, tmp_path, slug):  # noqa: F811
    access = operator_access(slug)
    camera, context, page, errors = phone_filming_cracha(browser, live_app, access["payload"], tmp_path,
                                                         device_scale_factor=1)
    enroll(page, server.url, "2468", "Celular de teste", username=f"fiscal.{slug}")
    settings = _configure_sapezal(live_app) if slug == "sapezal" else None
    try:
        auto_id, inspection_id = _phone(page, slug)
        _back_office(camera, server.url, live_app, slug, auto_id, inspection_id)
        _operator_list(camera, server.url, access)
    finally:
        if settings is not None:
            _restore(live_app, slug, settings)
        context.close()
        camera.close()
    assert not errors, errors


def _phone(page, slug):
    page.locator("#go-scan").click()
    expect(page.locator("#verdict-word")).to_have_text("VÁLIDO", timeout=20000)
    page.locator("#start-checklist").click()
    # The checklist as a fiscal answers it (issue 34, item 1): the situation declared, each group
    # declared only after its items scrolled by, the two failures item by item.
    page.locator("#all-ok-situacao").click()
    swipe_through(page, "moto")
    page.locator("#all-ok-moto").click()
    for fact in ("driver.helmet", "driver.vest"):
        page.locator(f'fieldset[data-fact="{fact}"]').get_by_text("Não conforme", exact=True).click()
    swipe_through(page, "condutor")
    page.locator("#all-ok-condutor").click()

    # Result: the CTB infraction apart, "Comunicar" chosen; "Confirmar todas" never takes it.
    traffic = page.locator('#traffic-proposals article[data-authority="snt"]')
    expect(traffic).to_have_count(1)
    expect(traffic).to_contain_text(CTB_LABEL)
    expect(traffic).to_contain_text("CTB, art. 244")
    expect(page.locator("#traffic-h")).to_contain_text("A comunicar ao órgão de trânsito")
    assert page.locator("#proposals").inner_text().count(CTB_LABEL) == 0
    proposals = page.locator("#proposals article")
    if page.locator("#confirm-all").count():
        page.locator("#confirm-all").click()
    else:
        proposals.first.get_by_text("Confirmar", exact=True).click()
    expect(traffic.locator('input[value="communicate"]')).to_be_checked()
    expect(page.locator("#go-auto")).to_have_text(re.compile(rf"Lavrar auto \({proposals.count()}\)"))
    check_screen(page, f"{slug}-authority-result")
    traffic.scroll_into_view_if_needed()
    save_shot(page, f"fiscal-{slug}-authority-result-traffic")  # the section below the fold

    page.locator("#go-auto").click()
    expect(page.locator("#sign-auto")).to_be_visible()
    fields = page.locator("#auto-fields")
    expect(page.locator("#auto-traffic-apart")).to_contain_text("1 infração(ões) do CTB a comunicar")
    page.keyboard.type(SIGNED_PLACE)
    _sign(page, "#sig-fiscal")
    _sign(page, "#sig-operator", 35)
    expect(page.locator("#auto-missing")).to_have_text("Tudo preenchido: pode assinar e emitir.")
    assert CTB_LABEL not in fields.inner_text() and "art. 244" not in fields.inner_text()
    confirmed = page.locator("main section").first.inner_text()
    assert CTB_LABEL not in confirmed
    step = WORDS[slug][1]
    expect(page.locator("#auto-deadlines")).to_contain_text(f"Prazos de {step}")
    check_screen(page, f"{slug}-authority-auto")
    page.locator("#sign-auto").click()

    # The signed copy, as the operator's phone reads it off the screen.
    qr = page.locator("#auto-qr svg")
    expect(qr).to_be_visible()
    check_screen(page, f"{slug}-authority-issued")
    found = [r for r in zxingcpp.read_barcodes(Image.open(BytesIO(page.locator("#auto-qr").screenshot())))
             if r.format == zxingcpp.BarcodeFormat.QRCode]
    assert len(found) == 1, "the copy's QR was not read"
    fragment = found[0].text.split("#", 1)[1]
    copy = page.evaluate("async (f) => (await import('./js/autocopy/codec.js')).splitFragment(f).copy", fragment)
    labels = [i["label"] for i in copy["infractions"]]
    assert labels and CTB_LABEL not in labels and not any("244" in i["citation"] for i in copy["infractions"])
    assert copy["terms"] == {"permit": WORDS[slug][0], "step": step}
    assert CTB_LABEL not in page.locator("main").inner_text()

    ids = page.evaluate("""async () => {
        const all = await (await import('./js/data/db.js')).getAll('outbox');
        const auto = all.find((e) => e.kind === 'auto');
        return [auto.id, JSON.parse(auto.record.body).inspection_id];
    }""")
    page.goto(page.url.split("#", 1)[0] + "#/fiscal/hoje")
    page.locator("#sync-now").click()
    expect(page.locator('#today-list li[data-state="enviado"]')).to_have_count(2, timeout=60000)
    return ids


def _back_office(camera, base, app, slug, auto_id, inspection_id):
    from server.modules.traffic.models import TrafficReport
    with app.app_context():
        report = TrafficReport.query.filter_by(stop_id=inspection_id).one()
        number, report_id = report.number, report.id
        assert report.state == "a_comunicar" and [i["id"] for i in report.items] == ["fed.inf.ctb244_ix"]
    context = camera.new_context(viewport=LAPTOP, locale="pt-BR", timezone_id="America/Cuiaba", bypass_csp=True)
    page = context.new_page()
    problems = {}
    prefix = f"authority-{slug}"
    backoffice_login(page, base, f"backoffice.{slug}")

    # Review: the CTB infraction apart, "a comunicar"; the auto's infractions without it.
    page.goto(f"{base}/bo/revisao/registros/{auto_id}")
    card = page.locator("#comunicacao-transito")
    expect(card).to_contain_text(f"Comunicação ao órgão de trânsito nº {number}")
    expect(card).to_contain_text("A comunicar")
    assert CTB_LABEL not in page.locator("#infracoes").inner_text()
    comparison = page.locator("#reavaliacao").inner_text()
    assert "valor não configurado" not in comparison.split(CTB_LABEL, 1)[-1].split("\n", 1)[0]
    _check(page, prefix, "review", problems)
    page.fill("#reason", "Conferido com as fotos e o registro do fiscal.")
    page.get_by_role("button", name="Homologar").click()
    expect(page.locator(".badge.case-homologado").first).to_be_visible()
    page.locator("#versoes summary").click()
    page.fill("#c-place", CORRECTED_PLACE)
    page.fill("#c-reason", "Local transcrito errado; confere com o GPS e a foto.")
    page.get_by_role("button", name="Registrar correção").click()
    expect(page.locator("#versoes")).to_contain_text("Versão 1")

    # The notificação: the corrected auto, said so, nothing of the CTB infraction.
    page.get_by_role("link", name="Notificação, defesa e penalidades deste auto").click()
    page.get_by_role("button", name="Emitir notificação").click()
    expect(page.locator("#notification-version")).to_contain_text("Corrigido na revisão: versão 1")
    _check(page, prefix, "process", problems)
    pdf = page.request.get(base + page.get_by_role("link", name="Abrir a notificação (PDF)").get_attribute("href"))
    assert pdf.ok and pdf.headers["content-type"].startswith("application/pdf")
    text = " ".join(subprocess.run(["pdftotext", "-", "-"], input=pdf.body(), capture_output=True,
                                   check=True).stdout.decode().split())
    assert re.search(r"Auto corrigido na revisão — versão 1, de \d\d/\d\d/\d{4}", text), text
    assert CORRECTED_PLACE in text.split("Dados do auto de infração", 1)[1]
    assert f"Original: {SIGNED_PLACE} Corrigido: {CORRECTED_PLACE}" in text
    assert CTB_LABEL not in text and "244" not in text and "comunicad" not in text.lower()
    rendered = _render(pdf.body(), 110)
    save_png(f"{prefix}-notificacao", rendered)
    codes = zxingcpp.read_barcodes(Image.open(BytesIO(rendered)), formats=zxingcpp.BarcodeFormat.QRCode)
    assert len(codes) == 1 and "/N/" in codes[0].text  # the printed page carries its signed QR

    # Dashboard: the autos' infractions without it; the communications counted apart.
    page.goto(f"{base}/bo/")
    by_infraction = page.locator("section", has=page.locator("#por-infracao-title")).inner_text()
    assert CTB_LABEL not in by_infraction
    assert int(page.locator("#traffic-pending").inner_text()) >= 1
    _check(page, prefix, "dashboard", problems)

    # The communication: "a comunicar" until the clerk records the sending.
    page.goto(f"{base}/bo/transito/")
    row = page.locator(f'tr:has(a:text-is("{number}"))')
    expect(row).to_contain_text("A comunicar")
    expect(row).to_contain_text(CTB_LABEL)
    _check(page, prefix, "communications", problems)
    listed = page.request.get(f"{base}/bo/transito/comunicacao.pdf")
    listed_text = " ".join(subprocess.run(["pdftotext", "-", "-"], input=listed.body(), capture_output=True,
                                          check=True).stdout.decode().split())
    assert f"Comunicação nº {number}" in listed_text and "A comunicar" in listed_text and SIGNED_PLACE in listed_text
    save_png(f"{prefix}-comunicacao-pdf", _render(listed.body(), 80))
    row.locator('input[type="checkbox"]').check()
    today = page.evaluate("() => new Date().toLocaleDateString('sv-SE', { timeZone: 'America/Cuiaba' })")
    page.fill("#sent_on", today)
    page.fill("#sent_reference", "Ofício nº 12/2026 ao órgão executivo de trânsito")
    page.get_by_role("button", name="Registrar envio das marcadas").click()
    expect(page.locator(f'tr:has(a:text-is("{number}"))')).to_contain_text("Comunicada em")
    page.goto(f"{base}/bo/transito/{report_id}")
    expect(page.locator("#report-state-words")).to_contain_text("Ofício nº 12/2026")
    _check(page, prefix, "communication", problems)
    context.close()
    assert not problems, problems


def _operator_list(camera, base, access):
    context = camera.new_context(viewport=PHONE, locale="pt-BR", timezone_id="America/Cuiaba", bypass_csp=True)
    page = context.new_page()
    _first_access(page, base, access)
    page.get_by_role("button", name="Minhas autuações").click()
    expect(page.locator("main li").first).to_be_visible(timeout=20000)
    listed = page.locator("main").inner_text()
    assert "Auto nº" in listed and CTB_LABEL not in listed
    assert re.search(r"\d\d/\d\d/\d{4} às \d\d:\d\d — placa", listed), listed  # the local day and time
    check_screen(page, f"{access['slug']}-authority-operator-autos")
    context.close()
