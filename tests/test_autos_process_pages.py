"""The process page, the notification PDF and its public check: the PDF is rendered to an image
with pdftoppm (poppler), its QR read by zxing-cpp and the code checked on /N/ and /n/; a
tampered code or a changed stored notification is refused. Scoping, CSRF and CSV."""
import json
import re
import shutil
import subprocess
from urllib.parse import quote

import pytest
import zxingcpp
from PIL import Image

from autos_process_helpers import art48_due, backdate_notification, homologated_case
from helpers import csrf_token, login
from server.core.clock import local_today


def _page(client, case_id):
    return client.get(f"/autos/{case_id}/processo")


def _post(client, case_id, action, **data):
    token = csrf_token(client, f"/autos/{case_id}/processo")
    return client.post(f"/autos/{case_id}/processo/{action}", data={"csrf_token": token, **data})


def _decode_pdf_qr(pdf_bytes, tmp_path):
    path = tmp_path / "notificacao.pdf"
    path.write_bytes(pdf_bytes)
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-f", "1", "-l", "1", str(path), str(tmp_path / "page")],
                   check=True)
    [png] = sorted(tmp_path.glob("page*.png"))
    found = zxingcpp.read_barcodes(Image.open(png), formats=zxingcpp.BarcodeFormat.QRCode)
    assert len(found) == 1
    return found[0].text, png


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils (pdftoppm) is not installed")
def test_notification_pdf_qr_proves_the_document_on_the_public_page(app, client, demo, tmp_path):
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=2)
    login(client, "backoffice.paranatinga")
    assert _post(client, case_id, "notificar").status_code == 303
    pdf = client.get(f"/autos/{case_id}/notificacao.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    assert client.get(f"/autos/{case_id}/notificacao.pdf").data == pdf.data  # a re-print is identical
    text, _ = _decode_pdf_qr(pdf.data, tmp_path)
    assert re.fullmatch(r"HTTP://LOCALHOST(:\d+)?/N/[A-Z2-7]+", text), text
    code = text.split("/N/")[1]
    client.post("/logout", data={"csrf_token": csrf_token(client, f"/autos/{case_id}/processo")})
    public = client.get(f"/N/{code}")
    body = public.get_data(as_text=True)
    assert public.status_code == 200 and "Documento autêntico" in body
    assert "Paranatinga" in body and "par.inf.g1_c" not in body and "ordem das corridas" in body
    assert "3 dias corridos" in body and "Secretário Municipal de Infra-estrutura" in body
    from server.modules.registry.models import Operator
    with app.app_context():
        operator = Operator.query.filter(Operator.name.is_not(None)).first()
        from server.modules.autos.process_models import AutoNotification
        note = AutoNotification.query.one()
        content = json.loads(note.content)
    assert content["operator"]["name"] not in body  # no name, CPF or address on the public page
    assert operator.cpf not in body
    assert client.get(f"/n/{code.lower()}").status_code == 200  # typed by hand, lower case
    flipped = code[:30] + ("A" if code[30] != "A" else "B") + code[31:]
    forged = client.get(f"/N/{flipped}")
    assert forged.status_code == 404 and "adulterado" in forged.get_data(as_text=True)
    assert client.get("/N/ISTO-NAO-E-CODIGO").status_code == 404
    from server.extensions import db
    with app.app_context():
        note = AutoNotification.query.one()
        changed = json.loads(note.content)
        changed["infractions"][0]["amount_brl_cents"] = 1
        note.content = json.dumps(changed, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        db.session.commit()
    tampered = client.get(f"/N/{code}")
    assert tampered.status_code == 404 and "difere do assinado" in tampered.get_data(as_text=True)


def test_notification_lists_every_field_the_law_requires(app, client, demo):
    from server.modules.autos.notification_content import build_content
    from server.modules.autos.models import AutoCase
    from server.extensions import db
    case_id, _ = homologated_case(app, client, "sapezal", days_ago=1)
    with app.app_context():
        content = build_content(db.session.get(AutoCase, case_id), 1, local_today())
    pack = json.loads(open("shared_rules/packs/sapezal-lei-125-1999.json", encoding="utf-8").read())
    federal = json.loads(open("shared_rules/packs/federal-base.json", encoding="utf-8").read())
    labels = {f["id"]: f["label_pt"] for f in federal["auto_fields"] + pack["auto_fields"]}
    # Printed once: "Local, data e hora" (CTB art. 280 II and art. 28 III) one row; the CTB
    # signature (art. 280 VI) inside art. 28 VI's "assinatura do infrator e prazo de defesa".
    expected = ["fed.auto.tipificacao", "fed.auto.local_data_hora", "fed.auto.veiculo", "fed.auto.prontuario",
                "fed.auto.orgao_agente", "sap.auto.assinatura_prazo", "sap.auto.nome", "sap.auto.alvara_placa",
                "sap.auto.autuante", "sap.auto.descricao"]
    assert [f["label"] for f in content["fields"]] == [labels[i] for i in expected]
    assert "Lei 125/1999" in content["fields"][1]["citation"] and "CTB" in content["fields"][1]["citation"]
    # Sapezal art. 28 VI asks for a defence deadline it never fixes: said so, not invented.
    [step] = content["instances"]
    assert step["days"] is None and "não definido em lei" in step["deadline"]
    assert step["authority"] == "não definido em lei — configure"
    inf = content["infractions"][0]
    assert (inf["amount_value"], inf["amount_unit"], inf["amount_brl_cents"]) == (50, "UFM", 12345)


def test_clerk_records_service_and_appeals_through_the_page(app, client, demo):
    from server.core.clock import local_today
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=2)
    login(client, "backoffice.paranatinga")
    _post(client, case_id, "notificar")
    bad = _post(client, case_id, "ciencia", via="postal_ar", served_on="", note="")
    assert bad.status_code == 422 and "Informe a data" in bad.get_data(as_text=True)
    today = local_today()
    ok = _post(client, case_id, "ciencia", via="postal_ar", served_on=today.isoformat(), note="AR JT1BR")
    assert ok.status_code == 303
    page = _page(client, case_id).get_data(as_text=True)
    assert "Correio com aviso de recebimento (AR)" in page and "Prazo até " + art48_due(app, today).strftime("%d/%m/%Y") in page
    assert _post(client, case_id, "defesa", filed_on=today.isoformat(), summary="curto").status_code == 422
    assert _post(client, case_id, "defesa", filed_on=today.isoformat(),
                 summary="Nega a infração; junta declaração de passageiro.").status_code == 303
    page = _page(client, case_id).get_data(as_text=True)
    assert "Secretário Municipal de Infra-estrutura" in page and "intempestiva" not in page
    csv = client.get(f"/autos/{case_id}/processo.csv")
    assert csv.status_code == 200 and csv.data.startswith(b"\xef\xbb\xbf")
    assert "par.inf.g1_c;Pendente" in csv.get_data(as_text=True)
    from server.core.audit import AuditLog
    with app.app_context():
        actions = [a.action for a in AuditLog.query.filter(AuditLog.entity.in_(("auto_notification", "auto_appeal")))
                   .order_by(AuditLog.id)]  # in the order recorded (PostgreSQL returns heap order otherwise)
    assert actions == ["auto_notification_issue", "auto_service", "auto_appeal_file"]


def test_clerk_records_the_ciencia_of_a_decision_and_the_next_period_runs_from_it(app, client, demo):
    """Paranatinga art. 48: the appeal to the Prefeito counts from the ciência of the Secretário's
    decision. Until the clerk records it the page says the period does not run; then it shows the
    due date counted from it; the notificação says the period runs from that ciência."""
    from datetime import timedelta
    from server.core.audit import AuditLog
    today = local_today()
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=12)
    login(client, "backoffice.paranatinga")
    _post(client, case_id, "notificar")
    served = today - timedelta(days=10)
    backdate_notification(app, case_id, served)
    assert _post(client, case_id, "ciencia", via="pessoal", served_on=served.isoformat(), note="").status_code == 303
    _post(client, case_id, "defesa", filed_on=served.isoformat(), summary="Nega a infração; junta fotos do local.")
    with app.app_context():
        from server.modules.autos.process_models import AutoAppeal
        appeal_id = AutoAppeal.query.filter_by(case_id=case_id).one().id
    decided = served + timedelta(days=1)
    assert _post(client, case_id, "decisao", appeal_id=str(appeal_id), decision="indeferido",
                 decided_on=decided.isoformat(), decision_text="Fotos do fiscal confirmam a infração.").status_code == 303
    page = _page(client, case_id).get_data(as_text=True)
    assert "Registrar ciência da decisão" in page and "o prazo ainda não corre" in page
    bad = _post(client, case_id, "ciencia_decisao", appeal_id=str(appeal_id), decision_known_via="postal_ar",
                decision_known_on=today.isoformat(), decision_known_note="")
    assert bad.status_code == 422 and "número do AR" in bad.get_data(as_text=True)
    ok = _post(client, case_id, "ciencia_decisao", appeal_id=str(appeal_id), decision_known_via="postal_ar",
               decision_known_on=today.isoformat(), decision_known_note="AR JT2BR")
    assert ok.status_code == 303
    page = _page(client, case_id).get_data(as_text=True)
    assert f"Ciência da decisão em {today:%d/%m/%Y}" in page and "AR JT2BR" in page
    assert "Prazo até " + art48_due(app, today).strftime("%d/%m/%Y") in page
    pdf_text = subprocess.run(["pdftotext", "-", "-"], input=client.get(f"/autos/{case_id}/notificacao.pdf").data,
                              capture_output=True, check=True).stdout.decode()
    assert "da ciência da decisão anterior" in " ".join(pdf_text.split()) and "contados da decisão anterior" not in pdf_text
    with app.app_context():
        assert AuditLog.query.filter_by(action="auto_decision_service", entity_id=str(appeal_id)).count() == 1


