"""Images over the pixel limit are refused from their header, before any pixel is decoded."""
import io

import pytest
from PIL import Image

from helpers import csrf_token, login
from server.core.errors import ApiError
from server.core.images import open_upload
from server.modules.registry.models import Municipality, Operator


def _png(width, height):
    # A 1-bit picture compresses to a few KB however large it claims to be: a decompression bomb.
    out = io.BytesIO()
    Image.new("1", (width, height)).save(out, "PNG", optimize=True)
    return out.getvalue()


@pytest.fixture(scope="module")
def bomb():
    data = _png(7000, 7000)  # 49 megapixels, ~147 MB once decoded to RGB
    assert len(data) < 200_000
    return data


def test_helper_refuses_a_bomb_with_413_naming_the_field(app, bomb):
    with app.app_context():
        with pytest.raises(ApiError) as caught:
            open_upload(bomb, field="evidence")
    err = caught.value
    assert err.status == 413 and err.code == "image_too_large"
    assert list(err.fields) == ["evidence"]
    assert "7000 × 7000 pixels" in err.fields["evidence"][0]
    assert "máximo 40 megapixels" in err.fields["evidence"][0]


def test_the_pixel_limit_is_configurable(app):
    app.config["IMAGE_MAX_PIXELS"] = 1000 * 1000
    with app.app_context():
        with pytest.raises(ApiError) as caught:
            open_upload(_png(1001, 1000))
        assert caught.value.status == 413
        assert open_upload(_png(1000, 1000)).size == (1000, 1000)


def test_helper_refuses_what_pillow_itself_calls_a_bomb(app, monkeypatch):
    # Even with our own limit raised, Pillow's decompression-bomb warning is a refusal, not a log line.
    app.config["IMAGE_MAX_PIXELS"] = 10**12
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 500 * 500)
    with app.app_context():
        with pytest.raises(ApiError) as caught:
            open_upload(_png(600, 600))
    assert caught.value.status == 413


def test_operator_photo_bomb_is_refused_and_keeps_the_old_photo(client, app, demo, bomb):
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        ident = Operator.query.filter_by(municipality_id=muni.id).order_by(Operator.id).first().id
    login(client, "backoffice.sapezal")
    token = csrf_token(client, f"/bo/operadores/{ident}")
    response = client.post(f"/bo/operadores/{ident}/foto", data={
        "csrf_token": token, "photo": (io.BytesIO(bomb), "foto.png")},
        content_type="multipart/form-data", follow_redirects=True)
    assert "Imagem grande demais: 7000 × 7000 pixels" in response.get_data(as_text=True)
    with app.app_context():
        from server.extensions import db
        assert db.session.get(Operator, ident).photo_path is None
