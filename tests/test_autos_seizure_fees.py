"""Removal and pátio fees of a seizure (issue 11): no law sets an amount (Sapezal Lei 125/1999
art. 27 "eventual taxa de remoção"; Paranatinga Lei 311/2007 art. 45; Nortelândia Lei 030/1998
has no seizure at all), so each fee is a municipal setting with its act; a seizure is charged
what was configured when it was recorded, storage per day up to the release; payments against
each fee; release by each law, and the fees before release only where the municipality chose so."""
import re
from datetime import timedelta

from autos_process_helpers import homologated_case
from helpers import csrf_token, login
from server.core.audit import AuditLog
from server.core.clock import local_today

SETTINGS = "/autos/processo/configuracao"


def _post(client, case_id, action, **data):
    token = csrf_token(client, f"/autos/{case_id}/processo")
    return client.post(f"/autos/{case_id}/processo/{action}", data={"csrf_token": token, **data})


def _configure(client, **fields):
    token = csrf_token(client, SETTINGS)
    return client.post(SETTINGS, data={"csrf_token": token, **fields})


def _errors(response):
    return re.findall(r'class="field-error"[^>]*>([^<]*)<', response.get_data(as_text=True))


def _rows(app, model, **filters):
    with app.app_context():
        return [{c.name: getattr(row, c.name) for c in model.__table__.columns}
                for row in model.query.filter_by(**filters).order_by(model.id)]


FEES = {"removal_fee": "85,00", "removal_fee_act": "Código Tributário Municipal, art. 120",
        "storage_fee_daily": "12,50", "storage_fee_act": "Código Tributário Municipal, art. 121",
        "storage_day_count": "dia_ou_fracao"}


def test_no_fee_is_charged_when_none_is_configured(app, client, demo):
    from server.modules.autos.process_models import Seizure, SeizureCharge, SeizureFeePayment
    case_id, _ = homologated_case(app, client, "sapezal", days_ago=2)
    login(client, "backoffice.sapezal")
    assert _post(client, case_id, "apreensao", kind="remocao", seized_on=local_today().isoformat()).status_code == 303
    seizure = _rows(app, Seizure, case_id=case_id)[0]
    assert _rows(app, SeizureCharge, seizure_id=seizure["id"]) == []
    page = client.get(f"/autos/{case_id}/processo").get_data(as_text=True)
    assert "Taxa de remoção: não configurada — nenhuma taxa de remoção é cobrada" in page
    assert "diária do pátio: não configurada — nenhuma diária é cobrada" in page
    assert "Nenhuma taxa cobrada" in page
    assert "Lei 125/1999, art. 27" in page  # the removal the law provides
    assert "a lei não põe condição" in page  # Sapezal says nothing of the release
    # No fee, nothing to pay: a payment against a fee is refused naming the field.
    refused = _post(client, case_id, "taxa", seizure_id=seizure["id"], charge_id="", guia_number="G-1",
                    paid_on=local_today().isoformat(), amount="10,00")
    assert refused.status_code == 422 and _rows(app, SeizureFeePayment) == []
    assert _post(client, case_id, "liberacao", seizure_id=seizure["id"], released_on=local_today().isoformat()).status_code == 303


