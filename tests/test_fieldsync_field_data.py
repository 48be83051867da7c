"""Field data for phones: compacted snapshot, then deltas; strong ETags, 304 and gzip; operator
thumbnails; scoping."""
import gzip
import io
import json
import struct
from datetime import date

import pytest
from PIL import Image

from helpers import api_token
from server.core.clock import local_today
from server.extensions import db


@pytest.fixture
def fiscal(app, client, demo):
    from server.modules.registry.models import Operator
    from server.modules.registry.photos import store_operator_photo
    with app.app_context():  # the first operator of Sapezal has a registry photo
        operator = Operator.query.filter_by(municipality_id=_muni().id).order_by(Operator.id).first()
        out = io.BytesIO()
        Image.effect_noise((600, 800), 60).convert("RGB").save(out, "JPEG", quality=90)
        store_operator_photo(operator, out.getvalue())
        db.session.commit()  # as the clerk's upload
    return api_token(client, "fiscal.sapezal")


def _muni(slug="sapezal"):
    from server.modules.registry.models import Municipality
    return Municipality.query.filter_by(slug=slug).one()


def get(client, headers, cursor=0, **extra):
    return client.get(f"/api/v1/field/data?cursor={cursor}", headers={**headers, **extra})


def test_snapshot_holds_the_latest_state_and_minimal_personal_data(app, client, fiscal):
    from server.modules.registry.models import Operator, Permit, Ponto, Vehicle
    response = get(client, fiscal)
    assert response.status_code == 200
    data = response.json
    with app.app_context():
        muni = _muni()
        assert data["snapshot"] is True and data["cursor"] >= 1
        assert data["municipality"] == {"slug": "sapezal", "name": muni.name, "ibge": muni.ibge_code,
                                        "timezone_offset": -240, "public_base_url": None}
        assert [p["id"] for p in data["permits"]] == [p.id for p in Permit.query.filter_by(
            municipality_id=muni.id).order_by(Permit.id)]
        assert len(data["vehicles"]) == Vehicle.query.filter_by(municipality_id=muni.id).count()
        assert len(data["pontos"]) == Ponto.query.filter_by(municipality_id=muni.id).count()
        operators = Operator.query.filter_by(municipality_id=muni.id).order_by(Operator.id).all()
        first = data["operators"][0]
        assert first["name"] == operators[0].name
        assert first["photo"] == 1 and "photo" not in data["operators"][1]
        assert data["photo_url"] == "/api/v1/field/photos/{id}"
        raw = response.get_data(as_text=True)
        for operator in operators:  # no CPF (not even masked), CNH number, address or phone on the phone
            assert operator.cpf not in raw and operator.cpf[3:9] not in raw.replace(".", "")
            assert not operator.cnh_number or operator.cnh_number not in raw
            assert not operator.address or operator.address not in raw
        # Only the columns the phone reads (issue 24): nothing else leaves the server.
        assert {k for o in data["operators"] for k in o} <= {
            "id", "name", "photo", "cnh_category", "cnh_first_issue_date", "birth_date", "residence_since",
            "disqualified_on", "disqualified_basis", "rehabilitation_course_on"}
        # Birth and first-CNH dates past the federal minimums (Lei 12.009/2009 art. 2º I: 21 years,
        # II: 2 years) travel as 1 January of (this year − minimum − 1); later ones exactly.
        year = local_today().year
        for operator, row in zip(operators, data["operators"]):
            assert row["id"] == operator.id
            for column, years in (("birth_date", 21), ("cnh_first_issue_date", 2)):
                real = getattr(operator, column)
                assert row.get(column) == (max(real, date(year - years - 1, 1, 1)).isoformat() if real else None)
        assert any(o.birth_date and o.birth_date < date(year - 22, 1, 1) for o in operators)  # some were floored
        assert {k for p in data["pontos"] for k in p} == {"id", "name"}
        permit = Permit.query.filter_by(municipality_id=muni.id).order_by(Permit.id).first()
        row = data["permits"][0]
        assert row["number"] == permit.number and row["status"] == permit.status
        assert row["valid_until"] == permit.valid_until.isoformat()
        assert "kind" not in row and "suspended_until" not in row
        assert row.get("driver_ids", []) == [d.id for d in permit.drivers]  # empty lists are left out
    assert data["rules"]["municipality"] == "sapezal" and data["rules"]["config"]["unit_values"] is not None
    assert data["penalties"] == [] and data["removed"]["permits"] == []


