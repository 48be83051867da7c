"""Uploaded images, opened safely: the one place every image upload goes through.

A small file can declare a huge picture (a 140 KB PNG of 12,000 × 12,000 pixels decodes to
~430 MB of RGB). Pillow reads the size from the header without decoding the pixels, so the
size is checked against IMAGE_MAX_PIXELS *before* decoding; Pillow's own decompression-bomb
warning is turned into the same refusal as a second line. Every refusal is an ApiError naming
the form/JSON field, in pt-BR:
  413 image_too_large   bytes over the limit, or width × height over IMAGE_MAX_PIXELS;
  422 validation_error  empty, not an image, or a format we do not accept.

Use: `img = open_upload(data, field="photo")` → an RGB PIL image, EXIF orientation applied
(callers re-encode it, which also drops EXIF metadata such as GPS position: LGPD).

Memory and concurrency (issue 36): a photo just under the limit cost ~460 MB to decode, and 12 at
once ~5 GB. A caller that needs only `target` pixels (an operator photo: 600 × 800) gets the image
decoded small: JPEG through Pillow's `draft()` (the decoder scales by 1/2, 1/4 or 1/8 while it
decodes, never holding the full picture), other formats reduced by an integer factor right after
decoding; orientation and colour conversion are then done on the small image. At most
IMAGE_MAX_CONCURRENT_DECODES decodes run at once per process (default 2); an upload that waits
longer than IMAGE_DECODE_WAIT_SECONDS for its turn is answered 503 "busy". Measured in
docs/benchmarks/image-decode.md.
"""
import io
import threading
import warnings
from contextlib import contextmanager

from flask import current_app, has_app_context
from PIL import Image, UnidentifiedImageError

from .errors import ApiError

DEFAULT_MAX_PIXELS = 40_000_000  # 40 megapixels: above any phone's normal photo (12–24 MP)
DEFAULT_MAX_BYTES = 8 * 1024 * 1024
ACCEPTED_FORMATS = ("JPEG", "PNG", "WEBP")
DEFAULT_MAX_CONCURRENT_DECODES = 2
DEFAULT_DECODE_WAIT_SECONDS = 30
# EXIF orientation → the transpose that shows the picture upright (as ImageOps.exif_transpose does).
ORIENTATION = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180,
               4: Image.Transpose.FLIP_TOP_BOTTOM, 5: Image.Transpose.TRANSPOSE,
               6: Image.Transpose.ROTATE_270, 7: Image.Transpose.TRANSVERSE, 8: Image.Transpose.ROTATE_90}
REDUCIBLE_MODES = ("RGB", "RGBA", "L", "LA", "CMYK", "I", "F")  # Image.reduce refuses palettes and 1-bit
_slots_lock = threading.Lock()
_slots = {}  # limit → the process's semaphore for that limit


def _setting(name, default):
    if has_app_context():
        return int(current_app.config.get(name, default))
    return default


def max_pixels() -> int:
    return _setting("IMAGE_MAX_PIXELS", DEFAULT_MAX_PIXELS)


@contextmanager
def decode_slot(field: str = "photo"):
    """One of the process's IMAGE_MAX_CONCURRENT_DECODES turns to hold decoded pixels; 503 when
    none frees up within IMAGE_DECODE_WAIT_SECONDS."""
    limit = max(1, _setting("IMAGE_MAX_CONCURRENT_DECODES", DEFAULT_MAX_CONCURRENT_DECODES))
    with _slots_lock:
        slot = _slots.setdefault(limit, threading.BoundedSemaphore(limit))
    if not slot.acquire(timeout=_setting("IMAGE_DECODE_WAIT_SECONDS", DEFAULT_DECODE_WAIT_SECONDS)):
        raise ApiError(503, "busy", "Servidor ocupado processando outras imagens. Tente de novo em instantes.",
                       {field: ["Servidor ocupado processando outras imagens. Envie de novo em instantes."]})
    try:
        yield
    finally:
        slot.release()


def _refuse(field, message, status=422, code="validation_error"):
    return ApiError(status, code, "Imagem recusada." if status == 413 else "Dados inválidos.",
                    {field: [message]})


def bomb_refusal(field: str = "photo") -> ApiError:
    """The 413 for an image Pillow itself refuses to open as a decompression bomb."""
    return _refuse(field, "Imagem grande demais para ser processada.", status=413, code="image_too_large")


def check_dimensions(width: int, height: int, field: str = "photo"):
    """Raise 413 when width × height is over the limit (for callers that read sizes themselves)."""
    limit = max_pixels()
    if width * height > limit:
        raise _refuse(field, f"Imagem grande demais: {width} × {height} pixels "
                             f"(máximo {limit / 1_000_000:g} megapixels). Reduza a resolução e envie de novo.",
                      status=413, code="image_too_large")


def _decode(data, kind, target):
    """The decoded image, no larger than needed to cover `target` (upright width, height) when given.
    Intermediate images are freed as soon as they are replaced (nothing else holds them); the file's
    own image is closed here unless it is the one returned."""
    src = Image.open(io.BytesIO(data))
    img = src
    try:
        orientation = src.getexif().get(0x0112, 1)  # from the header, before any pixel
        if target is not None:
            need = target[::-1] if orientation in (5, 6, 7, 8) else target  # the stored picture lies on its side
            if kind == "JPEG":
                src.draft("RGB", need)  # decoded at 1/2, 1/4 or 1/8 scale, still covering `need`
            src.load()
            factor = min(src.width // need[0], src.height // need[1])
            if factor >= 2:
                if img.mode not in REDUCIBLE_MODES:
                    img = img.convert("RGBA" if "transparency" in img.info else "RGB")
                img = img.reduce(factor)
                src.close()  # the full-size pixels go now, not when the caller is done
        else:
            src.load()
        method = ORIENTATION.get(orientation)
        if method is not None:
            img = img.transpose(method)
        if img.mode != "RGB":
            img = img.convert("RGB")
        return img
    finally:
        if img is not src:
            src.close()


def open_upload(data: bytes, field: str = "photo", max_bytes: int = DEFAULT_MAX_BYTES,
                formats=ACCEPTED_FORMATS, target=None):
    """Uploaded bytes → a decoded RGB image with EXIF orientation applied, or an ApiError.
    `target` (width, height): the caller scales it down to cover that box, so it is decoded only
    as large as needed (at least `target` on both sides, unless the upload is smaller)."""
    if not data:
        raise _refuse(field, "Escolha um arquivo de imagem.")
    if len(data) > max_bytes:
        raise _refuse(field, f"Arquivo grande demais (máximo {max_bytes // (1024 * 1024)} MB).",
                      status=413, code="image_too_large")
    try:
        with warnings.catch_warnings():
            # Pillow warns past its own MAX_IMAGE_PIXELS; a warning must never let a bomb through.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as probe:  # reads the header only
                kind = probe.format
                check_dimensions(*probe.size, field=field)
                probe.verify()
            if kind not in formats:
                names = ", ".join(formats[:-1]) + f" ou {formats[-1]}" if len(formats) > 1 else formats[0]
                raise _refuse(field, f"Envie uma imagem {names}.")
            with decode_slot(field):
                return _decode(data, kind, target)
    except (Image.DecompressionBombWarning, Image.DecompressionBombError):
        raise bomb_refusal(field) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError):
        raise _refuse(field, "O arquivo não é uma imagem válida.") from None
