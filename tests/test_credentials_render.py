"""Crachá and vest stickers: exact print sizes, and the printed QR decodes back to the payload."""
import io
import re
import shutil
import subprocess
from datetime import date

import pytest
import zxingcpp
from PIL import Image

from server.modules.credentials.codec import MAX_PERMIT_NUMBER_LEN, Body, encode_body, make_payload
from server.modules.credentials.render import (
    CardData, card_pdf_bytes, card_png_bytes, qr_version, sticker_sheet_pdf_bytes)
from server.modules.credentials.signing import generate, sign

MM_PER_PT = 25.4 / 72


def payload_for(number, kid=255, ibge=9_999_999, serial=2**32 - 1, expires=date(2099, 12, 31)):
    body = encode_body(Body(kid=kid, ibge_code=ibge, serial=serial, expires_on=expires, permit_number=number))
    return make_payload(body, sign(generate(), body))


LONGEST = payload_for("Z/" * (MAX_PERMIT_NUMBER_LEN // 2))
CARD = CardData(municipality_name="Paranatinga", uf="MT", permit_number="Z/" * 10,
                operator_name="Maria da Conceição Aparecida dos Santos Figueiredo", plate="QBX4F21",
                ponto="Ponto 3 – Praça da Matriz", valid_until=date(2027, 6, 30), serial=123456,
                payload=LONGEST, issued_on=date(2026, 11, 29), blood_type="AB-",
                legal_basis="Lei 311/2007, art. 11, XV")


def decode_qr(image):
    results = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)  # no 1-D false positives
    return [r.text for r in results if r.format == zxingcpp.BarcodeFormat.QRCode]


def test_longest_payload_stays_within_qr_version_8():
    assert len(LONGEST) == 4 + (12 + MAX_PERMIT_NUMBER_LEN + 64) // 2 * 3  # 148 characters
    assert qr_version(LONGEST) <= 8


def test_typical_payload_length():
    payload = payload_for("PNT-26/001", kid=1, ibge=5106307, serial=1)
    assert len(payload) == 4 + 129  # 22-byte body + 64-byte signature
    assert qr_version(payload) == 8  # version 7 at level Q holds only 125 characters


def test_card_png_is_id1_at_300_dpi_and_qr_decodes():
    img = Image.open(io.BytesIO(card_png_bytes(CARD)))
    assert img.size == (1011, 638)  # 85.6 x 54 mm at 300 dpi
    assert tuple(round(v) for v in img.info["dpi"]) == (300, 300)
    assert decode_qr(img) == [LONGEST]


def test_card_without_photo_or_blood_type_still_decodes():
    card = CardData(**{**CARD.__dict__, "blood_type": None, "photo_path": "/nonexistent.jpg"})
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
        assert decode_qr(image) == [LONGEST] * expected


def test_photo_fills_the_photo_box_and_company_is_printed(tmp_path):
    photo = tmp_path / "foto.jpg"
    Image.new("RGB", (300, 400), (200, 30, 30)).save(photo)
    card = CardData(**{**CARD.__dict__, "photo_path": str(photo), "blood_type": None,
                       "company": "Norte Moto Táxi"})
    img = Image.open(io.BytesIO(card_png_bytes(card))).convert("RGB")
    r, g, b = img.getpixel((144, 300))  # centre of the 3:4 photo box
    assert r > 170 and g < 70 and b < 70
    without = Image.open(io.BytesIO(card_png_bytes(CARD))).convert("RGB")
    assert without.getpixel((144, 300))[0] < 170  # silhouette/placeholder otherwise
    assert decode_qr(img) == [LONGEST]
