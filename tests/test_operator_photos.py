"""Operator photos: upload, normalization (EXIF stripped, 3:4), scoping, and use on the crachá."""
import io

import pytest
from PIL import Image

from helpers import csrf_token, login
from server.core.audit import AuditLog
from server.modules.registry.models import Municipality, Operator

pytestmark = pytest.mark.usefixtures("storage_backend")  # instance folder, then the S3 server


def _jpeg_with_gps():
    img = Image.new("RGB", (1200, 900), (200, 120, 40))
    exif = Image.Exif()
    exif[0x010F] = "CameraMaker"  # Make
    exif[0x8825] = {1: "S", 2: (15.0, 30.0, 0.0)}  # GPS IFD: where the photo was taken
    out = io.BytesIO()
    img.save(out, "JPEG", exif=exif)
    return out.getvalue()


def _operator_id(app, slug):
    with app.app_context():
        muni = Municipality.query.filter_by(slug=slug).one()
        return Operator.query.filter_by(municipality_id=muni.id).order_by(Operator.id).first().id


def test_upload_normalizes_strips_exif_and_is_audited(client, app, demo):
    original = _jpeg_with_gps()
    assert Image.open(io.BytesIO(original)).getexif()  # the test photo does carry EXIF
    ident = _operator_id(app, "sapezal")
    login(client, "backoffice.sapezal")
    token = csrf_token(client, f"/bo/operadores/{ident}")
    response = client.post(f"/bo/operadores/{ident}/foto", data={
        "csrf_token": token, "photo": (io.BytesIO(original), "foto.jpg")}, content_type="multipart/form-data")
    assert response.status_code == 302
    served = client.get(f"/bo/operadores/{ident}/foto")
    assert served.status_code == 200 and served.mimetype == "image/jpeg"
    stored = Image.open(io.BytesIO(served.data))
    assert stored.size == (600, 800)
    assert not stored.getexif()
    with app.app_context():
        assert AuditLog.query.filter_by(action="photo", entity="operator", entity_id=str(ident)).count() == 1


def test_garbage_upload_is_refused_and_keeps_the_old_photo(client, app, demo):
    ident = _operator_id(app, "sapezal")
    login(client, "backoffice.sapezal")
    token = csrf_token(client, f"/bo/operadores/{ident}")
    response = client.post(f"/bo/operadores/{ident}/foto", data={
        "csrf_token": token, "photo": (io.BytesIO(b"%PDF-1.4 not an image"), "x.jpg")},
        content_type="multipart/form-data", follow_redirects=True)
    assert "O arquivo não é uma imagem válida." in response.get_data(as_text=True)
    with app.app_context():
        from server.extensions import db
        assert db.session.get(Operator, ident).photo_path is None


def test_photo_of_another_municipality_is_404(client, app, demo):
    ident = _operator_id(app, "paranatinga")
    login(client, "backoffice.sapezal")
    token = csrf_token(client, "/bo/")
    assert client.get(f"/bo/operadores/{ident}/foto").status_code == 404
    response = client.post(f"/bo/operadores/{ident}/foto", data={
        "csrf_token": token, "photo": (io.BytesIO(_jpeg_with_gps()), "foto.jpg")}, content_type="multipart/form-data")
    assert response.status_code == 404


def test_the_crachá_prints_the_stored_photo(client, app, demo):
    from server.modules.credentials.operations import card_data, create_key, issue_credential
    from server.modules.registry.models import Permit
    from server.modules.registry.photos import read_operator_photo, store_operator_photo
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        create_key(muni)
        permit = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first()
        store_operator_photo(permit.main_driver, _jpeg_with_gps())
        card = card_data(issue_credential(permit))
        assert card.photo is not None and card.photo == read_operator_photo(permit.main_driver)
