"""Printing: the crachá (ID-1 card, 85.6 x 54 mm) as a 300-dpi PNG and a PDF of that exact page
size, and an A4 sheet of vest stickers (QR + permit number, large). No database here: callers
pass a CardData. QR: alphanumeric mode, error correction Q, version <= 10, 4-module quiet zone,
modules of a whole number of printer dots (300 dpi) and at least 0.4 mm.
"""
import functools
import io
from ...core.ptbr import plate as plate_text
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import qrcode
from qrcode.util import MODE_8BIT_BYTE, MODE_ALPHA_NUM, QRData
from fpdf import FPDF
from PIL import Image, ImageDraw, ImageFont

from .codec import MAX_CODE_LEN, url_prefix

DPI = 300
CARD_MM = (85.6, 54.0)
CARD_PX = (1011, 638)  # round(85.6 / 25.4 * 300), round(54 / 25.4 * 300)
QUIET_ZONE = 4
MAX_QR_VERSION = 10  # URL form with a host of up to ~54 characters (docs/credentials.md)
DOT_MM = 25.4 / DPI  # one printer dot at 300 dpi (two at 600 dpi)
MIN_MODULE_MM = 0.4
QR_BOX_PX = 392  # the crachá's QR square, quiet zone included: version 10 at 6 px (0.51 mm)
ALNUM = set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")

NAVY = (17, 54, 104)
YELLOW = (255, 204, 0)  # the service's identifying colour band
INK = (20, 20, 20)
GREY = (110, 110, 110)
FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/share/fonts/TTF")


@dataclass
class CardData:
    municipality_name: str
    uf: str
    permit_number: str
    operator_name: str
    plate: str
    ponto: str
    valid_until: date
    serial: int
    payload: str
    issued_on: date
    blood_type: str | None = None  # printed only when the municipality's setting asks for it
    photo: bytes | None = None  # the operator's stored JPEG
    legal_basis: str | None = None  # e.g. "Lei 311/2007, art. 11, XV"
    company: str | None = None  # the authorised company, where the permit holder is one
    permit_label: str = "PERMISSÃO"  # the law's word (registry.vocabulary): "ALVARÁ DE AUTORIZAÇÃO"


@functools.lru_cache(maxsize=128)  # a few sizes per card; loading a TrueType file costs more than drawing
def _font(size: int, bold: bool = False):
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in FONT_DIRS:
        if (Path(folder) / name).exists():
            return ImageFont.truetype(str(Path(folder) / name), size)
    return ImageFont.load_default(size)  # Pillow's bundled font: fine, less pretty


def _qr(payload: str) -> qrcode.QRCode:
    qr = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_Q, border=QUIET_ZONE)
    # One alphanumeric segment for the whole text (both envelopes are alphanumeric): the smallest
    # symbol, and every decoder returns a clean string. Anything else would be byte mode.
    mode = MODE_ALPHA_NUM if set(payload) <= ALNUM else MODE_8BIT_BYTE
    qr.add_data(QRData(payload.encode("ascii", "strict") if mode == MODE_ALPHA_NUM else payload, mode=mode))
    qr.make(fit=True)
    return qr


def qr_mode(payload: str) -> int:
    return _qr(payload).data_list[0].mode


@functools.lru_cache(maxsize=32)  # a card asks twice (module size, then image); a sheet once per card
def qr_matrix(payload: str) -> tuple[tuple[bool, ...], ...]:
    """Module matrix including the quiet zone (immutable: it is cached); raises when the payload
    needs more than v10."""
    qr = _qr(payload)
    if qr.version > MAX_QR_VERSION:
        raise ValueError(f"payload needs QR version {qr.version} > {MAX_QR_VERSION}")
    return tuple(tuple(row) for row in qr.get_matrix())


def qr_version(payload: str) -> int:
    return (len(qr_matrix(payload)) - 2 * QUIET_ZONE - 17) // 4


