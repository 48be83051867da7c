"""Notices to the operator over a real SMTP server on loopback (aiosmtpd): the notificação of a
homologated auto arrives with its PDF and a link, says it is an AVISO (or, with the act and the
adhesion, an intimação whose ciência is the operator's confirmation), every send is recorded with
the server's answer, failures are retried and shown, optional notices can be refused, and an SMS
provider plugs in through the documented interface (issue 37)."""
import subprocess
from datetime import timedelta

import pytest

from autos_process_helpers import art48_due, homologated_case
from helpers import csrf_token, login
from smtp_server import SmtpServer


@pytest.fixture
def smtp():
    server = SmtpServer().start()
    yield server
    server.stop()


def _operator_of(app, case_id):
    from server.extensions import db
    from server.modules.autos.models import AutoCase
    with app.app_context():
        return db.session.get(AutoCase, case_id).record.operator_id


def _clerk(app, slug):
    clerk = app.test_client()
    login(clerk, f"backoffice.{slug}")
    return clerk


def _save_contact(app, clerk, operator_id, **fields):
    path = f"/bo/avisos/operador/{operator_id}"
    data = {"csrf_token": csrf_token(clerk, path), "email": "", "mobile": "", **fields}
    return clerk.post(path, data=data)


def _issue(clerk, case_id):
    path = f"/autos/{case_id}/processo"
    response = clerk.post(f"{path}/notificar", data={"csrf_token": csrf_token(clerk, path)})
    assert response.status_code == 303, response.get_data(as_text=True)[:500]


def _send(runner):
    result = runner.invoke(args=["notices", "send"])
    assert result.exit_code == 0, result.output
    return result.output


def _notices(app, **filters):
    from server.modules.notices.models import Notice
    with app.app_context():
        return [(n.kind, n.channel, n.state, n.nature, n.attempts, n.provider_answer)
                for n in Notice.query.filter_by(**filters).order_by(Notice.id)]


def _pdf_text(data, tmp_path):
    path = tmp_path / "anexo.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


def test_homologated_auto_s_notificacao_arrives_by_email_with_its_pdf_and_link(app, client, demo, smtp, runner,
                                                                              tmp_path):
    app.config.update(smtp.config(), PUBLIC_BASE_URL="https://motofiscal.sapezal.test")
    case_id, _phone = homologated_case(app, client, "paranatinga")  # a phone pushes the signed auto; homologated
    operator_id = _operator_of(app, case_id)
    clerk = _clerk(app, "paranatinga")
    assert _save_contact(app, clerk, operator_id, email="Operador@Exemplo.test").status_code == 303
    _issue(clerk, case_id)
    assert smtp.mailbox.messages == []  # queued in the clerk's transaction, sent by the sender
    assert "enviados: 1" in _send(runner)

    [got] = smtp.mailbox.messages
    assert got["to"] == ["operador@exemplo.test"] and got["from"] == "avisos@prefeitura.test"
    mail = got["message"]
    from server.extensions import db
    from server.modules.autos.models import AutoCase
    from server.modules.autos.process_models import AutoNotification
    with app.app_context():
        case = db.session.get(AutoCase, case_id)
        note = AutoNotification.query.filter_by(case_id=case_id).one()
        number, payload, serial = case.number, note.payload, note.serial
    assert f"auto nº {number}" in mail["Subject"] and "Paranatinga" in mail["Subject"]
    text = mail.get_body(preferencelist=("plain",)).get_content()
    assert "Natureza: AVISO" in text and "não é intimação" in text
    assert payload in text  # the public check of the signed document
    assert "https://motofiscal.sapezal.test/app/#/operador/autos" in text
    assert "3 dias corridos" in text  # Lei 311/2007 art. 48's defence, as the notificação states it
    [attachment] = list(mail.iter_attachments())
    assert attachment.get_content_type() == "application/pdf"
    assert attachment.get_filename() == f"notificacao-{serial}.pdf"
    pdf = attachment.get_content()
    assert pdf.startswith(b"%PDF-")
    printed = _pdf_text(pdf, tmp_path)
    assert number in printed and "NOTIFICAÇÃO" in printed.upper()

    # What was sent, to whom, when, and what the server answered: recorded.
    [(kind, channel, state, nature, attempts, answer)] = _notices(app, kind="notificacao")
    assert (kind, channel, state, nature, attempts) == ("notificacao", "email", "enviado", "aviso", 1)
    assert answer.startswith("250 ") and "queued as M0001" in answer
    assert "enviados: 0" in _send(runner)  # nothing sent twice
    assert len(smtp.mailbox.messages) == 1

    page = clerk.get("/bo/avisos/").get_data(as_text=True)
    assert "Notificação de autuação" in page and "Enviado" in page and "queued as M0001" in page


