"""A paper copy at the roadside (issue 34, item 6): the fiscal's phone, offline, pairs a Bluetooth
LE thermal printer through Web Bluetooth and prints the operator's copy — text in code page 850
and the screen's QR as a raster image — in writes of at most 20 bytes.

The printer is simulated by Chromium's DevTools `BluetoothEmulation` domain (Chromium 156 answers
it on the browser's own CDP session, not a page's): a peripheral with an ESC/POS service and a
write characteristic, whose writes arrive as `characteristicOperationReceived` events. The
browser's device chooser is answered through the `DeviceAccess` domain, as a person's tap. The
bytes written are read back by an independent ESC/POS decoder (tests/escpos_decoder.py) and the
raster QR by zxing-cpp.

This headless Chromium exposes Web Bluetooth only with `--enable-experimental-web-platform-
features` (which also gives `navigator.bluetooth.getDevices`, so a paired printer prints with no
prompt); with `--enable-features=WebBluetooth` alone it has `requestDevice` but no `getDevices`,
the case of browsers that forget the permission: the print tap then shows a chooser holding the
saved printer only. A browser with no Web Bluetooth at all (iOS) gets the PDF share
(test_operator_copy.py)."""
import base64
import re
import time
from contextlib import contextmanager

import pytest
import zxingcpp
from playwright.sync_api import expect

from escpos_decoder import decode, qr_image

from .conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from .fiscal_helpers import enroll
from .helpers import save_shot, serious_violations, wait_for_service_worker
from .test_operator_copy import ISSUE, read_issued_copy

WITH_GET_DEVICES = [*CHROMIUM_ARGS, "--enable-experimental-web-platform-features"]
WITHOUT_GET_DEVICES = [*CHROMIUM_ARGS, "--enable-features=WebBluetooth"]
uuid16 = "0000{:04x}-0000-1000-8000-00805f9b34fb".format


class EmulatedPrinter:
    """A simulated BLE printer: one service, one write characteristic; every write kept."""

    def __init__(self, browser, page, *, address, name, service, characteristic, advertised=False):
        """`advertised`: the printer is not connected to the phone yet; it shows in the chooser
        when it advertises during the scan (advertise()), else it is a preconnected peripheral."""
        self.writes = []  # (writeType, bytes)
        self.prompts = []
        self.answered = set()
        self.address, self.name, self.service, self.characteristic = address, name, service, characteristic
        self.advertised = advertised
        self.cdp = browser.new_browser_cdp_session()
        self.cdp.on("BluetoothEmulation.gattOperationReceived", self._gatt)
        self.cdp.on("BluetoothEmulation.characteristicOperationReceived", self._characteristic)
        self.cdp.send("BluetoothEmulation.enable", {"state": "powered-on", "leSupported": True})
        if not advertised:
            self._peripheral()
        self.page_cdp = page.context.new_cdp_session(page)
        self.page_cdp.on("DeviceAccess.deviceRequestPrompted", lambda event: self.prompts.append(event))
        self.page_cdp.send("DeviceAccess.enable")

    def _peripheral(self):
        self.cdp.send("BluetoothEmulation.simulatePreconnectedPeripheral", {
            "address": self.address, "name": self.name, "manufacturerData": [], "knownServiceUuids": [uuid16(self.service)]})
        self._services()

    def advertise(self, page):
        """Once the chooser scans: the printer's advertisement (this Chromium answers
        simulateAdvertisement only with a whole scan record: appearance and txPower too)."""
        self.chooser(page, count=0)
        self.cdp.send("BluetoothEmulation.simulateAdvertisement", {"entry": {
            "deviceAddress": self.address, "rssi": -48,
            "scanRecord": {"name": self.name, "uuids": [uuid16(self.service)], "appearance": 0, "txPower": 0, "manufacturerData": []}}})
        self._services()

    def _services(self):
        service_id = self.cdp.send("BluetoothEmulation.addService", {"address": self.address, "serviceUuid": uuid16(self.service)})["serviceId"]
        self.cdp.send("BluetoothEmulation.addCharacteristic", {
            "serviceId": service_id, "characteristicUuid": uuid16(self.characteristic),
            "properties": {"write": True, "writeWithoutResponse": True}})

    def after_reload(self):
        """Chromium 156 binds the simulated adapter to the document: a reload leaves the page with
        no Bluetooth (getAvailability() false) though the domain stays enabled. Switching the
        simulation off and on, with the printer in range again, is the phone after a restart; the
        site's permission for the printer is the profile's and survives."""
        self.cdp.send("BluetoothEmulation.disable")
        self.cdp.send("BluetoothEmulation.enable", {"state": "powered-on", "leSupported": True})
        if not self.advertised:
            self._peripheral()

    def _gatt(self, event):  # connection and service discovery succeed
        self.cdp.send("BluetoothEmulation.simulateGATTOperationResponse",
                      {"address": event["address"], "type": event["type"], "code": 0})

    def _characteristic(self, event):
        if event["type"] == "write":
            self.writes.append((event.get("writeType"), base64.b64decode(event["data"])))
            self.cdp.send("BluetoothEmulation.simulateCharacteristicOperationResponse",
                          {"characteristicId": event["characteristicId"], "type": "write", "code": 0})

    def chooser(self, page, count=1, timeout=20):
        """The browser's device chooser of the last tap, once it lists `count` devices."""
        deadline = time.monotonic() + timeout
        while True:
            fresh = [p for p in self.prompts if p["id"] not in self.answered]
            if fresh and len(fresh[-1]["devices"]) >= count:
                return fresh[-1]
            assert time.monotonic() < deadline, f"no chooser with {count} device(s): {self.prompts}"
            page.wait_for_timeout(100)

    def tap(self, prompt, address):
        """The person's tap on a device in the chooser."""
        self.answered.add(prompt["id"])
        self.page_cdp.send("DeviceAccess.selectPrompt", {"id": prompt["id"], "deviceId": address})

    def pick(self, page):
        """The chooser of the last tap, answered with this printer; returns the devices it listed."""
        prompt = self.chooser(page)
        self.tap(prompt, self.address)
        return prompt["devices"]

    def take(self):
        data = b"".join(part for _, part in self.writes)
        types = {kind for kind, _ in self.writes}
        sizes = [len(part) for _, part in self.writes]
        self.writes = []
        return data, types, sizes