def test_delta_has_only_what_changed_and_304_when_nothing_did(app, client, fiscal):
    from server.modules.fieldsync.models import AppliedPenalty
    from server.modules.registry.models import Permit
    from server.modules.permits.operations import change_permit_status
    snapshot = get(client, fiscal)
    cursor, etag = snapshot.json["cursor"], snapshot.headers["ETag"]
    again = get(client, fiscal, If_None_Match=etag)
    assert again.status_code == 304 and again.headers["ETag"] == etag and again.get_data() == b""
    empty = get(client, fiscal, cursor)
    assert empty.status_code == 200 and empty.json["permits"] == [] and empty.json["rules"] is None
    assert empty.json["cursor"] == cursor
    assert get(client, fiscal, cursor, If_None_Match=empty.headers["ETag"]).status_code == 304

    with app.app_context():
        permit = Permit.query.filter_by(municipality_id=_muni().id, status="ativo").order_by(Permit.id).first()
        change_permit_status(permit, "suspend", "Teste de sincronização")
        permit_id = permit.id
        db.session.commit()  # as the clerk's request
    changed = get(client, fiscal, cursor, If_None_Match=empty.headers["ETag"])
    assert changed.status_code == 200 and changed.json["snapshot"] is False
    assert [p["id"] for p in changed.json["permits"]] == [permit_id]
    assert changed.json["permits"][0]["status"] == "suspenso"
    assert changed.json["operators"] == changed.json["vehicles"] == [] and changed.json["rules"] is None
    assert changed.json["cursor"] > cursor
    assert len(changed.get_data()) < 1024

    with app.app_context():
        penalty = AppliedPenalty(municipality_id=_muni().id, permit_id=permit_id, infraction_id="sap.inf.um_passageiro",
                                 penalty="multa", committed_on=date(2026, 1, 20), applied_on=date(2026, 3, 2),
                                 decision_ref="Proc. 12/2026")
        db.session.add(penalty)
        db.session.commit()
    later = get(client, fiscal, changed.json["cursor"])
    assert later.json["penalties"] == [{"id": 1, "permit_id": permit_id, "infraction_id": "sap.inf.um_passageiro",
                                        "penalty": "multa", "committed_on": "2026-01-20", "applied_on": "2026-03-02",
                                        "cancelled": False}]
    assert later.json["permits"] == []
    # The snapshot at the new cursor shows the same latest state, each entity once.
    fresh = get(client, fiscal).json
    assert [p["status"] for p in fresh["permits"] if p["id"] == permit_id] == ["suspenso"]


def test_rules_travel_again_when_the_configuration_changes(app, client, fiscal):
    from server.modules.permits.entities import add_unit_value
    cursor = get(client, fiscal).json["cursor"]
    with app.app_context():
        add_unit_value(_muni(), {"unit": "UFM", "valid_from": date(2030, 1, 1), "value_brl": 9.99,
                                 "source": "Decreto de teste"})
        db.session.commit()  # as the clerk's request
    delta = get(client, fiscal, cursor).json
    assert delta["rules"] is not None
    # New rules may floor the operators' dates differently (fact_floors.py): every row travels again.
    with app.app_context():
        from server.modules.registry.models import Operator
        assert sorted(o["id"] for o in delta["operators"]) == sorted(
            o.id for o in Operator.query.filter_by(municipality_id=_muni().id))
    assert any(row["valid_from"] == "2030-01-01" for row in delta["rules"]["config"]["unit_values"]["UFM"])
    assert get(client, fiscal, delta["cursor"]).json["rules"] is None


def test_gzip_keeps_strong_etags_and_304(client, fiscal):
    plain = get(client, fiscal)
    zipped = get(client, fiscal, Accept_Encoding="gzip, br")
    assert zipped.headers["Content-Encoding"] == "gzip" and "Content-Encoding" not in plain.headers
    assert "Accept-Encoding" in zipped.headers["Vary"] and "Accept-Encoding" in plain.headers["Vary"]
    assert not zipped.headers["ETag"].startswith("W/") and zipped.headers["ETag"] != plain.headers["ETag"]
    assert json.loads(gzip.decompress(zipped.get_data())) == plain.json
    # Same representation → same bytes → same validator.
    assert get(client, fiscal, Accept_Encoding="gzip").get_data() == zipped.get_data()
    not_modified = get(client, fiscal, Accept_Encoding="gzip", If_None_Match=zipped.headers["ETag"])
    assert not_modified.status_code == 304 and not_modified.headers["ETag"] == zipped.headers["ETag"]
    assert get(client, fiscal, Accept_Encoding="gzip;q=0").headers.get("Content-Encoding") is None