def test_pages_are_scoped_to_the_municipality_and_need_csrf(app, client, demo):
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=2)
    login(client, "backoffice.sapezal")
    assert _page(client, case_id).status_code == 404
    assert client.get(f"/autos/{case_id}/notificacao.pdf").status_code == 404
    token = csrf_token(client, "/bo/")
    assert client.post(f"/autos/{case_id}/processo/notificar", data={"csrf_token": token}).status_code == 404
    client.post("/logout", data={"csrf_token": token})
    assert client.get(f"/autos/{case_id}/processo").status_code == 302  # to the login page
    login(client, "backoffice.paranatinga")
    assert client.post(f"/autos/{case_id}/processo/notificar").status_code == 400  # no CSRF token
    assert _post(client, case_id, "inexistente").status_code == 404


def test_ledger_of_operator_and_permit_lists_autos_penalties_payments_and_seizures(app, client, demo):
    from server.core.clock import local_today
    from autos_process_helpers import first_operator_and_permit
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=2)
    operator_id, permit_number, permit_id = first_operator_and_permit(app, "paranatinga")
    login(client, "backoffice.paranatinga")
    today = local_today().isoformat()
    _post(client, case_id, "notificar")
    _post(client, case_id, "ciencia", via="pessoal", served_on=today)
    assert _post(client, case_id, "pagamento", guia_number="G-2026-15", paid_on=today, amount="30,86").status_code == 303
    assert _post(client, case_id, "apreensao", kind="remocao", seized_on=today).status_code == 303
    for kind, ident in (("operador", operator_id), ("permissao", permit_id)):
        page = client.get(f"/autos/ficha/{kind}/{ident}")
        text = page.get_data(as_text=True)
        assert page.status_code == 200
        for needle in ("G-2026-15", "R$ 30,86", "Remoção", "ordem das corridas"):
            assert needle in text, needle
        csv = client.get(f"/autos/ficha/{kind}/{ident}/pagamentos.csv").get_data(as_text=True)
        assert csv.splitlines()[1].split(";")[1:] == ["G-2026-15", local_today().strftime("%d/%m/%Y"), "30,86"]
    client.post("/logout", data={"csrf_token": csrf_token(client, "/bo/")})
    login(client, "backoffice.sapezal")
    assert client.get(f"/autos/ficha/operador/{operator_id}").status_code == 404
    assert client.get(f"/autos/ficha/permissao/{permit_id}/autos.csv").status_code == 404