def _issue_offline(browser, live_server, live_app, operator_access, slug, device_name, pin):
    from server.modules.registry.models import Municipality, Permit

    access = operator_access(slug)
    with live_app.app_context():
        muni = Municipality.query.filter_by(slug=slug).one()
        operator_id = Permit.query.filter_by(municipality_id=muni.id, number=access["permit_number"]).one().main_driver.id
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, locale="pt-BR",
                                  timezone_id="America/Cuiaba", service_workers="allow")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    enroll(page, live_server, pin, device_name, username=f"fiscal.{slug}")
    wait_for_service_worker(page)
    context.set_offline(True)  # the roadside: no signal from here on
    auto = page.evaluate(ISSUE, {"operatorId": operator_id, "permitNumber": access["permit_number"]})
    page.goto(f"{live_server}/app/#/fiscal/auto-emitido?id={auto['id']}")
    return context, page, auto, muni, errors


@contextmanager
def _launched(browser, args):
    own = browser.browser_type.launch(executable_path=CHROMIUM, args=args)
    try:
        yield own
    finally:
        own.close()


def _printed_copy(data, url, auto, muni, columns, max_width):
    """The decoded printout says what the copy says and its QR is the screen's."""
    printout = decode(data)
    assert printout.code_pages == [2]
    assert all(len(line.raw) <= columns for line in printout.lines), [line.text for line in printout.lines]
    text = re.sub(r"\s+", " ", " ".join(line.text for line in printout.lines))
    assert f"Prefeitura Municipal de {muni.name}" in text  # the field data names the municipality
    assert f"Auto de infração nº {auto['number']}" in text
    assert "Local: Av. Tancredo Neves, 1200" in text and "Placa: QBA1C23" in text
    for label in auto["labels"]:
        assert label.replace("—", "-") in text, label
    assert auto["removed"] not in text
    assert "?" not in text
    [image] = printout.images
    assert image.width <= max_width
    assert [r.text for r in zxingcpp.read_barcodes(qr_image(image))] == [url]
    return printout


def _wait_printed(page, name="MPT-II"):
    expect(page.locator("#print-status")).to_have_text(f"Cópia impressa em {name}." if name else "Cópia impressa.", timeout=120000)


