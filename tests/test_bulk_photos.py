"""Operator photos in bulk (issue 36, Build 5): one ZIP named by CPF, matched to this
municipality's operators only, each photo stored as a single upload is (re-encoded, audited), a
report of matched / unknown CPF / bad image; bounded before decompressing (zip bomb, entry count,
pixel limit)."""
import io
import zipfile

from PIL import Image

from helpers import csrf_token, login

from server.core.audit import AuditLog
from server.core.validation import cpf_check_digits, format_cpf, mask_cpf
from server.extensions import db
from server.modules.registry.models import Municipality, Operator
from server.modules.registry.photo_zip import MAX_TOTAL_UNCOMPRESSED, cpf_of_name


def _jpeg(size=(60, 80), colour=(200, 30, 30)):
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "JPEG")
    return out.getvalue()


def _zip(entries):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            archive.writestr(name, data)
    return out.getvalue()


def _upload(client, data, name="fotos.zip"):
    token = csrf_token(client, "/bo/operadores/fotos/lote")
    return client.post("/bo/operadores/fotos/lote", data={"csrf_token": token, "zip": (io.BytesIO(data), name)},
                       content_type="multipart/form-data")


def test_cpf_names_with_punctuation_and_lost_leading_zeros():
    cpf = cpf_check_digits("012345678")
    assert cpf.startswith("0")
    assert cpf_of_name(f"{cpf}.jpg") == cpf
    assert cpf_of_name(f"fotos/{format_cpf(cpf)}.JPEG") == cpf
    assert cpf_of_name(f"{int(cpf)}.png") == cpf  # Excel dropped the zero
    assert cpf_of_name("joao.jpg") is None and cpf_of_name("123456789012.jpg") is None


def test_zip_matched_unknown_and_bad_within_the_municipality(app, client, demo):
    zero_cpf = cpf_check_digits("012345678")
    with app.app_context():
        sapezal = Municipality.query.filter_by(slug="sapezal").one()
        ours = Operator.query.filter_by(municipality_id=sapezal.id).order_by(Operator.id).limit(3).all()
        ours[1].cpf = zero_cpf  # a CPF whose leading zero a spreadsheet drops
        db.session.commit()
        theirs = Operator.query.join(Municipality).filter(Municipality.slug == "paranatinga").first()
        plain, bad_image, their_cpf, their_id = ours[0].cpf, ours[2].cpf, theirs.cpf, theirs.id
        ids = [o.id for o in ours]
        before_theirs = theirs.photo_path
    app.config["IMAGE_MAX_PIXELS"] = 100_000
    data = _zip([
        (f"{format_cpf(plain)}.jpg", _jpeg()),
        (f"{int(zero_cpf)}.jpeg", _jpeg(colour=(30, 200, 30))),
        (f"{bad_image}.jpg", _jpeg(size=(400, 400))),           # over the pixel limit
        (f"{their_cpf}.jpg", _jpeg()),                          # another municipality's operator
        (f"{cpf_check_digits('987654321')}.jpg", _jpeg()),      # nobody's
        ("11111111112.jpg", _jpeg()),                           # check digits wrong
        ("leia-me.txt", b"fotos"),
        ("__MACOSX/._x.jpg", b"x"),
    ])
    login(client, "backoffice.sapezal")
    response = _upload(client, data)
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert 'id="matched-count">2<' in html and 'id="unknown-count">4<' in html and 'id="bad-count">1<' in html
    assert "Imagem grande demais" in html and "Nenhum operador deste município tem este CPF" in html
    # CPFs masked in the report and its audit entry, file names included (LGPD).
    for cpf in (plain, zero_cpf, bad_image, their_cpf):
        assert cpf not in html and format_cpf(cpf) not in html
    assert f"{mask_cpf(plain)}.jpg" in html and f"{int(zero_cpf)}.jpeg" not in html
    with app.app_context():
        rows = {o.id: o for o in Operator.query.filter(Operator.id.in_(ids))}
        assert rows[ids[0]].photo_path and rows[ids[1]].photo_path and rows[ids[2]].photo_path is None
        assert db.session.get(Operator, their_id).photo_path == before_theirs
        assert AuditLog.query.filter_by(action="photo", entity="operator").count() == 2
        batch = AuditLog.query.filter_by(action="operator_photo_batch", municipality_id=rows[ids[0]].municipality_id).one()
        assert len(batch.after["matched"]) == 2 and len(batch.after["unknown"]) == 4
        assert plain not in str(batch.after) and format_cpf(plain) not in str(batch.after)
    # The stored photo is the re-encoded 600x800 JPEG, served on the operator's page.
    photo = client.get(f"/bo/operadores/{ids[0]}/foto")
    assert photo.status_code == 200 and Image.open(io.BytesIO(photo.data)).size == (600, 800)


def test_zip_bomb_and_not_a_zip_are_refused_before_decompressing(app, client, demo):
    login(client, "backoffice.sapezal")
    not_zip = _upload(client, b"this is not a zip")
    assert not_zip.status_code == 422 and "não é um ZIP válido" in not_zip.get_data(as_text=True)
    # 300 MB of zeros compress to ~300 KB: refused by the declared sizes, nothing inflated.
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("12345678909.jpg", "w", force_zip64=True) as entry:
            chunk = b"\0" * (1024 * 1024)
            for _ in range(MAX_TOTAL_UNCOMPRESSED // len(chunk) + 1):
                entry.write(chunk)
    bomb = _upload(client, out.getvalue())
    assert bomb.status_code == 413 and "descompactado" in bomb.get_data(as_text=True)
    empty = _upload(client, b"")
    assert empty.status_code == 422 and 'id="err-zip"' in empty.get_data(as_text=True)
