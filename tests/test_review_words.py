"""The review record of an auto in words a clerk reads (issue 18, item 7): each auto field under
the law's label (never its key such as fed.auto.tipificacao), the crachá reading of the
inspection the auto was begun from carried onto the auto's card, the permit named as the law
names it."""
import json
from pathlib import Path

import pytest

from fieldsync_device import FakeDevice
from helpers import login

PACKS = Path(__file__).resolve().parent.parent / "shared_rules" / "packs"


@pytest.fixture
def phone(client, demo):
    return FakeDevice(client, "fiscal.sapezal")


def test_auto_card_shows_labels_and_the_crachá_read_at_the_inspection(app, client, phone):
    federal = json.loads((PACKS / "federal-base.json").read_text(encoding="utf-8"))
    label = {f["id"]: f["label_pt"] for f in federal["auto_fields"]}
    credential = {"verdict": "VÁLIDO", "reason": "Credencial autêntica, alvará de autorização ativo.",
                  "reason_code": "ok", "payload_text": "HTTPS://X/V/ABC"}
    inspection = phone.body("inspection", credential=credential, permit_number=None, plate="ABC1D23")
    auto = phone.auto(phone.reserve(1)[0], inspection_id=inspection["id"], plate="ABC1D23",
                      auto_fields={"fed.auto.tipificacao": "Transporte de dois passageiros"})
    result = phone.push([phone.record(inspection), auto])
    assert [x["status"] for x in result.json["results"]] == ["accepted", "accepted"]
    login(client, "backoffice.sapezal")
    page = client.get(f"/bo/revisao/registros/{auto['id']}").get_data(as_text=True)
    card = page.split('id="h-quem"', 1)[1]
    assert "sem leitura de crachá" not in card
    assert "Credencial autêntica, alvará de autorização ativo." in card
    assert "lido na inspeção que originou este auto" in card
    visible = page.split("<pre", 1)[0]  # the raw signed JSON below may show keys: it is the record
    assert f"<dt>{label['fed.auto.tipificacao']}</dt>" in visible and "<dt>fed.auto.tipificacao</dt>" not in visible
    assert "<dt>Alvará de autorização</dt>" in visible


def test_auto_without_a_crachá_says_so(app, client, phone):
    inspection = phone.body("inspection", credential=None, permit_number=None, plate="ABC1D23")
    auto = phone.auto(phone.reserve(1)[0], inspection_id=inspection["id"], plate="ABC1D23")
    phone.push([phone.record(inspection), auto])
    login(client, "backoffice.sapezal")
    page = client.get(f"/bo/revisao/registros/{auto['id']}").get_data(as_text=True)
    assert "sem leitura de crachá" in page.split('id="h-quem"', 1)[1]
