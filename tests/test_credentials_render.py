"""Crachá and vest stickers: exact print sizes, and the printed QR decodes (zxing-cpp) back to the
payload: a URL in alphanumeric mode, version <= 10, level Q, modules >= 0.4 mm of whole dots."""
import io
import re
import shutil
import subprocess
from datetime import date

import pytest
import zxingcpp
from PIL import Image

from qrcode.util import MODE_ALPHA_NUM

from server import create_app
from server.modules.credentials.codec import (
    MAX_PERMIT_NUMBER_LEN, Body, encode_body, make_payload, make_url_payload)
from server.modules.credentials.render import (
    CardData, card_pdf_bytes, card_png_bytes, check_public_base_url, qr_mode, qr_version,
    sticker_sheet_pdf_bytes)
from server.modules.credentials.signing import generate, sign

MM_PER_PT = 25.4 / 72
DOT_MM = 25.4 / 300
BASE_URL = "https://motofiscal.paranatinga.mt.gov.br"  # a realistic host: 32 characters


def payload_for(number, kid=255, ibge=9_999_999, serial=2**32 - 1, expires=date(2099, 12, 31), legacy=False,
                base_url=BASE_URL):
    body = encode_body(Body(kid=kid, ibge_code=ibge, serial=serial, expires_on=expires, permit_number=number))
    signature = sign(generate(), body)
    return make_payload(body, signature) if legacy else make_url_payload(body, signature, base_url)


LONGEST = payload_for("Z/" * (MAX_PERMIT_NUMBER_LEN // 2))
LEGACY = payload_for("PNT-26/001", kid=1, ibge=5106307, serial=1, legacy=True)
CARD = CardData(municipality_name="Paranatinga", uf="MT", permit_number="Z/" * 10,
                operator_name="Maria da Conceição Aparecida dos Santos Figueiredo", plate="QBX4F21",
                ponto="Ponto 3 – Praça da Matriz", valid_until=date(2027, 6, 30), serial=123456,
                payload=LONGEST, issued_on=date(2026, 11, 29), blood_type="AB-",
                legal_basis="Lei 311/2007, art. 11, XV")


def read_qr(image):
    results = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)  # no 1-D false positives
    return [r for r in results if r.format == zxingcpp.BarcodeFormat.QRCode]


def decode_qr(image):
    return [r.text for r in read_qr(image)]


def module_mm(result, dpi):
    """Module size of a decoded QR, from its corners and its version (17 + 4v modules a side)."""
    pos = result.position
    side_px = ((pos.top_right.x - pos.top_left.x) ** 2 + (pos.top_right.y - pos.top_left.y) ** 2) ** 0.5
    modules = 17 + 4 * int(result.extra["Version"])
    # zxing's corners are module centres' outer edges to within a pixel either way.
    return (side_px + 1) / modules * 25.4 / dpi


def test_longest_payload_is_an_upper_case_url_within_version_10():
    assert LONGEST.startswith("HTTPS://MOTOFISCAL.PARANATINGA.MT.GOV.BR/V/")
    assert len(LONGEST) == 43 + 154  # (12 + 20 + 64) bytes -> 154 base32 characters
    assert qr_mode(LONGEST) == MODE_ALPHA_NUM
    assert qr_version(LONGEST) == 10


def test_typical_payload_length():
    payload = payload_for("PNT-26/001", kid=1, ibge=5106307, serial=1)
    assert len(payload) == 43 + 138  # 22-byte body + 64-byte signature = 86 bytes -> 138 characters
    assert qr_mode(payload) == MODE_ALPHA_NUM and qr_version(payload) == 9


def test_first_format_still_renders_in_alphanumeric_mode():
    assert qr_mode(LEGACY) == MODE_ALPHA_NUM and qr_version(LEGACY) == 8
    card = CardData(**{**CARD.__dict__, "payload": LEGACY})
    assert decode_qr(Image.open(io.BytesIO(card_png_bytes(card)))) == [LEGACY]


def test_public_base_url_must_keep_the_longest_crachá_within_version_10():
    # Longest host that still fits, found by trying: the next one up must be refused.
    fits = [n for n in range(30, 80) if _fits("https://" + "a" * n)]
    longest = max(fits)
    assert fits == list(range(30, longest + 1)) and 50 <= longest < 60
    assert qr_version(payload_for("Z/" * 10, base_url="https://" + "a" * longest)) == 10
    with pytest.raises(ValueError):
        check_public_base_url("https://" + "a" * (longest + 1))


def _fits(url):
    try:
        check_public_base_url(url)
        return True
    except ValueError:
        return False


@pytest.mark.parametrize("url", ["https://x.gov.br/motofiscal", "motofiscal.gov.br", "https://moto_fiscal.gov.br"])
def test_app_refuses_to_start_with_an_unusable_public_base_url(tmp_path, url):
    with pytest.raises(RuntimeError, match="PUBLIC_BASE_URL"):
        create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/x.db",
                    "SECRET_KEY": "x", "INSTANCE_DIR": str(tmp_path), "PUBLIC_BASE_URL": url})


