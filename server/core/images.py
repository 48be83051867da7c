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
"""
import io
import warnings

from flask import current_app, has_app_context
from PIL import Image, ImageOps, UnidentifiedImageError

from .errors import ApiError

DEFAULT_MAX_PIXELS = 40_000_000  # 40 megapixels: above any phone's normal photo (12–24 MP)
DEFAULT_MAX_BYTES = 8 * 1024 * 1024
ACCEPTED_FORMATS = ("JPEG", "PNG", "WEBP")


def max_pixels() -> int:
    if has_app_context():
        return int(current_app.config.get("IMAGE_MAX_PIXELS", DEFAULT_MAX_PIXELS))
    return DEFAULT_MAX_PIXELS


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


def open_upload(data: bytes, field: str = "photo", max_bytes: int = DEFAULT_MAX_BYTES,
                formats=ACCEPTED_FORMATS):
    """Uploaded bytes → a decoded RGB image with EXIF orientation applied, or an ApiError."""
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
            with Image.open(io.BytesIO(data)) as img:
                check_dimensions(*img.size, field=field)
                img = ImageOps.exif_transpose(img)
                return img.convert("RGB")
    except (Image.DecompressionBombWarning, Image.DecompressionBombError):
        raise bomb_refusal(field) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError):
        raise _refuse(field, "O arquivo não é uma imagem válida.") from None