def test_process_settings_name_what_the_law_leaves_open(app, client, demo):
    login(client, "backoffice.sapezal")
    page = client.get("/autos/processo/configuracao").get_data(as_text=True)
    assert "a lei não fixa (Lei 125/1999, art. 28, VI) — não configurado" in page  # Sapezal art. 28 VI
    token = csrf_token(client, "/autos/processo/configuracao")
    no_act = client.post("/autos/processo/configuracao", data={"csrf_token": token, "removal_fee": "85,00"})
    assert no_act.status_code == 422 and "Informe o ato" in no_act.get_data(as_text=True)
    saved = client.post("/autos/processo/configuracao", data={
        "csrf_token": token, "authority_pt": "Diretor do Departamento de Trânsito", "removal_fee": "85,00",
        "removal_fee_act": "Decreto nº 12/2026"})
    assert saved.status_code == 303
    case_id, _ = homologated_case(app, client, "sapezal", days_ago=1)
    from server.extensions import db
    from server.modules.autos.models import AutoCase
    from server.modules.autos.notification_content import build_content
    with app.app_context():
        content = build_content(db.session.get(AutoCase, case_id), 1, local_today())
    assert content["authority"] == "Diretor do Departamento de Trânsito"
    assert content["authority_source"].startswith("configuração municipal")
    page = _page(client, case_id).get_data(as_text=True)
    assert "R$ 85,00" in page and "Decreto nº 12/2026" in page