def test_a_fee_needs_its_act_and_storage_its_way_of_counting(app, client, demo):
    login(client, "backoffice.sapezal")
    no_act = _configure(client, removal_fee="85,00")
    assert no_act.status_code == 422
    assert any("ato" in e and "taxa de remoção" in e for e in _errors(no_act))
    no_count = _configure(client, storage_fee_daily="12,50", storage_fee_act="Decreto 5/2026")
    assert no_count.status_code == 422 and any("como o ato conta as diárias" in e for e in _errors(no_count))
    for bad in ("-5", "0,00", "abc", "1e3", "12,345"):
        response = _configure(client, removal_fee=bad, removal_fee_act="Decreto 5/2026")
        assert response.status_code == 422, bad
    assert _configure(client, **FEES).status_code == 303
    page = client.get(SETTINGS).get_data(as_text=True)
    assert 'value="85,00"' in page and "Código Tributário Municipal, art. 121" in page
    assert "Nenhuma lei fixa o valor da remoção" in page
    with app.app_context():
        audit = AuditLog.query.filter_by(action="autos_settings").order_by(AuditLog.id.desc()).first()
        assert (audit.after["removal_fee_cents"], audit.after["storage_fee_daily_cents"]) == (8500, 1250)
        assert audit.after["removal_fee_act"] == "Código Tributário Municipal, art. 120"
        assert audit.after["release_requires_fees"] is False


def test_charges_with_their_act_storage_days_to_release_and_payments(app, client, demo):
    from server.modules.autos.process_models import Seizure, SeizureCharge, SeizureFeePayment
    case_id, _ = homologated_case(app, client, "sapezal", days_ago=6)
    login(client, "backoffice.sapezal")
    assert _configure(client, **FEES).status_code == 303
    today = local_today()
    seized_on = today - timedelta(days=4)
    assert _post(client, case_id, "apreensao", kind="remocao", seized_on=seized_on.isoformat()).status_code == 303
    # A later change of the settings does not reprice a seizure already recorded.
    assert _configure(client, **{**FEES, "removal_fee": "200,00"}).status_code == 303
    seizure = _rows(app, Seizure, case_id=case_id)[0]
    charges = {c["kind"]: c for c in _rows(app, SeizureCharge, seizure_id=seizure["id"])}
    assert (charges["remocao"]["unit_cents"], charges["remocao"]["act"]) == (8500, "Código Tributário Municipal, art. 120")
    assert (charges["estadia"]["unit_cents"], charges["estadia"]["day_count"]) == (1250, "dia_ou_fracao")
    page = client.get(f"/autos/{case_id}/processo").get_data(as_text=True)
    # Held for 4 nights: 5 calendar days counting the seizure day and today → 5 × 12,50.
    assert "5 diárias até" in page and "R$ 62,50" in page and "Código Tributário Municipal, art. 120" in page

    # Payments against each fee, never beyond what it owes.
    too_much = _post(client, case_id, "taxa", seizure_id=seizure["id"], charge_id=charges["remocao"]["id"],
                     guia_number="G-R1", paid_on=today.isoformat(), amount="85,01")
    assert too_much.status_code == 422 and any("R$ 85,00" in e for e in _errors(too_much))
    paid = _post(client, case_id, "taxa", seizure_id=seizure["id"], charge_id=charges["remocao"]["id"],
                 guia_number="G-R1", paid_on=today.isoformat(), amount="85,00")
    assert paid.status_code == 303
    assert _post(client, case_id, "taxa", seizure_id=seizure["id"], charge_id=charges["estadia"]["id"],
                 guia_number="G-E1", paid_on=today.isoformat(), amount="25,00").status_code == 303
    payments = _rows(app, SeizureFeePayment, seizure_id=seizure["id"])
    assert [(p["guia_number"], p["amount_cents"]) for p in payments] == [("G-R1", 8500), ("G-E1", 2500)]

    # Released two days ago (recorded late): storage counts up to the release, not to today.
    released_on = today - timedelta(days=2)
    assert _post(client, case_id, "liberacao", seizure_id=seizure["id"], released_on=released_on.isoformat()).status_code == 303
    page = client.get(f"/autos/{case_id}/processo").get_data(as_text=True)
    assert "3 diárias até" in page and "R$ 37,50" in page and "R$ 12,50" in page  # due, open
    with app.app_context():
        actions = [a.action for a in AuditLog.query.filter(AuditLog.entity.in_(("seizure", "seizure_fee_payment")))
                   .order_by(AuditLog.id)]
    assert actions == ["seizure", "seizure_fee_payment", "seizure_fee_payment", "seizure_release"]
    csv = client.get(f"/autos/ficha/operador/{_operator_of(app, case_id)}/taxas.csv").get_data(as_text=True)
    assert "Código Tributário Municipal, art. 121" in csv and ";3;37,50;25,00;12,50" in csv