def test_a_refused_address_gives_up_and_an_unreachable_server_is_retried(app, client, demo, smtp, runner):
    from server.extensions import db
    from server.modules.autos.models import AutoCase
    from server.modules.autos.process_operations import issue_notification
    from server.modules.notices.models import Notice
    from server.modules.notices.jobs import send_due
    app.config.update(smtp.config())
    smtp.mailbox.refuse["nao.existe@exemplo.test"] = "550 5.1.1 Mailbox unavailable"
    case_id, _ = homologated_case(app, client, "paranatinga")
    clerk = _clerk(app, "paranatinga")
    _save_contact(app, clerk, _operator_of(app, case_id), email="nao.existe@exemplo.test")
    with app.app_context():
        issue_notification(db.session.get(AutoCase, case_id))
        db.session.commit()  # the test plays the request that would have committed it
    _send(runner)
    [(_k, _c, state, _n, attempts, answer)] = _notices(app)
    assert (state, attempts) == ("desistiu", 1) and answer.startswith("550 5.1.1")  # permanent: no retry
    detail = clerk.get(f"/bo/avisos/{_notice_id(app)}").get_data(as_text=True)
    assert "Mailbox unavailable" in detail and "Enviar de novo" in detail

    # The clerk corrects the address and sends again; the server is down now: retried, then sent.
    _save_contact(app, clerk, _operator_of(app, case_id), email="certo@exemplo.test")
    path = f"/bo/avisos/{_notice_id(app)}"
    assert clerk.post(f"{path}/reenviar", data={"csrf_token": csrf_token(clerk, path)}).status_code == 303
    smtp.stop()
    _send(runner)
    [(_k, _c, state, _n, attempts, answer)] = _notices(app)
    assert state == "falhou" and attempts == 2 and "Connection" in answer
    with app.app_context():
        notice = Notice.query.one()
        next_try = notice.next_attempt_at
        assert send_due()["sent"] == 0  # not due yet: the wait grows with each failure
    smtp.restart()  # the same server back on its port
    with app.app_context():
        assert send_due(now=next_try + timedelta(seconds=1))["sent"] == 1
    assert [m["to"] for m in smtp.mailbox.messages] == [["certo@exemplo.test"]]
    with app.app_context():
        from server.modules.notices.models import NoticeAttempt
        assert [a.ok for a in NoticeAttempt.query.order_by(NoticeAttempt.id)] == [False, False, True]


def _notice_id(app):
    from server.modules.notices.models import Notice
    with app.app_context():
        return Notice.query.order_by(Notice.id).first().id


def test_without_contact_or_channel_the_notice_says_so(app, client, demo):
    from server.extensions import db
    from server.modules.autos.models import AutoCase
    from server.modules.autos.process_operations import issue_notification
    case_id, _ = homologated_case(app, client, "paranatinga")
    with app.app_context():
        issue_notification(db.session.get(AutoCase, case_id))
        db.session.commit()  # the test plays the request that would have committed it
    [(kind, channel, state, nature, attempts, answer)] = _notices(app)
    assert (kind, channel, state, attempts) == ("notificacao", "nenhum", "sem_canal", 0)
    assert "sem e-mail ou celular" in answer
    page = _clerk(app, "paranatinga").get("/bo/avisos/?situacao=problemas").get_data(as_text=True)
    assert "Não enviado: sem contato eletrônico" in page