@functools.lru_cache(maxsize=16)  # a pure function of the URL, checked at every app start
def check_public_base_url(base_url: str) -> str:
    """The QR prefix for PUBLIC_BASE_URL; ValueError when the URL is unusable or its longest
    crachá (20-character permit number) would need a QR version over 10."""
    prefix = url_prefix(base_url)
    qr_version(prefix + "A" * MAX_CODE_LEN)  # raises past MAX_QR_VERSION
    return prefix


def card_module_px(payload: str) -> int:
    """Largest whole number of 300-dpi dots per module whose QR fits the crachá's QR box."""
    modules = len(qr_matrix(payload))
    px = QR_BOX_PX // modules
    if px * DOT_MM < MIN_MODULE_MM:
        raise ValueError(f"QR modules of {px * DOT_MM:.2f} mm are under {MIN_MODULE_MM} mm")
    return px


def qr_image(payload: str, module_px: int) -> Image.Image:
    matrix = qr_matrix(payload)
    size = len(matrix) * module_px
    img = Image.new("1", (size, size), 1)
    draw = ImageDraw.Draw(img)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                draw.rectangle([x * module_px, y * module_px, (x + 1) * module_px - 1,
                                (y + 1) * module_px - 1], fill=0)
    return img.convert("RGB")


def _silhouette(size):
    img = Image.new("RGB", size, (226, 230, 236))
    d = ImageDraw.Draw(img)
    w, h = size
    d.ellipse([w * 0.30, h * 0.16, w * 0.70, h * 0.52], fill=(160, 168, 180))
    d.ellipse([w * 0.12, h * 0.56, w * 0.88, h * 1.25], fill=(160, 168, 180))
    return img