def _operator_of(app, case_id):
    from server.extensions import db
    from server.modules.autos.models import AutoCase
    with app.app_context():
        return db.session.get(AutoCase, case_id).record.operator_id


def test_storage_counted_by_night_owes_nothing_for_a_same_day_release(app, client, demo):
    from server.modules.autos.process_models import Seizure
    case_id, _ = homologated_case(app, client, "sapezal", days_ago=1)
    login(client, "backoffice.sapezal")
    assert _configure(client, **{**FEES, "storage_day_count": "pernoite"}).status_code == 303
    today = local_today().isoformat()
    _post(client, case_id, "apreensao", kind="apreensao", seized_on=today)
    seizure = _rows(app, Seizure, case_id=case_id)[0]
    _post(client, case_id, "liberacao", seizure_id=seizure["id"], released_on=today)
    page = client.get(f"/autos/{case_id}/processo").get_data(as_text=True)
    assert "0 diárias até" in page


def test_fees_before_release_only_where_the_municipality_chose_so(app, client, demo):
    from server.modules.autos.process_models import Seizure, SeizureCharge
    case_id, _ = homologated_case(app, client, "sapezal", days_ago=3)
    login(client, "backoffice.sapezal")
    assert _configure(client, **FEES, release_requires_fees="1").status_code == 303
    today = local_today()
    _post(client, case_id, "apreensao", kind="remocao", seized_on=(today - timedelta(days=1)).isoformat())
    seizure = _rows(app, Seizure, case_id=case_id)[0]
    charges = {c["kind"]: c for c in _rows(app, SeizureCharge, seizure_id=seizure["id"])}
    refused = _post(client, case_id, "liberacao", seizure_id=seizure["id"], released_on=today.isoformat())
    text = refused.get_data(as_text=True)
    assert refused.status_code == 422 and "Taxas em aberto" in text and "R$ 85,00" in text and "R$ 25,00" in text
    assert "as taxas de remoção e de pátio são pagas antes da liberação" in text
    for kind, amount in (("remocao", "85,00"), ("estadia", "25,00")):
        assert _post(client, case_id, "taxa", seizure_id=seizure["id"], charge_id=charges[kind]["id"], guia_number=f"G-{kind}",
                     paid_on=today.isoformat(), amount=amount).status_code == 303
    assert _post(client, case_id, "liberacao", seizure_id=seizure["id"], released_on=today.isoformat()).status_code == 303
    assert _rows(app, Seizure, case_id=case_id)[0]["released_on"] == today


def test_paranatinga_releases_on_alvara_and_paid_fine_with_fees_open_by_default(app, client, demo):
    from server.modules.autos.process_models import Seizure
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=3)
    login(client, "backoffice.paranatinga")
    assert _configure(client, **FEES).status_code == 303
    today = local_today().isoformat()
    _post(client, case_id, "apreensao", kind="apreensao", seized_on=today)
    seizure = _rows(app, Seizure, case_id=case_id)[0]
    page = client.get(f"/autos/{case_id}/processo").get_data(as_text=True)
    assert "Lei 311/2007, art. 45, parágrafo único" in page and "Apreensão da moto (Lei 311/2007, art. 45" in page
    no_alvara = _post(client, case_id, "liberacao", seizure_id=seizure["id"], released_on=today)
    assert no_alvara.status_code == 422 and any("Sem o alvará" in e for e in _errors(no_alvara))
    assert _post(client, case_id, "pagamento", guia_number="GUIA-132", paid_on=today, amount="140,46").status_code == 303
    from server.modules.autos.process_models import AutoPayment
    payment_id = _rows(app, AutoPayment, case_id=case_id)[0]["id"]
    # The fees (R$ 85,00 + a day of pátio) stay open: art. 45 § único asks only the alvará and the
    # fine, and the municipal setting is off by default.
    assert _post(client, case_id, "liberacao", seizure_id=seizure["id"], released_on=today, alvara="012/2026",
                 payment_id=payment_id).status_code == 303