def test_intimacao_only_with_the_act_and_the_adhesion_and_ciencia_is_the_app_confirmation(app, client, demo, smtp,
                                                                                        runner):
    from operator_helpers import operator_headers
    from server.core.clock import local_today
    from server.extensions import db
    from server.modules.autos.models import AutoCase
    from server.modules.autos.process_operations import issue_notification, notification_of
    from server.modules.registry.models import Municipality
    app.config.update(smtp.config())
    case_id, _ = homologated_case(app, client, "paranatinga")
    operator_id = _operator_of(app, case_id)
    clerk = _clerk(app, "paranatinga")
    # Adhesion without the act: still an aviso.
    _save_contact(app, clerk, operator_id, email="op@exemplo.test", adhered_on=local_today().isoformat(),
                  adhesion_ref="Termo 12/2026")
    with app.app_context():
        muni = Municipality.query.filter_by(slug="paranatinga").one()
        muni.settings = {**(muni.settings or {}), "autos": {**(muni.settings or {}).get("autos", {}),
                                                            "electronic_service_act": "Decreto 77/2026"}}
        db.session.commit()
        issue_notification(db.session.get(AutoCase, case_id))
        db.session.commit()  # the test plays the request that would have committed it
    _send(runner)
    [(_k, _c, state, nature, _a, _ans)] = _notices(app)
    assert (state, nature) == ("enviado", "intimacao")
    text = smtp.mailbox.messages[0]["message"].get_body(preferencelist=("plain",)).get_content()
    assert "INTIMAÇÃO ELETRÔNICA, admitida por Decreto 77/2026" in text and "Termo 12/2026" in text
    with app.app_context():
        assert notification_of(db.session.get(AutoCase, case_id)).served_on is None  # sending is not ciência

    headers = operator_headers(app, client, operator_id)
    autos = client.get("/api/v1/operator/autos", headers=headers).json["autos"]
    [notice] = [n for a in autos for n in (a["notices"] or [])]
    assert notice["nature"] == "intimacao" and notice["acknowledge"] is True
    answer = client.post(f"/api/v1/operator/notices/{notice['id']}/read", headers=headers)
    assert answer.status_code == 200 and answer.json["read_at"]
    with app.app_context():
        note = notification_of(db.session.get(AutoCase, case_id))
        assert (note.served_via, note.served_on) == ("eletronica", local_today())


def test_optional_notices_can_be_refused_by_the_operator(app, client, demo, smtp):
    from operator_helpers import operator_headers
    from server.core.clock import local_today
    from server.extensions import db
    from server.modules.autos.models import AutoCase
    from server.modules.autos.process_operations import issue_notification, record_service
    from server.modules.notices.operations import deadline_reminders
    app.config.update(smtp.config())
    case_id, _ = homologated_case(app, client, "paranatinga")
    operator_id = _operator_of(app, case_id)
    _save_contact(app, _clerk(app, "paranatinga"), operator_id, email="op@exemplo.test")
    headers = operator_headers(app, client, operator_id)
    prefs = client.put("/api/v1/operator/notices/preferences", json={"optional_opt_out": True}, headers=headers)
    assert prefs.status_code == 200 and prefs.json["optional_opt_out"] is True
    assert prefs.json["email"] == "op*@exemplo.test" and "LGPD" in prefs.json["lgpd_pt"]
    with app.app_context():
        case = db.session.get(AutoCase, case_id)
        issue_notification(case)
        record_service(case, "pessoal", local_today().isoformat(), None)
        db.session.commit()
    with app.app_context():
        deadline_reminders(art48_due(app, local_today()))  # the last day: a reminder is due
        db.session.commit()
    kinds = {(k, s) for k, _c, s, _n, _a, _ans in _notices(app)}
    assert ("notificacao", "pendente") in kinds  # the process's notices are not optional
    assert ("prazo", "recusado") in kinds  # the reminder was refused, recorded, never sent


