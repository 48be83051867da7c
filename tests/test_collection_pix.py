"""PIX collection of fines (issue 37): a fine applied on an auto gets a txid and, from the
municipality's settings with their act, a BR Code that decoders the project did not write accept —
the QR read from the notificação de penalidade by zxing-cpp, its EMV fields and CRC checked by the
npm package pix-utils and the CRC again by the PyPI package crccheck. No key: no slip, and why.
A bank statement (OFX read by ofxtools, or the bank's CSV) marks the fine paid and closes it in
the ledger; what does not match waits for a clerk."""
import subprocess
from datetime import timedelta
from io import BytesIO

import pytest

from autos_process_helpers import backdate_notification, homologated_case
from helpers import csrf_token, login
from operator_helpers import operator_headers
from pix_check import crc_ok, pix_utils_parse

CNPJ = "11.222.333/0001-81"


def _configure(clerk, **fields):
    path = "/bo/arrecadacao/configuracao"
    data = {"csrf_token": csrf_token(clerk, path), "pix_key_type": "cnpj", "pix_key": CNPJ,
            "pix_receiver_name": "PREF MUN PARANATINGA", "pix_city": "PARANATINGA",
            "pix_act": "Decreto 31/2026, art. 2º", **fields}
    return clerk.post(path, data=data)


def _applied_fine(app, client, served_days_ago=20):
    """A homologated Paranatinga auto (Lei 311/2007, art. 50, I, c: 29 UFIR = R$ 30,86 on the auto),
    notified, served, its 3-day deadline passed: the fine is applied."""
    from server.core.clock import local_today
    from server.extensions import db
    from server.modules.autos.models import AutoCase
    from server.modules.autos.process_operations import issue_notification, record_service
    case_id, _ = homologated_case(app, client, "paranatinga")
    with app.app_context():
        issue_notification(db.session.get(AutoCase, case_id))
        db.session.commit()  # the test plays the requests that would have committed these
    served = local_today() - timedelta(days=served_days_ago)
    backdate_notification(app, case_id, served - timedelta(days=1))
    with app.app_context():
        record_service(db.session.get(AutoCase, case_id), "postal_ar", served.isoformat(), "AR JT123456789BR")
        db.session.commit()
        case = db.session.get(AutoCase, case_id)
        return case_id, case.record_id, case.record.operator_id


def _charge(app):
    from server.modules.collection.models import PixCharge
    with app.app_context():
        charge = PixCharge.query.one()
        return {"id": charge.id, "txid": charge.txid, "cents": charge.amount_cents, "state": charge.state,
                "applied_on": charge.applied_on, "penalty_id": charge.penalty_id}


@pytest.fixture
def clerk(app, demo):
    c = app.test_client()
    login(c, "backoffice.paranatinga")
    return c


def test_settings_are_checked_and_name_the_field(app, clerk):
    bad_key = _configure(clerk, pix_key="11.222.333/0001-82")
    assert bad_key.status_code == 422 and "CNPJ inválido" in bad_key.get_data(as_text=True)
    no_act = _configure(clerk, pix_act="")
    assert no_act.status_code == 422 and "ato que destina" in no_act.get_data(as_text=True)
    long_name = _configure(clerk, pix_receiver_name="Prefeitura Municipal de Paranatinga")
    assert long_name.status_code == 422 and "até 25 caracteres" in long_name.get_data(as_text=True)
    late_without_act = _configure(clerk, due_days="30", due_act="CTM art. 10", late_fine_percent="2")
    assert late_without_act.status_code == 422 and "nada é acrescido" in late_without_act.get_data(as_text=True)
    assert _configure(clerk).status_code == 303


