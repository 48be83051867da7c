"""The operator's autos (API) and the public auto page behind the fiscal's QR."""
import json
from pathlib import Path

import pytest

from fieldsync_device import FakeDevice


@pytest.fixture
def scene(app, client, demo):
    """A Sapezal fiscal's phone, a permit's driver with an operator login, and their tokens."""
    from server.modules.accounts.identity import issue_api_token
    from server.extensions import db
    from server.modules.accounts.models import User
    from server.modules.registry.models import Municipality, Permit
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        permit = Permit.query.filter_by(municipality_id=muni.id).order_by(Permit.id).first()
        driver = permit.main_driver
        user = User(municipality_id=muni.id, username="op.teste", name=driver.name, role="operator",
                    operator_id=driver.id)
        db.session.add(user)
        db.session.flush()
        text, _row = issue_api_token(user)
        db.session.commit()
        info = {"permit_number": permit.number, "operator_id": driver.id, "name": driver.name, "cpf": driver.cpf,
                "operator_headers": {"Authorization": f"Bearer {text}"}}
    info["phone"] = FakeDevice(client, "fiscal.sapezal")
    return info


def _issue(scene, token):
    phone = scene["phone"]
    number = phone.reserve(1)[0]
    inspection = phone.body("inspection", permit_number=scene["permit_number"], plate="QRS4T56",
                            operator_id=scene["operator_id"])
    records = [phone.record(inspection), phone.auto(number, inspection_id=inspection["id"], token=token)]
    assert [r["status"] for r in phone.push(records).json["results"]] == ["accepted", "accepted"]
    return number, records[1]["id"]


def test_operator_lists_their_autos(client, scene):
    token = "T" * 40
    number, auto_id = _issue(scene, token)
    response = client.get("/api/v1/operator/autos", headers=scene["operator_headers"])
    assert response.status_code == 200
    [auto] = response.json["autos"]
    assert auto["id"] == auto_id and auto["number"] == number and auto["plate"] == "QRS4T56"
    assert auto["permit_number"] == scene["permit_number"] and auto["public_url"] == f"/a/{token}"
    assert auto["infractions"][0]["id"] == "sap.inf.um_passageiro" and auto["cancel_requested"] is False
    pack = json.loads((Path(__file__).resolve().parent.parent / "shared_rules" / "packs"
                       / "sapezal-lei-125-1999.json").read_text(encoding="utf-8"))
    title = next(i["label_pt"] for i in pack["infractions"] if i["id"] == "sap.inf.um_passageiro")
    assert auto["infractions"][0]["label_pt"] == title == "Mais de um passageiro"  # the pack's title
    assert auto["defence"] == {"deadline_days": 30, "instance": "JARI"}
    phone = scene["phone"]
    phone.push([phone.record(phone.body("cancel_request", auto_id=auto_id, reason="Placa digitada errada"))])
    assert client.get("/api/v1/operator/autos",
                      headers=scene["operator_headers"]).json["autos"][0]["cancel_requested"] is True
    # Fiscais and staff use other endpoints: this one is the operator's own.
    assert client.get("/api/v1/operator/autos", headers=phone.headers).status_code == 403


def test_public_page_shows_the_auto_with_minimal_data(client, scene):
    token = "abcDEF0123456789_-abcDEF0123456789"
    assert "ainda não recebido pelo servidor" in client.get(f"/a/{token}").get_data(as_text=True)
    assert client.get(f"/a/{token}").status_code == 404
    number, _auto_id = _issue(scene, token)
    page = client.get(f"/a/{token}")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and number in html and "QRS4T56" in html
    assert "Mais de um passageiro" in html and "R$ 123,45" in html and "30 dias" in html
    assert scene["name"] not in html and scene["cpf"] not in html  # minimal data
    assert page.headers["Cache-Control"] == "no-store" and page.headers["Referrer-Policy"] == "no-referrer"
    # A token that merely starts the same finds nothing.
    assert client.get(f"/a/{token[:-1]}").status_code == 404
    assert client.get("/a/short").status_code == 404


# --- the operator's signed copy (/a/#…): published device keys and the server's view ------------

def test_device_keys_are_published_per_municipality_without_names(app, client, scene):
    from server.modules.registry.models import Municipality
    with app.app_context():
        ibge = Municipality.query.filter_by(slug="sapezal").one().ibge_code
    phone = scene["phone"]
    response = client.get(f"/api/v1/public/municipalities/{ibge}/device-keys")  # no login
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "public, max-age=300"
    data = response.json
    assert data["municipality"]["ibge"] == ibge and data["municipality"]["name"] == "Sapezal"
    mine = [k for k in data["keys"] if k["device_id"] == phone.device_id]
    assert mine == [{"device_id": phone.device_id, "algorithm": "Ed25519", "public_key": phone.public_key,
                     "status": "active"}]
    text = response.get_data(as_text=True)
    assert "Moto G" not in text and "fiscal" not in text.lower()  # no device name, no user
    # Another municipality's phone is not in Sapezal's list.
    other = FakeDevice(client, "fiscal.paranatinga")
    assert other.device_id not in [k["device_id"] for k in client.get(
        f"/api/v1/public/municipalities/{ibge}/device-keys").json["keys"]]
    assert client.get("/api/v1/public/municipalities/9999999/device-keys").status_code == 404
    bad = client.get("/api/v1/public/municipalities/abc/device-keys")
    assert bad.status_code == 422 and "ibge" in bad.json["error"]["fields"]


def test_copy_page_is_static_and_the_server_view_follows_the_process(app, client, scene):
    page = client.get("/a/")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and '<script type="module" src="/app/js/autocopy/page.js">' in html
    assert "<script>" not in html and "Content-Security-Policy" in page.headers
    token = "copyTOKEN0123456789_-copyTOKEN0123456789"
    missing = client.get(f"/api/v1/public/autos/{token}")
    assert missing.status_code == 404 and missing.json["error"]["message"] == "Auto ainda não recebido pelo servidor."
    number, auto_id = _issue(scene, token)
    data = client.get(f"/api/v1/public/autos/{token}").json
    assert data["number"] == number and data["received_at"]
    assert data["process"]["state"] == "recebido" and data["process"]["notification"] is None
    assert [i["amount_text"] for i in data["infractions"]] == ["R$ 123,45"]
    assert scene["name"] not in str(data) and scene["cpf"] not in str(data)

    from server.extensions import db
    from server.modules.autos.models import AutoCase
    from server.modules.autos.operations import decide
    with app.app_context():
        case = AutoCase.query.filter_by(record_id=auto_id).one()
        decide(case, "auto_homologate", "Conferido com as fotos do auto.")
        db.session.commit()
    data = client.get(f"/api/v1/public/autos/{token}").json
    assert data["process"]["state"] == "homologado" and data["process"]["state_pt"] == "Homologado"
    assert data["process"]["deadlines"], data["process"]  # Sapezal's law sets its instances
    assert all(d["citation_pt"] and d["text_pt"] for d in data["process"]["deadlines"])
    [auto] = client.get("/api/v1/operator/autos", headers=scene["operator_headers"]).json["autos"]
    # The operator's own list adds their filings and the step they may file now (issue 37).
    mine = dict(auto["process"])
    assert mine.pop("filings") == [] and mine.pop("filing")["open"] is True
    assert mine == data["process"]
    html = client.get(f"/a/{token}").get_data(as_text=True)
    assert "Homologado" in html and "Notificação" in html