def test_card_png_is_id1_at_300_dpi_and_qr_decodes():
    img = Image.open(io.BytesIO(card_png_bytes(CARD)))
    assert img.size == (1011, 638)  # 85.6 x 54 mm at 300 dpi
    assert tuple(round(v) for v in img.info["dpi"]) == (300, 300)
    [qr] = read_qr(img)
    assert qr.text == LONGEST and qr.ec_level == "Q" and qr.extra["Version"] == "10"
    assert qr.content_type == zxingcpp.ContentType.Text
    size = module_mm(qr, 300)
    dots = round(size / DOT_MM)
    assert abs(size - dots * DOT_MM) < 0.02 and dots * DOT_MM >= 0.4  # 6 dots = 0.51 mm


def test_card_without_photo_or_blood_type_still_decodes():
    card = CardData(**{**CARD.__dict__, "blood_type": None, "photo": None})
    assert decode_qr(Image.open(io.BytesIO(card_png_bytes(card)))) == [LONGEST]


def _media_boxes(pdf: bytes):
    return [tuple(float(v) for v in m) for m in
            re.findall(rb"/MediaBox\s*\[\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*\]", pdf)]


def test_card_pdf_page_is_exactly_85_6_by_54_mm():
    boxes = _media_boxes(card_pdf_bytes(CARD))
    assert len(boxes) == 1
    x0, y0, x1, y1 = boxes[0]
    assert abs((x1 - x0) * MM_PER_PT - 85.6) < 0.01 and abs((y1 - y0) * MM_PER_PT - 54.0) < 0.01


def test_sticker_sheet_is_a4():
    boxes = _media_boxes(sticker_sheet_pdf_bytes(CARD))
    assert len(boxes) == 1
    x0, y0, x1, y1 = boxes[0]
    assert abs((x1 - x0) * MM_PER_PT - 210) < 0.05 and abs((y1 - y0) * MM_PER_PT - 297) < 0.05


@pytest.mark.skipif(shutil.which("pdftoppm") is None,
                    reason="needs pdftoppm (Debian package poppler-utils) to rasterize the PDFs")
def test_pdfs_rasterize_and_their_qrs_decode(tmp_path):
    for name, pdf, dpi, expected in (("card", card_pdf_bytes(CARD), 300, 1),
                                     ("sheet", sticker_sheet_pdf_bytes(CARD), 100, 6)):
        (tmp_path / f"{name}.pdf").write_bytes(pdf)
        subprocess.run(["pdftoppm", "-r", str(dpi), "-png", "-singlefile", str(tmp_path / f"{name}.pdf"),
                        str(tmp_path / name)], check=True)
        image = Image.open(tmp_path / f"{name}.png")
        if name == "card":
            assert abs(image.width - 1011) <= 1 and abs(image.height - 638) <= 1
        found = read_qr(image)
        assert [r.text for r in found] == [LONGEST] * expected
        assert {(r.ec_level, r.extra["Version"]) for r in found} == {("Q", "10")}
        assert all(module_mm(r, dpi) >= 0.4 for r in found)


@pytest.mark.skipif(shutil.which("pdftoppm") is None,
                    reason="needs pdftoppm (Debian package poppler-utils) to rasterize the PDFs")
def test_sticker_modules_are_a_whole_number_of_300_dpi_dots(tmp_path):
    (tmp_path / "sheet.pdf").write_bytes(sticker_sheet_pdf_bytes(CARD))
    subprocess.run(["pdftoppm", "-r", "300", "-png", "-singlefile", str(tmp_path / "sheet.pdf"),
                    str(tmp_path / "sheet")], check=True)
    found = read_qr(Image.open(tmp_path / "sheet.png"))
    assert len(found) == 6
    for r in found:
        size = module_mm(r, 300)
        dots = round(size / DOT_MM)
        assert abs(size - dots * DOT_MM) < 0.03 and dots >= 5, (size, dots)  # ~11 dots = 0.93 mm


def test_photo_fills_the_photo_box_and_company_is_printed():
    photo = io.BytesIO()
    Image.new("RGB", (300, 400), (200, 30, 30)).save(photo, "JPEG")
    card = CardData(**{**CARD.__dict__, "photo": photo.getvalue(), "blood_type": None,
                       "company": "Norte Moto Táxi"})
    img = Image.open(io.BytesIO(card_png_bytes(card))).convert("RGB")
    r, g, b = img.getpixel((144, 300))  # centre of the 3:4 photo box
    assert r > 170 and g < 70 and b < 70
    without = Image.open(io.BytesIO(card_png_bytes(CARD))).convert("RGB")
    assert without.getpixel((144, 300))[0] < 170  # silhouette/placeholder otherwise
    assert decode_qr(img) == [LONGEST]