def test_thumbnails_are_small_jpegs_and_scoped(app, client, fiscal):
    data = get(client, fiscal).json
    photo_url = data["photo_url"].format(id=data["operators"][0]["id"])
    response = client.get(photo_url, headers=fiscal)
    assert response.status_code == 200 and response.mimetype == "image/jpeg"
    assert len(response.get_data()) <= 8 * 1024
    with Image.open(io.BytesIO(response.get_data())) as img:
        assert img.format == "JPEG" and max(img.size) <= 160
    assert client.get(photo_url, headers={**fiscal, "If-None-Match": response.headers["ETag"]}).status_code == 304
    other = api_token(client, "fiscal.paranatinga")
    assert client.get(photo_url, headers=other).status_code == 404
    assert client.get("/api/v1/field/photos/999999", headers=fiscal).status_code == 404


def test_thumbnails_travel_in_packs_of_the_municipality_only(app, client, fiscal):
    """GET /api/v1/field/photos?ids=…: id and length (u32 big-endian) then the JPEG, for each
    operator asked for that has a photo, in the order asked; another municipality's ids and
    operators without a photo are left out, as if unknown."""
    from server.modules.registry.models import Operator
    from server.modules.registry.photos import store_operator_photo
    with app.app_context():  # a second operator with a photo (the fixture gave the first one)
        second = Operator.query.filter_by(municipality_id=_muni().id).order_by(Operator.id.desc()).first()
        out = io.BytesIO()
        Image.effect_noise((600, 800), 90).convert("RGB").save(out, "JPEG", quality=90)
        store_operator_photo(second, out.getvalue())
        db.session.commit()  # as the clerk's upload
    data = get(client, fiscal).json
    with_photo = sorted((o["id"] for o in data["operators"] if o.get("photo")), reverse=True)
    assert len(with_photo) == 2
    other = api_token(client, "fiscal.paranatinga")
    foreign = get(client, other).json["operators"][0]["id"]
    response = client.get(f"/api/v1/field/photos?ids={','.join(map(str, with_photo))},{foreign},999999",
                          headers=fiscal)
    assert response.status_code == 200 and response.mimetype == "application/vnd.motofiscal.photos"
    body, found = response.get_data(), []
    while body:
        operator_id, length = struct.unpack(">II", body[:8])
        jpeg, body = body[8:8 + length], body[8 + length:]
        single = client.get(data["photo_url"].format(id=operator_id), headers=fiscal).get_data()
        assert jpeg == single  # the same thumbnail as the one-by-one route
        found.append(operator_id)
    assert found == with_photo
    for bad in ("", "1,,2", "0", "a", ",".join(["1"] * 201), "1,3623003279"):
        refused = client.get(f"/api/v1/field/photos?ids={bad}", headers=fiscal)
        assert refused.status_code == 422 and "ids" in refused.json["error"]["fields"], bad


def test_field_data_is_scoped_and_role_checked(app, client, demo):
    from server.modules.registry.models import Permit
    other = get(client, api_token(client, "fiscal.paranatinga")).json
    with app.app_context():
        sapezal_ids = {p.id for p in Permit.query.filter_by(municipality_id=_muni().id)}
        paranatinga_ids = {p.id for p in Permit.query.filter_by(municipality_id=_muni("paranatinga").id)}
    assert other["municipality"]["slug"] == "paranatinga"
    assert {p["id"] for p in other["permits"]} == paranatinga_ids and not sapezal_ids & paranatinga_ids
    assert client.get("/api/v1/field/data").status_code == 401
    operator_like = client.get("/api/v1/field/data", headers={"Authorization": "Bearer nonsense"})
    assert operator_like.status_code == 401
    bad = get(client, api_token(client, "fiscal.paranatinga"), "-1")
    assert bad.status_code == 422 and "cursor" in bad.json["error"]["fields"]