def _photo(data, size):
    if data:
        with Image.open(io.BytesIO(data)) as src:
            src = src.convert("RGB")
            # Crop to the box's aspect ratio around the centre, then scale.
            ratio = size[0] / size[1]
            w, h = src.size
            if w / h > ratio:
                nw = int(h * ratio)
                src = src.crop(((w - nw) // 2, 0, (w - nw) // 2 + nw, h))
            else:
                nh = int(w / ratio)
                src = src.crop((0, (h - nh) // 4, w, (h - nh) // 4 + nh))
            return src.resize(size, Image.LANCZOS)
    return _silhouette(size)


def _fit(draw, text, max_width, size, bold=False, min_size=18):
    """Largest font (down to min_size) at which text fits max_width; ellipsis as a last resort."""
    while size > min_size and draw.textlength(text, font=_font(size, bold)) > max_width:
        size -= 1
    font = _font(size, bold)
    while draw.textlength(text, font=font) > max_width and len(text) > 1:
        text = text[:-2] + "…"
    return text, font


def _wrap(draw, text, max_width, font, max_lines=2):
    """Greedy word wrap into at most max_lines; the last line gets an ellipsis if cut."""
    lines, current = [], ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if draw.textlength(trial, font=font) <= max_width or not current:
            current = trial
        else:
            lines.append(current)
            current = word
    lines.append(current)
    if len(lines) > max_lines:
        lines = lines[:max_lines - 1] + [" ".join(lines[max_lines - 1:])]
    last = lines[-1]
    while draw.textlength(last, font=font) > max_width and len(last) > 1:
        last = last[:-2] + "…"
    return lines[:-1] + [last]


def card_png(card: CardData) -> Image.Image:
    """The crachá at 1011 x 638 px (85.6 x 54 mm at 300 dpi)."""
    W, H = CARD_PX
    img = Image.new("RGB", CARD_PX, "white")
    d = ImageDraw.Draw(img)

    # Header: issuing municipality and service name.
    d.rectangle([0, 0, W, 118], fill=NAVY)
    d.rectangle([0, 118, W, 132], fill=YELLOW)
    title, font = _fit(d, f"PREFEITURA MUNICIPAL DE {card.municipality_name.upper()} – {card.uf}", W - 60, 30, True)
    d.text((30, 16), title, font=font, fill="white")
    d.text((30, 58), "MOTO-TÁXI", font=_font(44, True), fill=YELLOW)
    d.text((W - 30, 74), "CREDENCIAL DO CONDUTOR", font=_font(24, True), fill="white", anchor="ra")

    # Photo, 3:4, left.
    photo_box = (30, 156, 30 + 228, 156 + 304)
    img.paste(_photo(card.photo, (228, 304)), photo_box[:2])
    d.rectangle(photo_box, outline=NAVY, width=3)

    # QR, right: whole pixels per module, quiet zone included in the white square (which may
    # reach close to the card's edge: it is white card either way).
    qr = qr_image(card.payload, card_module_px(card.payload))
    qx, qy = W - 8 - qr.width, 132 + (H - 62 - 132 - qr.height) // 2
    img.paste(qr, (qx, qy))

    # Fields between photo and QR.
    x, right = 282, qx - 8
    width = right - x
    y = 150
    size = 30
    while size > 22 and "…" in "".join(_wrap(d, card.operator_name.upper(), width, _font(size, True))):
        size -= 2
    # A long Brazilian name gets a third line when there is room (no company field below).
    lines = 2 if card.company else 3
    for line in _wrap(d, card.operator_name.upper(), width, _font(size, True), max_lines=lines):
        d.text((x, y), line, font=_font(size, True), fill=INK)
        y += size + 6
    y += 14

    def field(label, value, value_size=32):
        nonlocal y
        d.text((x, y), label, font=_font(19, True), fill=GREY)
        text, f = _fit(d, value, width, value_size, True, min_size=20)
        d.text((x, y + 22), text, font=f, fill=INK)
        y += 22 + value_size + 16

    field(f"{card.permit_label} Nº", card.permit_number)
    field("PLACA", plate_text(card.plate))
    field("PONTO", card.ponto or "—", 26)
    field("VALIDADE", card.valid_until.strftime("%d/%m/%Y"))
    if card.company:
        field("EMPRESA AUTORIZADA", card.company, 24)
    if card.blood_type:
        # Placed under the photo so it never crowds the identifying fields.
        d.text((30, 474), "TIPO SANGUÍNEO", font=_font(19, True), fill=GREY)
        d.text((30, 496), card.blood_type, font=_font(40, True), fill=(170, 20, 30))

    # Footer.
    d.rectangle([0, H - 62, W, H], fill=NAVY)
    left = f"Série {card.serial:06d} · emitida em {card.issued_on.strftime('%d/%m/%Y')}"
    if card.legal_basis:
        left += f" · {card.legal_basis}"
    text, font = _fit(d, left, W - 60 - 300, 20)
    d.text((30, H - 44), text, font=font, fill="white")
    d.text((W - 30, H - 44), "Verifique pelo QR", font=_font(20, True), fill=YELLOW, anchor="ra")
    return img


def card_png_bytes(card: CardData) -> bytes:
    buf = io.BytesIO()
    card_png(card).save(buf, format="PNG", dpi=(DPI, DPI))
    return buf.getvalue()


def card_pdf_bytes(card: CardData) -> bytes:
    """One page of exactly 85.6 x 54 mm holding the 300-dpi card image edge to edge."""
    pdf = FPDF(unit="mm", format=CARD_MM)
    pdf.set_auto_page_break(False)
    pdf.set_margin(0)
    pdf.add_page()
    buf = io.BytesIO(card_png_bytes(card))
    pdf.image(buf, x=0, y=0, w=CARD_MM[0], h=CARD_MM[1])
    pdf.set_title(f"Crachá {card.permit_number}")
    return bytes(pdf.output())


# Vest stickers: 2 x 3 on A4, each 90 x 88 mm, QR up to 64 mm wide (modules ~1 mm at v10).
STICKER_MM = (90.0, 88.0)
STICKER_QR_MM = 64.0


def _pdf_font(pdf):
    for folder in FONT_DIRS:
        if (Path(folder) / "DejaVuSans-Bold.ttf").exists():
            pdf.add_font("dejavu", "B", str(Path(folder) / "DejaVuSans-Bold.ttf"))
            return "dejavu"
    return "helvetica"  # core font: Latin-1 only, enough for "PERMISSÃO Nº"


def sticker_module_mm(payload: str, size_mm: float = STICKER_QR_MM) -> float:
    """Module size for a QR of at most size_mm: a whole number of 300-dpi dots (so also of
    600-dpi dots), so a printer draws every module the same width."""
    return (size_mm / len(qr_matrix(payload)) // DOT_MM) * DOT_MM


def pdf_qr(pdf, payload, x, y, size_mm):
    """QR as vector squares, centred in a size_mm square, modules a whole number of dots."""
    matrix = qr_matrix(payload)
    m = sticker_module_mm(payload, size_mm)
    x += (size_mm - m * len(matrix)) / 2
    y += (size_mm - m * len(matrix)) / 2
    pdf.set_fill_color(0, 0, 0)
    for row_i, row in enumerate(matrix):
        col = 0
        while col < len(row):  # one rectangle per horizontal run of dark modules
            if row[col]:
                start = col
                while col < len(row) and row[col]:
                    col += 1
                pdf.rect(x + start * m, y + row_i * m, (col - start) * m, m, style="F")
            else:
                col += 1


def sticker_sheet_pdf_bytes(card: CardData, count: int = 6) -> bytes:
    """A4 sheet of vest stickers for one credential: QR + permit number, large, with cut marks."""
    pdf = FPDF(unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_margin(0)
    pdf.add_page()
    font = _pdf_font(pdf)
    cols, rows = 2, 3
    left = (210 - cols * STICKER_MM[0]) / 2
    top = (297 - rows * STICKER_MM[1]) / 2
    for i in range(min(count, cols * rows)):
        x = left + (i % cols) * STICKER_MM[0]
        y = top + (i // cols) * STICKER_MM[1]
        pdf.set_draw_color(170, 170, 170)
        pdf.set_line_width(0.2)
        pdf.rect(x, y, *STICKER_MM)  # cut line
        pdf_qr(pdf, card.payload, x + (STICKER_MM[0] - STICKER_QR_MM) / 2, y + 3, STICKER_QR_MM)
        pdf.set_text_color(0, 0, 0)
        size = 26
        pdf.set_font(font, "B", size)
        while size > 12 and pdf.get_string_width(card.permit_number) > STICKER_MM[0] - 6:
            size -= 1
            pdf.set_font(font, "B", size)
        pdf.set_xy(x, y + 3 + STICKER_QR_MM + 0.5)
        pdf.cell(STICKER_MM[0], 11, card.permit_number, align="C")
        pdf.set_font(font, "B", 9)
        pdf.set_xy(x, y + 3 + STICKER_QR_MM + 12)
        pdf.cell(STICKER_MM[0], 5, f"MOTO-TÁXI · {card.municipality_name.upper()}", align="C")
    pdf.set_title(f"Adesivos do colete {card.permit_number}")
    return bytes(pdf.output())


# A4 sheets of crachás (bulk issuance): 2 x 5 cards of 85.6 x 54 mm each, with a thin cut line.
SHEET_COLS, SHEET_ROWS = 2, 5


def cards_sheet_pdf_bytes(cards, title="Crachás") -> bytes:
    """Every card (CardData) at its exact size, ten to an A4 page, in the given order: the same
    300-dpi image as the single crachá's PNG/PDF, so a sheet prints what one card prints."""
    pdf = FPDF(unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_margin(0)
    per_page = SHEET_COLS * SHEET_ROWS
    left = (210 - SHEET_COLS * CARD_MM[0]) / 2
    top = (297 - SHEET_ROWS * CARD_MM[1]) / 2
    for i, card in enumerate(cards):
        if i % per_page == 0:
            pdf.add_page()
        slot = i % per_page
        x, y = left + (slot % SHEET_COLS) * CARD_MM[0], top + (slot // SHEET_COLS) * CARD_MM[1]
        buf = io.BytesIO()
        card_png(card).save(buf, format="PNG", compress_level=1)  # fpdf re-compresses: save fast
        pdf.image(buf, x=x, y=y, w=CARD_MM[0], h=CARD_MM[1])
        pdf.set_draw_color(170, 170, 170)
        pdf.set_line_width(0.1)
        pdf.rect(x, y, *CARD_MM)  # cut line
    pdf.set_title(title)
    return bytes(pdf.output())
