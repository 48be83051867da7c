"""The size of evidence photos the phones send: long edge (pixels) and JPEG quality, a
municipal choice (no law sets it). A larger photo shows more (a plate far off, a worn tyre) and
costs more bytes on the fiscal's mobile link and in the phone's storage until it is sent; the
settings screen states that trade-off with the measured size of a photo.

Kept in Municipality.settings["photos"]; the phones read it from the field data (`photo_size`,
a small separate field of every answer: fieldsync/field_data.py) and compress with it
(pwa/js/fiscal/photos.js). Saving bumps the field-data version so every phone's next download
carries the new size."""
from ...core.audit import record
from ...core.errors import ApiError
from ...extensions import db
from ..registry.changes import mark_changed

DEFAULT = {"long_edge": 1600, "quality": 0.8}
LONG_EDGES = (1280, 1600, 2048, 2560)
QUALITIES = (0.6, 0.7, 0.8, 0.9)
# Measured by bench/sync_day.py (docs/benchmarks/sync-day.md): a textured 4000×3000 camera image
# compressed by photos.js at 1600 px / 0.8 is ~170 KB. Bytes grow about with the pixel count
# (the square of the long edge); the quality factors are typical JPEG ratios, not measured here.
# The screen calls every figure but the measured one an estimate.
MEASURED_KB = 170
QUALITY_FACTOR = {0.6: 0.6, 0.7: 0.78, 0.8: 1.0, 0.9: 1.5}
UPLINK_KBIT_S = 675  # DevTools "3G" upload: what bench/sync_day.py emulates


def photo_size(municipality) -> dict:
    """{"long_edge", "quality"} in force (the default when the municipality chose none)."""
    saved = (municipality.settings or {}).get("photos") or {}
    long_edge, quality = saved.get("long_edge"), saved.get("quality")
    return {"long_edge": long_edge if long_edge in LONG_EDGES else DEFAULT["long_edge"],
            "quality": quality if quality in QUALITIES else DEFAULT["quality"]}


def estimate_kb(long_edge, quality):
    """Estimated bytes (KB) of one photo at this size, scaled from the measured one."""
    return round(MEASURED_KB * (long_edge / DEFAULT["long_edge"]) ** 2 * QUALITY_FACTOR[quality])


def seconds_on_3g(kb):
    return kb * 8 / UPLINK_KBIT_S


FIELDS = {  # name → (choices, parse, message when the value is not one of them)
    "long_edge": (LONG_EDGES, int, "Escolha um dos tamanhos (lado maior em pixels)."),
    "quality": (QUALITIES, float, "Escolha uma das qualidades JPEG."),
}


def _choice(form, name):
    allowed, parse, _message = FIELDS[name]
    try:
        value = parse(form.get(name))
    except (TypeError, ValueError):
        return None
    return value if value in allowed else None


def save_photo_size(municipality, form, actor=None):
    """Validate and store the size; audited; phones get it with their next field-data download."""
    values = {name: _choice(form, name) for name in FIELDS}
    errors = {name: [FIELDS[name][2]] for name, value in values.items() if value is None}
    if errors:
        raise ApiError(422, "validation_error", "Dados inválidos.", errors)
    before = photo_size(municipality)
    settings = dict(municipality.settings or {})
    settings["photos"] = values
    municipality.settings = settings
    record("photo_size_settings", "municipality", municipality.id, before, values,
           municipality_id=municipality.id, actor=actor)
    # A new field-data version: phones holding the current one would otherwise be answered 304.
    mark_changed(db.session.connection(), municipality.id, [("config", 0, False)])
    return values
