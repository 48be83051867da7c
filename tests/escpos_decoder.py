"""An ESC/POS decoder for the tests: the bytes a thermal printer receives → what it would print.

Written from Epson's ESC/POS command reference, independently of pwa/js/print/: text lines in the
code page the stream selects (ESC t), their weight and alignment, line feeds, and raster images
(GS v 0) put back together band by band; the QR command (GS ( k) is read too, as the data it
stores and prints. A byte the decoder does not know is an error, so junk in a stream fails a test.
"""
from dataclasses import dataclass, field

from PIL import Image

# ESC t n → Python codec (Epson's numbering).
CODE_PAGES = {0: "cp437", 2: "cp850", 3: "cp860", 16: "cp1252", 19: "cp858"}
ESC, GS, LF, CR = 0x1B, 0x1D, 0x0A, 0x0D


class EscPosError(ValueError):
    pass


@dataclass
class Line:
    text: str
    raw: bytes
    bold: bool
    align: int  # 0 left, 1 centre, 2 right


@dataclass
class Printout:
    items: list = field(default_factory=list)  # Line | Image.Image | ("qr", bytes) in print order
    code_pages: list = field(default_factory=list)
    feed_lines: int = 0

    @property
    def lines(self):
        return [item for item in self.items if isinstance(item, Line)]

    @property
    def images(self):
        return [item for item in self.items if isinstance(item, Image.Image)]

    @property
    def text(self):
        return "\n".join(line.text for line in self.lines)


def decode(data: bytes) -> Printout:
    out = Printout()
    code_page = "cp437"  # the printer's default table after ESC @
    bold, align = False, 0
    line = bytearray()
    band_rows = []  # raster rows of consecutive GS v 0 bands: (width_bytes, row bytes)
    qr_data = None
    i = 0

    def need(n):
        if i + n > len(data):
            raise EscPosError(f"command at {i} cut short")

    def flush_raster():
        if not band_rows:
            return
        width = max(w for w, _ in band_rows) * 8
        image = Image.new("1", (width, len(band_rows)), 1)
        pixels = image.load()
        for y, (w, row) in enumerate(band_rows):
            for x in range(w * 8):
                if row[x >> 3] & (0x80 >> (x & 7)):
                    pixels[x, y] = 0
        out.items.append(image)
        band_rows.clear()

    def end_line():
        out.items.append(Line(bytes(line).decode(code_page), bytes(line), bold, align))
        line.clear()

    while i < len(data):
        b = data[i]
        if b == LF:
            flush_raster()
            end_line()
            i += 1
        elif b == CR:
            i += 1
        elif b == ESC:
            need(2)
            cmd = data[i + 1]
            if cmd == 0x40:  # ESC @ initialise
                code_page, bold, align = "cp437", False, 0
                i += 2
            elif cmd == 0x74:  # ESC t n code page
                need(3)
                if data[i + 2] not in CODE_PAGES:
                    raise EscPosError(f"code page {data[i + 2]} unknown to this decoder")
                code_page = CODE_PAGES[data[i + 2]]
                out.code_pages.append(data[i + 2])
                i += 3
            elif cmd == 0x61:  # ESC a n justification
                need(3)
                align = data[i + 2] % 48 if data[i + 2] >= 48 else data[i + 2]
                i += 3
            elif cmd == 0x45:  # ESC E n emphasis
                need(3)
                bold = bool(data[i + 2] & 1)
                i += 3
            elif cmd == 0x64:  # ESC d n print and feed n lines
                need(3)
                flush_raster()
                if line:
                    end_line()
                out.feed_lines += data[i + 2]
                i += 3
            else:
                raise EscPosError(f"ESC {cmd:#04x} at {i} unknown to this decoder")
        elif b == GS:
            need(2)
            cmd = data[i + 1]
            if cmd == 0x76:  # GS v 0 m xL xH yL yH d1…dk raster bit image
                need(8)
                if data[i + 2] != 0x30:
                    raise EscPosError("GS v other than GS v 0")
                if data[i + 3] not in (0, 48):
                    raise EscPosError("GS v 0 scaled modes are not used")
                width = data[i + 4] | data[i + 5] << 8
                rows = data[i + 6] | data[i + 7] << 8
                need(8 + width * rows)
                body = data[i + 8:i + 8 + width * rows]
                if band_rows and band_rows[-1][0] != width:
                    flush_raster()
                band_rows.extend((width, body[r * width:(r + 1) * width]) for r in range(rows))
                i += 8 + width * rows
            elif cmd == 0x28 and i + 2 < len(data) and data[i + 2] == 0x6B:  # GS ( k: 2D codes
                need(5)
                length = data[i + 3] | data[i + 4] << 8
                need(5 + length)
                cn, fn, params = data[i + 5], data[i + 6], data[i + 7:i + 5 + length]
                if cn == 0x31 and fn == 0x50:  # store QR data (m = 0x30 first)
                    qr_data = bytes(params[1:])
                elif cn == 0x31 and fn == 0x51:  # print the stored QR
                    out.items.append(("qr", qr_data))
                i += 5 + length
            elif cmd == 0x21:  # GS ! n character size
                need(3)
                i += 3
            else:
                raise EscPosError(f"GS {cmd:#04x} at {i} unknown to this decoder")
        elif b < 0x20 or b == 0x7F:
            raise EscPosError(f"control byte {b:#04x} at {i} unknown to this decoder")
        else:
            flush_raster()
            line.append(b)
            i += 1
    flush_raster()
    if line:
        end_line()
    return out


def qr_image(image: Image.Image, scale: int = 2) -> Image.Image:
    """A raster image as a camera-friendly picture for a decoder: grey, scaled, with a margin."""
    grey = image.convert("L")
    big = grey.resize((grey.width * scale, grey.height * scale), Image.Resampling.NEAREST)
    framed = Image.new("L", (big.width + 40, big.height + 40), 255)
    framed.paste(big, (20, 20))
    return framed