@pytest.mark.unswept("hostile input to every route: about input, not dates")
def test_process_routes_never_answer_500_to_hostile_input(app, client, demo):
    """tests/test_no_500.py's hostile values on the process routes, with a real case that has a
    notification, an appeal and a seizure (the generic run only sees ids that do not exist)."""
    from test_no_500 import HOSTILE_STRINGS, _encode
    from server.core.clock import local_today
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=2)
    login(client, "backoffice.paranatinga")
    today = local_today().isoformat()
    _post(client, case_id, "notificar")
    _post(client, case_id, "ciencia", via="pessoal", served_on=today)
    _post(client, case_id, "defesa", filed_on=today, summary="Pedido de anulação do auto.")
    _post(client, case_id, "apreensao", kind="apreensao", seized_on=today)
    token = csrf_token(client, f"/autos/{case_id}/processo")
    page = client.get(f"/autos/{case_id}/processo").get_data(as_text=True)
    names = set(re.findall(r'name="([^"]+)"', page)) | set(ops_fields()) - {"csrf_token"}
    actions = ["notificar", "ciencia", "defesa", "decisao", "ciencia_decisao", "pagamento", "apreensao", "liberacao",
               "taxa"]
    sent = 0
    for label, value in HOSTILE_STRINGS.items():
        for action in actions:
            response = client.post(f"/autos/{case_id}/processo/{action}", data=_encode(
                {**{name: value for name in names}, "csrf_token": token}), content_type="application/x-www-form-urlencoded")
            assert response.status_code < 500, (action, label)
            sent += 1
        response = client.post("/autos/processo/configuracao", data=_encode(
            {**{name: value for name in names}, "csrf_token": token}), content_type="application/x-www-form-urlencoded")
        assert response.status_code < 500, ("configuracao", label)
        quoted = quote(value, safe="", errors="surrogatepass")
        for path in (f"/autos/{case_id}/processo", "/autos/ficha/operador/1", f"/N/{quoted}", f"/n/{quoted}",
                     f"/autos/ficha/permissao/{quoted}"):
            assert client.get(f"{path}?{_encode({'q': value})}").status_code < 500, (path, label)
    assert sent == len(HOSTILE_STRINGS) * len(actions)


def ops_fields():
    from server.modules.autos.process_operations import SETTING_FIELDS
    return SETTING_FIELDS


def test_a_step_not_possible_now_is_explained_next_to_its_button(app, client, demo):
    case_id, _ = homologated_case(app, client, "sapezal", days_ago=2)
    login(client, "backoffice.sapezal")
    refused = _post(client, case_id, "notificar")
    assert refused.status_code == 409
    assert "Prazo de defesa não definido em lei" in refused.get_data(as_text=True)
    assert "Processo do auto" in refused.get_data(as_text=True)


@pytest.mark.parametrize("slug, expected", [
    ("nortelandia", ["10 dias úteis", "CPC/2015, arts. 219 e 224"]),
    ("paranatinga", ["3 dias corridos", "Código Civil, art. 132, caput e § 1º"]),
])
def test_notification_states_the_counting_rule_it_applied(app, client, demo, tmp_path, slug, expected):
    case_id, _ = homologated_case(app, client, slug, days_ago=2)
    login(client, f"backoffice.{slug}")
    assert _post(client, case_id, "notificar").status_code == 303
    path = tmp_path / "n.pdf"
    path.write_bytes(client.get(f"/autos/{case_id}/notificacao.pdf").data)
    text = " ".join(subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout.split())
    for words in expected + ["Contagem do prazo"]:
        assert words in text, words


def test_process_csv_says_why_an_amount_is_missing(app, client, demo):
    """Issue 18, item 5: a fine whose amount nobody configured is "a definir (decreto não
    configurado)" in the CSV too, never an empty cell a spreadsheet sums as zero."""
    from server.extensions import db
    from server.modules.autos.process_models import AutoPenalty
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=2)
    login(client, "backoffice.paranatinga")
    _post(client, case_id, "notificar")
    _post(client, case_id, "ciencia", via="postal_ar", served_on=local_today().isoformat(), note="AR JT1BR")
    with app.app_context():  # the penalty of a fine whose decree amount is not configured
        [penalty] = AutoPenalty.query.filter_by(case_id=case_id).all()
        penalty.amount_brl_cents = None
        db.session.commit()
    csv = client.get(f"/autos/{case_id}/processo.csv").get_data(as_text=True)
    lines = [line for line in csv.splitlines() if line.startswith("par.inf.g1_c;")]
    assert len(lines) == 1 and "a definir (decreto não configurado)" in lines[0], csv
