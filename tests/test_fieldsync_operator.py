"""The operator's autos (API) and the public auto page behind the fiscal's QR."""
import json
from pathlib import Path

import pytest

from fieldsync_device import FakeDevice


@pytest.fixture
def scene(app, client, demo):
    """A Sapezal fiscal's phone, a permit's driver with an operator login, and their tokens."""
    from server.core.auth import issue_api_token
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