def decode_columns(table):
    """What the phone does with format=columns (docs/sync-api.md)."""
    rows, current = [], 0
    for index, delta in enumerate(table.get("id", [])):
        current += delta
        row = {"id": current}
        row.update({k: v[index] for k, v in table.items() if k != "id" and v[index] is not None})
        rows.append(row)
    return rows


EPOCH = date(1970, 1, 1)
B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"  # docs/sync-api.md, packed2


def from_b62(text):
    n = 0
    for c in text:
        n = n * 62 + B62.index(c)
    return n


def decode_packed(table):
    """What the phone does with format=packed and packed2 (pwa/js/fiscal/field-merge.js, docs/sync-api.md):
    written apart from server/modules/fieldsync/field_codec.py, from the documented shapes."""
    def column(encoded):
        if isinstance(encoded, list):
            return encoded
        if "delta" in encoded:
            out, last = [], 0
            for d in encoded["delta"]:
                last = last + d if d is not None else last
                out.append(None if d is None else last)
            return out
        if "dict" in encoded and "text" in encoded:  # packed2: one character per code
            return [None if c == "-" else encoded["dict"][B62.index(c)] for c in encoded["text"]]
        if "dict" in encoded:
            return [None if c is None else encoded["dict"][c] for c in encoded["codes"]]
        if "days" in encoded or "b62" in encoded:
            w, text = encoded["width"], encoded.get("days", encoded.get("b62"))
            number = int if "days" in encoded else from_b62
            return [None if text[i] == "-" else
                    date.fromordinal(EPOCH.toordinal() + encoded["base"] + number(text[i:i + w])).isoformat()
                    for i in range(0, len(text), w)]
        if "shape" in encoded:  # packed2 plates: shapes, then all letters, then all digits
            letters, digits = iter(encoded["letters"]), iter(encoded["digits"])
            return [None if shape is None else "".join(next(letters if k == "L" else digits) for k in shape)
                    for shape in column(encoded["shape"])]
        if "text" in encoded:
            return [encoded["text"][i:i + encoded["width"]] for i in range(0, len(encoded["text"]), encoded["width"])]
        if "serial" in encoded:
            parts = zip(column(encoded["serial"]), column(encoded["width"]), column(encoded["suffix"]))
            return [None if n is None else str(n).zfill(w) + suffix for n, w, suffix in parts]
        return [None if c is None else " ".join(encoded["words"][i] for i in c) for c in encoded["codes"]]
    columns = {name: column(encoded) for name, encoded in table.items()}
    ids = columns.get("id", [])
    return [{"id": ids[i], **{k: v[i] for k, v in columns.items() if k != "id" and v[i] is not None}}
            for i in range(len(ids))]


def test_packed_format_carries_the_same_rows_in_fewer_bytes(app, client, fiscal):
    from server.extensions import db
    from server.modules.fieldsync.models import AppliedPenalty
    from server.modules.registry.models import Operator
    with app.app_context():  # a penalty and a disqualified operator, so every encoding is exercised
        operator = Operator.query.filter_by(municipality_id=_muni().id).order_by(Operator.id).first()
        operator.disqualified_on, operator.disqualified_basis = date(2026, 2, 1), "Três suspensões em 12 meses"
        db.session.add(AppliedPenalty(municipality_id=_muni().id, operator_id=operator.id, infraction_id="sap.inf.x",
                                      penalty="multa", committed_on=date(2026, 1, 2), applied_on=date(2026, 1, 30)))
        db.session.commit()
    rows = get(client, fiscal).json
    response = client.get("/api/v1/field/data?cursor=0&format=packed", headers=fiscal)
    packed = response.json
    assert packed["format"] == "packed" and response.headers["ETag"] != get(client, fiscal).headers["ETag"]
    for kind in ("permits", "operators", "vehicles", "pontos", "penalties"):
        assert decode_packed(packed[kind]) == rows[kind], kind
    assert packed["permits"]["status"]["dict"][0] == "ativo"  # most frequent first: the smallest code
    assert isinstance(packed["operators"]["birth_date"]["base"], int)
    assert packed["vehicles"]["plate"]["width"] == 7 and packed["permits"]["number"]["serial"]["delta"]
    assert packed["operators"]["name"]["words"] and packed["penalties"]["penalty"]["dict"] == ["multa"]
    # The rules travel once, from GET /api/v1/rules/<slug>; the etag says which ones.
    assert packed["rules"] is None and rows["rules"] is not None and packed["rules_etag"] == rows["rules_etag"]
    assert len(response.get_data()) < len(get(client, fiscal).get_data()) / 2
    delta = client.get(f"/api/v1/field/data?cursor={packed['cursor']}&format=packed", headers=fiscal).json
    assert delta["snapshot"] is False and delta["permits"] == {} and delta["rules"] is None

    # packed2 (the field app's): the same rows, denser codes, its own ETag.
    response2 = client.get("/api/v1/field/data?cursor=0&format=packed2", headers=fiscal)
    packed2 = response2.json
    assert packed2["format"] == "packed2" and response2.headers["ETag"] != response.headers["ETag"]
    for kind in ("permits", "operators", "vehicles", "pontos", "penalties"):
        assert decode_packed(packed2[kind]) == rows[kind], kind
    assert packed2["permits"]["status"]["text"] and packed2["operators"]["birth_date"]["b62"]
    assert packed2["vehicles"]["plate"]["letters"].isalpha() and packed2["vehicles"]["plate"]["digits"].isdigit()
    assert packed2["rules"] is None and len(response2.get_data()) < len(response.get_data())