def test_nortelandia_law_provides_no_seizure_and_fee_routes_are_scoped(app, client, demo):
    from server.modules.autos.process_models import Seizure
    case_id, _ = homologated_case(app, client, "nortelandia", days_ago=1)
    login(client, "backoffice.nortelandia")
    page = client.get(f"/autos/{case_id}/processo").get_data(as_text=True)
    assert "A lei municipal não prevê apreensão nem remoção da moto." in page
    assert "A lei municipal não prevê apreensão nem remoção" in client.get(SETTINGS).get_data(as_text=True)
    _post(client, case_id, "apreensao", kind="remocao", seized_on=local_today().isoformat())
    seizure_id = _rows(app, Seizure, case_id=case_id)[0]["id"]
    other, _ = homologated_case(app, client, "sapezal", days_ago=1)
    client.post("/logout", data={"csrf_token": csrf_token(client, "/bo/")})
    login(client, "backoffice.sapezal")
    # Another municipality's case, or this case with a foreign seizure id: 404, nothing leaks.
    assert _post(client, case_id, "taxa", seizure_id=seizure_id).status_code == 404
    assert _post(client, other, "taxa", seizure_id=seizure_id, charge_id="1").status_code == 404


def test_release_paper_lists_the_fees_with_their_acts_and_the_law(app, client, demo, tmp_path):
    import subprocess
    from server.modules.autos.process_models import Seizure, SeizureCharge
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=4)
    login(client, "backoffice.paranatinga")
    assert _configure(client, **FEES).status_code == 303
    today = local_today()
    _post(client, case_id, "apreensao", kind="apreensao", seized_on=(today - timedelta(days=2)).isoformat())
    seizure = _rows(app, Seizure, case_id=case_id)[0]
    removal = next(c for c in _rows(app, SeizureCharge, seizure_id=seizure["id"]) if c["kind"] == "remocao")

    def text():
        response = client.get(f"/autos/{case_id}/apreensao/{seizure['id']}.pdf")
        assert response.status_code == 200 and response.mimetype == "application/pdf"
        path = tmp_path / "termo.pdf"
        path.write_bytes(response.data)
        return " ".join(subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout.split())

    held = text()
    assert "DEMONSTRATIVO DE TAXAS" in held and "3 diária(s) de R$ 12,50" in held
    assert "Código Tributário Municipal, art. 120" in held and "Lei 311/2007, art. 45, parágrafo único" in held
    _post(client, case_id, "taxa", seizure_id=seizure["id"], charge_id=removal["id"], guia_number="G-77",
          paid_on=today.isoformat(), amount="85,00")
    _post(client, case_id, "pagamento", guia_number="GUIA-132", paid_on=today.isoformat(), amount="140,46")
    from server.modules.autos.process_models import AutoPayment
    fine = _rows(app, AutoPayment, case_id=case_id)[0]
    _post(client, case_id, "liberacao", seizure_id=seizure["id"], released_on=today.isoformat(), alvara="012/2026",
          payment_id=fine["id"])
    released = text()
    assert "TERMO DE LIBERAÇÃO DO VEÍCULO" in released and "012/2026" in released and "Guia GUIA-132" in released
    assert "Guia G-77" in released and "em aberto R$ 37,50" in released  # 3 days of pátio still open
    client.post("/logout", data={"csrf_token": csrf_token(client, "/bo/")})
    login(client, "backoffice.sapezal")
    assert client.get(f"/autos/{case_id}/apreensao/{seizure['id']}.pdf").status_code == 404
