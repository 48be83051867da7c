"""How each checklist answer was given (issue 34), as the back office shows it: the record page
says for every answer whether it was given item by item, by a group declaration (which one, what it
showed) or by the registry, lists the items not asked with the answer that rules them out, points
at what a defence would attack; an auto's infractions show the answers they rest on. A record from
a phone on an earlier shell (no provenance) is accepted and shown as "forma de resposta não
registrada", never as item by item. Both CSVs carry the same words. Records come from a FakeDevice
through the real sync API."""
import csv
import io

import pytest

from fieldsync_device import FakeDevice
from helpers import login

AT = "2026-11-30T14:03:12.000Z"  # 10:03:12 in Cuiabá


@pytest.fixture
def phone(client, demo):
    return FakeDevice(client, "fiscal.sapezal")


@pytest.fixture
def clerk(app, demo):
    c = app.test_client()
    login(c, "backoffice.sapezal")
    return c


def _signed_answers():
    """A stop as the new app signs it: no passenger and nothing else in the situation (declared),
    no helmet (item), the rest of the driver's group declared after it was shown, a quick mirror
    count, the visor not asked."""
    situation = ["passenger.present", "context.raining", "service.goods_delivery"]
    driver = ["driver.helmet", "driver.vest", "driver.vest_retroreflective", "driver.footwear_ok"]
    return {
        "answers": {"passenger.present": False, "service.goods_delivery": False, "driver.helmet": False,
                    "driver.vest": True, "driver.vest_retroreflective": True, "driver.footwear_ok": "nao_verificado",
                    "equipment.mirrors_count": 2, "permit.exists": True},
        "answer_sources": {"permit.exists": "registry"},
        "answer_how": {"passenger.present": {"how": "group", "declaration": 0},
                       "service.goods_delivery": {"how": "group", "declaration": 0},
                       "driver.helmet": {"how": "item", "at": AT},
                       "driver.vest": {"how": "group", "declaration": 1},
                       "driver.vest_retroreflective": {"how": "group", "declaration": 1},
                       "driver.footwear_ok": {"how": "item", "at": AT},
                       "equipment.mirrors_count": {"how": "item", "at": AT, "quick": True},
                       "permit.exists": {"how": "registry"}},
        "group_declarations": [
            {"group": "situacao", "label_pt": "Situação da abordagem", "kind": "none", "at": AT,
             "shown": situation, "answered": ["passenger.present", "service.goods_delivery"]},
            {"group": "condutor", "label_pt": "O condutor: equipamentos, documentos e conduta", "kind": "compliant",
             "at": AT, "shown": driver, "answered": ["driver.vest", "driver.vest_retroreflective"]}],
        "not_applicable": {"driver.helmet_visor": {"because": {"driver.helmet": False}},
                           "driver.helmet_inmetro": {"because": {"driver.helmet": False}},
                           "passenger.helmet": {"because": {"passenger.present": False}}},
    }


def _rows(page, fact):
    """The text of the checklist row of `fact` (data-fact attribute)."""
    start = page.index(f'data-fact="{fact}"')
    return page[start:page.index("</tr>", start)]


def test_each_answer_says_how_it_was_given(clerk, phone):
    rec = phone.inspection(**_signed_answers())
    assert phone.push([rec]).json["results"][0]["status"] == "accepted"
    page = clerk.get(f"/bo/revisao/registros/{rec['id']}").get_data(as_text=True)
    assert "item a item, às 10:03:12" in _rows(page, "driver.helmet")
    assert "declaração “Tudo conforme neste grupo” (O condutor: equipamentos, documentos e conduta, às 10:03:12), após exibir 4 item(ns)" in _rows(page, "driver.vest")
    assert "declaração “Nenhuma destas situações”" in _rows(page, "passenger.present")
    assert "Conforme (2 ou mais), sem contar ou medir" in _rows(page, "equipment.mirrors_count")
    assert "conforme sem contar ou medir" in _rows(page, "equipment.mirrors_count")
    assert "não verificado" in _rows(page, "driver.footwear_ok")
    visor = _rows(page, "driver.helmet_visor")
    assert "Não se aplica" in visor and "não perguntado: O condutor está de capacete? — Não" in visor
    assert "Está transportando passageiro agora? — Não" in _rows(page, "passenger.helmet")
    assert "“Tudo conforme neste grupo” em O condutor: equipamentos, documentos e conduta: 4 itens exibidos na tela antes do toque, 2 respondidos por ela." in page
    assert "1 resposta(s) item a item; 1 número(s) conforme(s) sem contar ou medir; 4 por 2 declaração(ões) de grupo" in page
    assert "3 item(ns) não se aplica(m)" in page
    assert "answers-contradict" not in page

    answers = list(csv.reader(io.StringIO(clerk.get(f"/bo/revisao/registros/{rec['id']}/respostas.csv")
                                          .get_data(as_text=True).lstrip("\ufeff")), delimiter=";"))
    assert answers[0] == ["Área", "Pergunta", "Resposta", "Como foi respondida", "Fundamento", "Fato"]
    by_fact = {row[5]: row for row in answers[1:]}
    assert by_fact["driver.helmet"][3].startswith("item a item")
    assert by_fact["driver.vest"][3].startswith("declaração “Tudo conforme neste grupo”")
    assert by_fact["driver.helmet_visor"][2:4] == ["Não se aplica", "não perguntado: O condutor está de capacete? — Não"]
    queue = list(csv.reader(io.StringIO(clerk.get("/bo/revisao/?formato=csv").get_data(as_text=True).lstrip("\ufeff")),
                            delimiter=";"))
    assert queue[0][-2:] == ["Como as respostas foram dadas", "Registro"]
    assert any(row[-1] == rec["id"] and row[-2].startswith("1 resposta(s) item a item") for row in queue[1:])


