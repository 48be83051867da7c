"""Image decoding bounded in memory and concurrency (issue 36, core/images.py): an operator photo is
decoded only as large as the 600 × 800 it becomes (JPEG through draft(), others reduced right after
decoding), upright by its EXIF orientation as before, and at most IMAGE_MAX_CONCURRENT_DECODES at
once per process. The memory itself is measured in bench/image_decode.py."""
import io

import pytest
from PIL import Image, ImageOps

from server.core.errors import ApiError
from server.core.images import decode_slot, open_upload
from server.modules.registry.photos import PHOTO_SIZE, normalize_photo


def _halves(size, fmt, orientation=None):
    """Left half red, right half blue; optionally an EXIF orientation saying how to show it."""
    img = Image.new("RGB", size, (0, 0, 255))
    img.paste((255, 0, 0), (0, 0, size[0] // 2, size[1]))
    out = io.BytesIO()
    kwargs = {}
    if orientation:
        exif = Image.Exif()
        exif[0x0112] = orientation
        kwargs["exif"] = exif.tobytes()
    img.save(out, fmt, **kwargs)
    return out.getvalue()


@pytest.mark.parametrize("fmt", ["JPEG", "PNG"])
def test_decoded_small_but_covering_the_photo_box(app, fmt):
    with app.app_context():
        img = open_upload(_halves((4000, 3000), fmt), target=PHOTO_SIZE)
    assert img.width >= PHOTO_SIZE[0] and img.height >= PHOTO_SIZE[1]  # still enough for 600 × 800
    assert img.width * img.height <= 4000 * 3000 // 4  # at most a quarter of the pixels held
    assert img.mode == "RGB"


def test_orientation_is_applied_as_before(app):
    data = _halves((1600, 1200), "JPEG", orientation=6)  # shown turned 90° clockwise: red on top
    with app.app_context():
        stored = Image.open(io.BytesIO(normalize_photo(data)))
    with Image.open(io.BytesIO(data)) as full:
        expected = ImageOps.fit(ImageOps.exif_transpose(full).convert("RGB"), PHOTO_SIZE, centering=(0.5, 0.35))
    assert stored.size == PHOTO_SIZE
    for point in ((300, 100), (300, 700)):  # top red, bottom blue, in both
        got, want = stored.getpixel(point), expected.getpixel(point)
        assert all(abs(a - b) < 40 for a, b in zip(got, want)), (point, got, want)
    assert stored.getpixel((300, 100))[0] > 200 and stored.getpixel((300, 700))[2] > 200


def test_concurrent_decodes_are_bounded(app):
    app.config.update(IMAGE_MAX_CONCURRENT_DECODES=1, IMAGE_DECODE_WAIT_SECONDS=0)
    data = _halves((800, 600), "PNG")
    with app.app_context():
        with decode_slot():  # the one turn of the process is taken
            with pytest.raises(ApiError) as caught:
                open_upload(data, target=PHOTO_SIZE)
        assert caught.value.status == 503 and "ocupado" in caught.value.fields["photo"][0]
        assert open_upload(data).size == (800, 600)  # the turn freed, the next one decodes