def test_without_a_key_there_is_no_slip_and_the_screens_say_why(app, client, clerk):
    case_id, _record_id, operator_id = _applied_fine(app, client)
    charge = _charge(app)
    assert charge["state"] == "aberta" and charge["cents"] == 3086 and charge["txid"].startswith("MF5106307M")
    [auto] = client.get("/api/v1/operator/autos", headers=operator_headers(app, client, operator_id)).json["autos"]
    [made] = auto["payment"]["charges"]
    assert made["brcode"] is None and "ainda não cadastrou a chave PIX" in made["why_pt"]
    assert made["amount_pt"] == "R$ 30,86" and "nenhum ato municipal fixa prazo" in made["due_pt"].lower()
    page = clerk.get("/bo/arrecadacao/").get_data(as_text=True)
    assert "Sem código PIX nas notificações" in page and charge["txid"] in page
    # The penalty notice said so too (no contact on record: kept as "sem canal", its text intact).
    from server.modules.notices.models import Notice
    with app.app_context():
        [notice] = Notice.query.filter_by(kind="penalidade").all()
        assert "Pagamento por PIX indisponível" in notice.body and charge["txid"] in notice.body


def test_the_br_code_is_accepted_by_independent_decoders(app, client, clerk, tmp_path):
    import zxingcpp
    from PIL import Image
    assert _configure(clerk).status_code == 303
    case_id, _record_id, operator_id = _applied_fine(app, client)
    charge = _charge(app)
    [auto] = client.get("/api/v1/operator/autos", headers=operator_headers(app, client, operator_id)).json["autos"]
    [made] = auto["payment"]["charges"]
    payload = made["brcode"]
    assert payload and made["why_pt"] is None

    # The QR printed on the notificação de penalidade, read back from a rendering of the PDF.
    pdf = clerk.get(f"/bo/arrecadacao/autos/{case_id}/penalidade.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    (tmp_path / "pen.pdf").write_bytes(pdf.data)
    subprocess.run(["pdftoppm", "-r", "200", "-png", "-f", "1", "-l", "1", str(tmp_path / "pen.pdf"),
                    str(tmp_path / "page")], check=True)
    image = Image.open(next(tmp_path.glob("page*.png")))
    [read] = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
    assert read.text == payload
    text = subprocess.run(["pdftotext", str(tmp_path / "pen.pdf"), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert "NOTIFICAÇÃO DE PENALIDADE" in text and charge["txid"] in text

    parsed = pix_utils_parse(read.text)
    assert "error" not in parsed, parsed
    assert parsed["type"] == "STATIC" and parsed["pixKey"] == "11222333000181"
    assert parsed["transactionAmount"] == 30.86 and parsed["txid"] == charge["txid"]
    assert parsed["merchantName"] == "PREF MUN PARANATINGA" and parsed["merchantCity"] == "PARANATINGA"
    assert (parsed["merchantCategoryCode"], parsed["transactionCurrency"], parsed["countryCode"]) == ("0000", "986", "BR")
    assert crc_ok(payload)
    tampered = payload.replace("30.86", "03.86")
    assert pix_utils_parse(tampered) == {"error": "invalid crc"}


def test_with_dam_the_slip_waits_for_its_number(app, client, clerk):
    assert _configure(clerk, dam_used="1", dam_act="Lei Complementar 40/2005 (CTM), art. 201").status_code == 303
    _applied_fine(app, client)
    charge = _charge(app)
    from server.extensions import db
    from server.modules.collection.charges import slip
    from server.modules.collection.models import PixCharge
    with app.app_context():
        assert "número deste ainda não foi registrado" in slip(db.session.get(PixCharge, charge["id"]))["why_pt"]
    path = "/bo/arrecadacao/"
    clerk.post(f"/bo/arrecadacao/multas/{charge['id']}/dam", data={"csrf_token": csrf_token(clerk, path),
                                                                  "dam_number": "2026/000123"})
    with app.app_context():
        made = slip(db.session.get(PixCharge, charge["id"]))
    assert made["dam_number"] == "2026/000123" and made["brcode"]
    assert pix_utils_parse(made["brcode"])["infoAdicional"].endswith("DAM 2026/000123")


OFX = """OFXHEADER:100
DATA:OFXSGML
VERSION:102
SECURITY:NONE
ENCODING:USASCII
CHARSET:1252
COMPRESSION:NONE
OLDFILEUID:NONE
NEWFILEUID:NONE

<OFX>
<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>{day}120000[-3:BRT]<LANGUAGE>POR</SONRS></SIGNONMSGSRSV1>
<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>
<STMTRS><CURDEF>BRL<BANKACCTFROM><BANKID>001<BRANCHID>1234-5<ACCTID>99999-9<ACCTTYPE>CHECKING</BANKACCTFROM>
<BANKTRANLIST><DTSTART>{day}000000[-3:BRT]<DTEND>{day}000000[-3:BRT]
{lines}
</BANKTRANLIST><LEDGERBAL><BALAMT>1000.00<DTASOF>{day}000000[-3:BRT]</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1>
</OFX>
"""


def _line(fitid, day, amount, memo):
    kind = "CREDIT" if not amount.startswith("-") else "DEBIT"
    return (f"<STMTTRN><TRNTYPE>{kind}<DTPOSTED>{day}000000[-3:BRT]<TRNAMT>{amount}<FITID>{fitid}"
            f"<MEMO>{memo}</STMTTRN>")


def _import(clerk, name, data):
    path = "/bo/arrecadacao/extratos"
    return clerk.post(path, data={"csrf_token": csrf_token(clerk, path), "file": (BytesIO(data), name)},
                      content_type="multipart/form-data")


def test_a_statement_marks_the_fine_paid_and_an_unmatched_line_waits_for_a_clerk(app, client, clerk):
    from server.core.clock import local_today
    assert _configure(clerk).status_code == 303
    case_id, _record_id, operator_id = _applied_fine(app, client)
    charge = _charge(app)
    day = local_today().strftime("%Y%m%d")
    lines = "\n".join([_line("F1", day, "30.86", f"PIX RECEBIDO {charge['txid']} JOAO"),
                       _line("F2", day, "50.00", "PIX RECEBIDO SEM IDENTIFICACAO"),
                       _line("F3", day, "-12.00", "TARIFA PACOTE")])
    statement = OFX.format(day=day, lines=lines).encode("cp1252")
    done = _import(clerk, "extrato.ofx", statement)
    assert done.status_code == 303
    page = clerk.get(done.headers["Location"]).get_data(as_text=True)
    assert "3 lançamentos, 3 novos; 1 multa conciliada; 1 aguardando o setor" in page

    from server.modules.autos.process_models import AutoPayment, AutoPenalty
    from server.modules.collection.models import StatementLine
    with app.app_context():
        paid = _charge(app)
        assert paid["state"] == "paga"
        payment = AutoPayment.query.one()
        assert (payment.amount_cents, payment.paid_on, payment.guia_number) == (3086, local_today(),
                                                                              f"PIX {charge['txid']}")
        from server.extensions import db
        assert db.session.get(AutoPenalty, charge["penalty_id"]).paid_payment_id == payment.id
        states = {line.bank_id: (line.state, line.reason) for line in StatementLine.query}
    assert states["F1"][0] == "conciliada" and states["F3"][0] == "ignorada"
    assert states["F2"] == ("pendente", "Crédito sem txid de multa no histórico.")

    # The same file again is refused; an overlapping one adds only its new lines.
    again = _import(clerk, "extrato.ofx", statement)
    assert again.status_code == 422 and "já foi importado" in again.get_data(as_text=True)
    overlap = OFX.format(day=day, lines=lines + "\n" + _line("F4", day, "30.86", f"PIX {charge['txid']}")).encode()
    assert _import(clerk, "extrato2.ofx", overlap).status_code == 303
    with app.app_context():
        assert StatementLine.query.count() == 4
        assert StatementLine.query.filter_by(bank_id="F4").one().reason.startswith(
            f"A multa {charge['txid']} já estava paga")  # a second payment is a clerk's case, never counted

    # The ledger shows it paid; the operator's app too.
    with app.app_context():
        ledger = clerk.get(f"/autos/ficha/operador/{operator_id}").get_data(as_text=True)
    assert "Quitada em" in ledger
    [auto] = client.get("/api/v1/operator/autos", headers=operator_headers(app, client, operator_id)).json["autos"]
    [made] = auto["payment"]["charges"]
    assert made["state"] == "paga" and made["brcode"] is None and made["why_pt"].startswith("Multa paga em")
    assert any(n["kind"] == "pagamento" for n in auto["notices"])

    # The clerk's queue: the unmatched credit, discarded with a reason.
    queue = clerk.get("/bo/arrecadacao/pendencias").get_data(as_text=True)
    assert "PIX RECEBIDO SEM IDENTIFICACAO" in queue and "Crédito sem txid" in queue
    with app.app_context():
        pending_id = StatementLine.query.filter_by(bank_id="F2").one().id
    path = "/bo/arrecadacao/pendencias"
    short = clerk.post(f"/bo/arrecadacao/lancamentos/{pending_id}/descartar",
                       data={"csrf_token": csrf_token(clerk, path), "note": "não"})
    assert short.status_code == 422 and "Justifique" in short.get_data(as_text=True)
    assert clerk.post(f"/bo/arrecadacao/lancamentos/{pending_id}/descartar",
                      data={"csrf_token": csrf_token(clerk, path),
                            "note": "Depósito da taxa de alvará, não é multa."}).status_code == 303
    with app.app_context():
        assert [line.bank_id for line in StatementLine.query.filter_by(state="pendente")] == ["F4"]


def test_a_csv_credit_without_txid_is_linked_by_the_clerk(app, client, clerk):
    from server.core.clock import local_today
    from server.modules.collection.models import StatementLine
    assert _configure(clerk).status_code == 303
    _applied_fine(app, client)
    charge = _charge(app)
    today = local_today().strftime("%d/%m/%Y")
    csv = f"Data;Histórico;Valor;Documento\n{today};PIX RECEBIDO MARIA;30,86;778899\n".encode("cp1252")
    assert _import(clerk, "extrato.csv", csv).status_code == 303
    with app.app_context():
        line = StatementLine.query.one()
        assert (line.state, line.bank_id, line.amount_cents) == ("pendente", "778899", 3086)
    path = "/bo/arrecadacao/pendencias"
    linked = clerk.post(f"/bo/arrecadacao/lancamentos/{line.id}/vincular",
                        data={"csrf_token": csrf_token(clerk, path), "txid": charge["txid"],
                              "note": "Comprovante apresentado pela autuada no balcão."})
    assert linked.status_code == 303
    assert _charge(app)["state"] == "paga"
    bad = _import(clerk, "outro.csv", b"quando;quanto\n01/01/2026;10\n")
    assert bad.status_code == 422 and "CSV sem a coluna data, valor" in bad.get_data(as_text=True)
    broken = _import(clerk, "extrato.ofx", b"OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><BANKMSGSRSV1><STMTTRN>")
    assert broken.status_code == 422 and "Arquivo OFX inválido" in broken.get_data(as_text=True)
    wrong_date = _import(clerk, "x.csv", b"data;valor\n31/02/2026;10,00\n")
    assert wrong_date.status_code == 422 and "Linha 2: Data inexistente" in wrong_date.get_data(as_text=True)


def test_late_payment_adds_only_what_an_act_fixes(app, client, clerk):
    from server.core.clock import local_today
    from server.extensions import db
    from server.modules.collection.charges import amount_due
    from server.modules.collection.models import PixCharge
    from server.modules.collection.settings import late_additions
    _applied_fine(app, client, served_days_ago=60)
    with app.app_context():
        charge = PixCharge.query.one()
        # No act: a fine paid a year late costs what it cost.
        assert amount_due(charge, local_today() + timedelta(days=365))[0] == 3086
    assert _configure(clerk, due_days="10", due_act="Decreto 31/2026, art. 3º", late_fine_percent="2",
                      late_interest_percent="1", late_interest_basis="mes_ou_fracao",
                      late_act="Lei Complementar 40/2005 (CTM), art. 212").status_code == 303
    with app.app_context():
        charge = db.session.get(PixCharge, charge.id)
        settings = {"late_act": "CTM", "late_fine_percent": "2", "late_interest_percent": "1",
                    "late_interest_basis": "mes_ou_fracao"}
        from datetime import date
        # Due 10/03: paid 11/03 = 2% + 1 month (a fraction) = 3%; paid 11/04 = 2% + 2 months = 4%.
        assert late_additions(3086, date(2026, 3, 10), date(2026, 3, 10), settings) == (0, None)
        assert late_additions(3086, date(2026, 3, 10), date(2026, 3, 11), settings)[0] == 93
        assert late_additions(3086, date(2026, 3, 10), date(2026, 4, 11), settings)[0] == 123
        due, words = amount_due(charge, local_today())
        assert due > 3086 and "CTM), art. 212" in words