def test_a_record_of_an_earlier_app_is_accepted_and_shown_as_not_recorded(clerk, phone):
    rec = phone.inspection(answers={"driver.helmet": False, "driver.helmet_visor": True, "permit.exists": True},
                           answer_sources={"driver.helmet": "fiscal", "driver.helmet_visor": "fiscal",
                                           "permit.exists": "registry"})
    assert phone.push([rec]).json["results"][0]["status"] == "accepted"
    page = clerk.get(f"/bo/revisao/registros/{rec['id']}").get_data(as_text=True)
    assert "forma de resposta não registrada (aplicativo anterior)" in _rows(page, "driver.helmet_visor")
    assert "cadastro" in _rows(page, "permit.exists")
    assert "Registro de uma versão anterior do aplicativo" in page
    assert "item a item" not in _rows(page, "driver.helmet") and "declaração" not in _rows(page, "driver.helmet")
    queue = clerk.get("/bo/revisao/?formato=csv").get_data(as_text=True)
    assert "forma de resposta não registrada" in queue


def test_a_contradiction_in_the_signed_answers_is_pointed_at(clerk, phone):
    signed = _signed_answers()
    signed["answers"]["driver.helmet_visor"] = True          # stored although "não se aplica"
    signed["answer_how"]["driver.helmet_visor"] = {"how": "group", "declaration": 1}  # and never shown
    rec = phone.inspection(**signed)
    phone.push([rec])
    page = clerk.get(f"/bo/revisao/registros/{rec['id']}").get_data(as_text=True)
    assert "Respostas contraditórias no registro assinado" in page
    assert "“driver.helmet_visor” tem resposta e também consta como “não se aplica”." in page
    assert "“driver.helmet_visor” foi respondido por uma declaração de grupo que não o exibiu." in page


def test_unreadable_provenance_is_worded_never_a_500(clerk, phone):
    rec = phone.inspection(answers={"driver.helmet": False}, answer_how={"driver.helmet": "item"},
                           group_declarations="x", not_applicable=[1, 2])
    assert phone.push([rec]).json["results"][0]["status"] == "accepted"
    response = clerk.get(f"/bo/revisao/registros/{rec['id']}")
    assert response.status_code == 200
    assert "forma de resposta ilegível no registro" in response.get_data(as_text=True)


def test_an_auto_shows_what_each_infraction_rests_on(clerk, phone):
    number = phone.reserve(1)[0]
    inspection = phone.body("inspection", **_signed_answers())
    auto = phone.auto(number, inspection_id=inspection["id"], plate="ABC1D23", infractions=[
        {"id": "sap.inf.capacete_condutor", "citation": {"law": "L125", "art": "16", "inciso": "I"},
         "label_pt": "Condutor sem capacete", "amount": None, "amount_brl": None, "decision": "confirmed",
         "removal_reason": None, "grounds": [{"fact": "driver.helmet", "value": False, "how": "item", "at": AT}]}],
        checklist_how={"item": 1, "quick": 1, "group": 4, "declarations": 2, "registry": 1, "not_checked": 1,
                       "not_applicable": 3})
    old = phone.auto(phone.reserve(1)[0], plate="ABC1D23")  # an earlier app: no grounds, no counts
    assert [r["status"] for r in phone.push([phone.record(inspection), auto, old]).json["results"]] == ["accepted"] * 3
    page = clerk.get(f"/bo/revisao/registros/{auto['id']}").get_data(as_text=True)
    assert "O condutor está de capacete? — Não (item a item, às 10:03:12)" in page
    assert "Respostas do checklist: 1 resposta(s) item a item" in page
    earlier = clerk.get(f"/bo/revisao/registros/{old['id']}").get_data(as_text=True)
    assert "Respostas do checklist: forma de resposta não registrada (aplicativo anterior)." in earlier
    answers = clerk.get(f"/bo/revisao/registros/{auto['id']}/respostas.csv").get_data(as_text=True)
    assert "driver.helmet_visor" in answers  # the auto's CSV is its inspection's answers
    foreign = clerk.application.test_client()
    login(foreign, "backoffice.paranatinga")
    assert foreign.get(f"/bo/revisao/registros/{auto['id']}/respostas.csv").status_code == 404