class RecordingSms:
    """A provider as docs/notices.md describes it (what a municipality's contracted SMS gateway
    implements): answers what it did; the first call fails, as a gateway may."""
    medium, provider = "sms", "sms:teste"
    sent = []

    def __init__(self, config):
        self.config = config

    def send(self, message):
        from server.modules.notices.channels import ProviderAnswer
        RecordingSms.sent.append(message)
        if len(RecordingSms.sent) == 1:
            return ProviderAnswer(False, self.provider, "503 gateway ocupado")
        return ProviderAnswer(True, self.provider, f"id {len(RecordingSms.sent)}")


def make_sms(config):
    return RecordingSms(config)


def test_an_sms_provider_plugs_in_through_the_interface_and_is_retried(app, client, demo):
    from server.extensions import db
    from server.modules.autos.models import AutoCase
    from server.modules.autos.process_operations import issue_notification
    from server.modules.notices.models import Notice
    from server.modules.notices.jobs import send_due
    RecordingSms.sent = []
    app.config["NOTICE_SMS_PROVIDER"] = "test_notices_email:make_sms"
    case_id, _ = homologated_case(app, client, "paranatinga")
    _save_contact(app, _clerk(app, "paranatinga"), _operator_of(app, case_id), mobile="(65) 99912-3456", sms="1")
    with app.app_context():
        issue_notification(db.session.get(AutoCase, case_id))
        assert send_due()["failed"] == 1
        notice = Notice.query.one()
        assert notice.channel == "sms" and notice.address == "+5565999123456"
        assert send_due(now=notice.next_attempt_at + timedelta(seconds=1))["sent"] == 1
        notice = Notice.query.one()
        assert (notice.state, notice.attempts, notice.provider_answer) == ("enviado", 2, "id 2")
    assert RecordingSms.sent[0].to == "+5565999123456" and len(RecordingSms.sent[0].text) < 300
    assert "(Aviso)" in RecordingSms.sent[0].text


def test_a_deadline_about_to_end_is_reminded_once_and_not_after_a_filing(app, client, demo, smtp):
    from server.core.clock import local_today
    from server.extensions import db
    from server.modules.autos.models import AutoCase
    from server.modules.autos.process_operations import file_appeal, issue_notification, record_service
    from server.modules.notices.operations import deadline_reminders
    app.config.update(smtp.config())
    case_id, _ = homologated_case(app, client, "paranatinga")
    _save_contact(app, _clerk(app, "paranatinga"), _operator_of(app, case_id), email="op@exemplo.test")
    with app.app_context():
        case = db.session.get(AutoCase, case_id)
        issue_notification(case)
        record_service(case, "pessoal", local_today().isoformat(), None)  # 3 days (Lei 311/2007 art. 48)
        db.session.commit()
    eve = art48_due(app, local_today()) - timedelta(days=1)  # the legal calendar's last day, less one
    with app.app_context():
        assert deadline_reminders(eve - timedelta(days=5)) == 0  # not yet
        assert deadline_reminders(eve) == 1
        assert deadline_reminders(eve) == 0  # once per case, instance and last day
        db.session.commit()
    [(kind, channel, state, nature, _a, _ans)] = [n for n in _notices(app) if n[0] == "prazo"]
    assert (channel, state, nature) == ("email", "pendente", "aviso")
    with app.app_context():
        case = db.session.get(AutoCase, case_id)
        file_appeal(case, local_today().isoformat(), "O autuado nega os fatos e junta testemunhas.")
        assert deadline_reminders(eve) == 0  # filed: nothing to remind