def test_columns_format_carries_the_same_rows(client, fiscal):
    rows = get(client, fiscal).json
    response = client.get("/api/v1/field/data?cursor=0&format=columns", headers=fiscal)
    columns = response.json
    assert columns["format"] == "columns" and rows["format"] == "rows"
    assert response.headers["ETag"] != get(client, fiscal).headers["ETag"]
    for kind in ("permits", "operators", "vehicles", "pontos", "penalties"):
        assert decode_columns(columns[kind]) == rows[kind], kind
    assert columns["permits"]["id"][1:] and all(d > 0 for d in columns["permits"]["id"])
    bad = client.get("/api/v1/field/data?format=xml", headers=fiscal)
    assert bad.status_code == 422 and "format" in bad.json["error"]["fields"]


def test_a_cursor_from_the_future_gets_a_snapshot(client, fiscal):
    data = get(client, fiscal, 10**9).json
    assert data["snapshot"] is True and data["permits"]


def test_packed_penalty_keeps_the_auto_record_code():
    """A penalty applied through an auto names the auto's record id, a text code: the packed format
    carries it as it is (it once went through the integer delta encoding and answered 500)."""
    from server.modules.fieldsync.field_codec import pack_table
    rows = [{"id": 3, "operator_id": 7, "infraction_id": "sap.inf.x", "penalty": "multa",
             "committed_on": "2026-01-02", "applied_on": "2026-01-30", "auto_record_id": "K7QX2M9PTR4WZ8HN"},
            {"id": 5, "permit_id": 2, "infraction_id": "sap.inf.x", "penalty": "advertencia",
             "committed_on": "2026-02-03", "applied_on": "2026-02-27"}]
    assert decode_packed(pack_table("penalty", rows)) == rows


def test_packed2_round_trips_mixed_plates_nulls_and_large_tables():
    """Old and Mercosul plates, a missing plate, a lower-case one (not plate-like: sent fixed or
    plain), more than 62 distinct values (codes, not characters), dates far apart."""
    from server.modules.fieldsync.field_codec import pack_table
    vehicles = [{"id": 1, "plate": "ABC1D23", "make": "Honda"}, {"id": 2, "plate": "XYZ1234", "make": "Yamaha"},
                {"id": 4, "make": "Honda"}, {"id": 9, "plate": "QBX2A45"}]
    packed = pack_table("vehicle", vehicles, "packed2")
    assert packed["plate"]["letters"] == "ABCDXYZQBXA"
    assert decode_packed(packed) == vehicles
    odd = [{"id": 1, "plate": "abc1234"}, {"id": 2, "plate": "XYZ1234"}]
    assert decode_packed(pack_table("vehicle", odd, "packed2")) == odd
    many = [{"id": i, "model": f"Modelo {i}", "vistoria_until": f"{1990 + i % 60}-0{1 + i % 9}-1{i % 9}"}
            for i in range(1, 80)]
    packed = pack_table("vehicle", many, "packed2")
    assert "codes" in packed["model"] and packed["vistoria_until"]["width"] == 3
    assert decode_packed(packed) == many