def test_paired_printer_prints_the_copy_offline_and_is_remembered(browser, live_server, live_app, operator_access):
    # A browser of its own, launched with Web Bluetooth on (the session's has none, like iOS).
    with _launched(browser, WITH_GET_DEVICES) as browser:
        context, page, auto, muni, errors = _issue_offline(
            browser, live_server, live_app, operator_access, "sapezal", "Celular da impressora", "8642")
        assert page.evaluate("typeof navigator.bluetooth.getDevices") == "function"
        url = read_issued_copy(page, live_server, "sapezal-bluetooth")  # the QR still whole above the fold
        expect(page.locator("#print-copy")).to_be_visible()
        expect(page.locator("#print-printer")).to_contain_text("Nenhuma impressora pareada")
        save_shot(page, "operator-copy-print-issued", full_page=True)
        assert serious_violations(page) == []

        printer = EmulatedPrinter(browser, page, address="09:09:09:09:09:01", name="MPT-II", service=0x18F0, characteristic=0x2AF1)
        page.locator("#print-copy").click()
        listed = printer.pick(page)
        _wait_printed(page)
        data, types, sizes = printer.take()
        assert [d["id"] for d in listed] == ["09:09:09:09:09:01"]
        assert types == {"write-without-response"} and max(sizes) <= 20  # every write fits the smallest MTU
        _printed_copy(data, url, auto, muni, columns=32, max_width=384)
        expect(page.locator("#print-printer")).to_contain_text("Impressora: MPT-II, papel de 58 mm.")
        save_shot(page, "operator-copy-printed", full_page=True)
        assert serious_violations(page) == []

        # Another day, the same phone: the paired printer prints with no chooser at all.
        prompts_before = len(printer.prompts)
        page.reload()
        printer.after_reload()
        expect(page.locator("#print-copy")).to_be_visible()
        page.locator("#print-copy").click()
        _wait_printed(page)
        again, _, _ = printer.take()
        assert len(printer.prompts) == prompts_before
        assert again == data  # the same signed copy, byte for byte

        # 80 mm paper, set on the printer screen.
        page.locator("#printer-settings").click()
        expect(page.locator("h1")).to_have_text("Impressora Bluetooth")
        expect(page.locator("#printer-current")).to_have_text("Impressora pareada: MPT-II.")
        page.get_by_label("80 mm").check()
        save_shot(page, "fiscal-printer", full_page=True)
        assert serious_violations(page) == []
        page.locator("#printer-test").click()
        expect(page.locator("#printer-status")).to_have_text("Teste impresso em MPT-II.", timeout=120000)
        test_page = decode(printer.take()[0])
        assert "papel de 80 mm" in test_page.text and "á à â ã é ê í ó ô õ ú ü ç" in test_page.text
        page.locator("#printer-back").click()
        expect(page.locator("#print-copy")).to_be_visible()
        page.locator("#print-copy").click()
        _wait_printed(page)
        wide = _printed_copy(printer.take()[0], url, auto, muni, columns=48, max_width=576)
        assert max(len(line.raw) for line in wide.lines) > 32 and wide.images[0].width > 384
        assert not errors, errors


# 0xFFE0: a printer never connected to this phone, found by its advertisement during the scan
# (this Chromium gives such a device no name: it is asked for again by its services); 0xFF00: one
# the phone is connected to (preconnected), named.
@pytest.mark.parametrize("service,characteristic,advertised", [(0xFFE0, 0xFFE1, True), (0xFF00, 0xFF02, False)])
def test_without_get_devices_the_print_tap_asks_for_the_saved_printer_again(browser, live_server, live_app, operator_access,
                                                                          service, characteristic, advertised):
    with _launched(browser, WITHOUT_GET_DEVICES) as browser:
        context, page, auto, muni, errors = _issue_offline(
            browser, live_server, live_app, operator_access, "paranatinga",
            f"Celular sem getDevices {service:04x}", "9753")
        assert page.evaluate("typeof navigator.bluetooth.getDevices") == "undefined"
        url = read_issued_copy(page, live_server, f"paranatinga-bluetooth-{service:04x}")
        printer = EmulatedPrinter(browser, page, address="09:09:09:09:09:02", name="MPT-II", service=service,
                                  characteristic=characteristic, advertised=advertised)
        name = None if advertised else "MPT-II"  # the status names what the browser knows
        # Another printer nearby, connected to the phone: the first chooser lists both; the fiscal taps theirs.
        other = "09:09:09:09:09:03"

        def nearby():
            printer.cdp.send("BluetoothEmulation.simulatePreconnectedPeripheral", {
                "address": other, "name": "Outra", "manufacturerData": [], "knownServiceUuids": [uuid16(0x18F0)]})
        nearby()
        page.locator("#print-copy").click()
        if advertised:
            printer.advertise(page)
        prompt = printer.chooser(page, count=2)
        assert {d["id"] for d in prompt["devices"]} == {printer.address, other}
        printer.tap(prompt, printer.address)
        _wait_printed(page, name)
        data, types, sizes = printer.take()
        assert max(sizes) <= 20 and types == {"write-without-response"}
        _printed_copy(data, url, auto, muni, columns=32, max_width=384)

        # The page is reloaded: this browser forgot the permission. The tap asks again — for the
        # saved printer alone when it has a name (one tap), else by the printers' services.
        page.reload()
        printer.after_reload()
        nearby()
        expect(page.locator("#print-printer")).to_contain_text("Impressora: " + ("sem nome" if advertised else "MPT-II"))
        page.locator("#print-copy").click()
        if advertised:
            printer.advertise(page)
        prompt = printer.chooser(page, count=2 if advertised else 1)
        listed = {d["id"] for d in prompt["devices"]}
        assert listed == ({printer.address, other} if advertised else {printer.address}), listed
        printer.tap(prompt, printer.address)
        _wait_printed(page, name)
        assert printer.take()[0] == data
        save_shot(page, f"operator-copy-printed-again-{service:04x}", full_page=True)
        assert serious_violations(page) == []
        assert not errors, errors
