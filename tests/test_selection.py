"""Public selection in Paranatinga (Lei 311/2007): vacancies from the dated population (art. 4º),
edital, legal conditions (arts. 7º, 33), ranking with ties and the clerk's tie-break (art. 33
§ 1º), suplentes (§ 2º, art. 34), the 5-day window (§ 3º) and the 90 days for a motorcycle
(art. 8º § 1º) closed by the daily job, the published list as PDF."""
import os
import re
import subprocess
from datetime import timedelta
from pathlib import Path

import pytest

from helpers import csrf_token, login
from selection_data import create_edital, cpf, post_population, register
from server.core.audit import AuditLog
from server.core.clock import local_today
from server.extensions import db
from server.modules.selection.models import Candidate, Edital
from server.modules.selection.rules import CONDITIONS

BO = "backoffice.paranatinga"


def _candidates(app, edital_id):
    with app.app_context():
        return {c.name: (c.status, c.classification, c.regularize_until, c.motorcycle_due, c.called_on)
                for c in Candidate.query.filter_by(edital_id=edital_id)}


def _stats(client):
    html = client.get("/bo/selecao/").get_data(as_text=True)
    return [int(n) for n in re.findall(r'<div class="stat"><strong>(\d+)</strong>', html)]


def test_vacancies_follow_the_dated_population(app, client, demo):
    login(client, BO)
    page = client.get("/bo/selecao/").get_data(as_text=True)
    assert "Nenhuma população registrada" in page
    assert post_population(client, 30_000, "2024-07-01", "IBGE, estimativa 2024").status_code == 302
    total, occupied, free = _stats(client)
    assert total == 45 and free == total - occupied  # art. 4º caput: below 45,000 the 45 stand
    assert post_population(client, 45_999, "2025-07-01").status_code == 302
    assert _stats(client)[0] == 45  # § 1º: one per full 1,000
    assert post_population(client, 46_000, "2026-07-01", "IBGE, estimativa 2026").status_code == 302
    total, occupied, free = _stats(client)
    assert total == 46 and free == 46 - occupied
    page = client.get("/bo/selecao/").get_data(as_text=True)
    assert "IBGE, estimativa 2026" in page and "art. 4º, § 1º" in page
    again = post_population(client, 50_000, "2026-07-01")
    assert again.status_code == 422 and "Já existe uma população registrada" in again.get_data(as_text=True)
    # An edital cannot offer more than the free vacancies.
    token = csrf_token(client, "/bo/selecao/editais/novo")
    too_many = client.post("/bo/selecao/editais/novo", data={
        "number": "9/2026", "published_on": "2026-01-05", "registration_until": "2026-02-05",
        "vacancies_offered": str(free + 1), "csrf_token": token})
    assert too_many.status_code == 422 and f"Há {free} vaga(s) livre(s)" in too_many.get_data(as_text=True)


def _edital_with_tie(client, vacancies=1):
    post_population(client, 30_000, "2025-07-01")
    edital_id = create_edital(client, vacancies, extra="Cursos de direção defensiva")
    # Ana: earliest in the profession → first. Bruno and Carla equal on every criterion → tie.
    register(client, edital_id, 1, "Ana Lima", "2005-03-01")
    register(client, edital_id, 2, "Bruno Souza", "2008-03-01", extra_c1="2")
    register(client, edital_id, 3, "Carla Dias", "2008-03-01", extra_c1="2")
    # Davi: later in the profession; without a motorcycle (art. 8º § 1º), still apto.
    register(client, edital_id, 4, "Davi Rocha", "2012-03-01", vehicle_year="")
    # Elisa: lacks the criminal certificate (art. 7º, IV) → inapto however senior.
    register(client, edital_id, 5, "Elisa Prado", "2000-01-01",
             conditions=[c.key for c in CONDITIONS if c.key not in ("art7_iv", "art7_ii_tempo")])
    return edital_id


def test_ranking_reports_ties_and_requires_the_recorded_tie_break(app, client, demo):
    login(client, BO)
    edital_id = _edital_with_tie(client)
    page = client.get(f"/bo/selecao/editais/{edital_id}").get_data(as_text=True)
    assert "desempate pendente" in page and "Bruno Souza, Carla Dias" in page
    assert "Certidão negativa criminal" in page and "art. 7º, IV" in page and "✗" in page
    publish = client.post(f"/bo/selecao/editais/{edital_id}/publicar",
                          data={"csrf_token": csrf_token(client, f"/bo/selecao/editais/{edital_id}")})
    assert publish.status_code == 409 and "empate não resolvido" in publish.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(Edital, edital_id).classification_published_at is None
        ids = {c.name: c.id for c in Candidate.query.filter_by(edital_id=edital_id)}
    token = csrf_token(client, f"/bo/selecao/editais/{edital_id}")
    # A tie-break must name exactly the tied candidates, with a reason.
    wrong = client.post(f"/bo/selecao/editais/{edital_id}/desempate", data={
        "order": [ids["Carla Dias"], ids["Ana Lima"]], "reason": "Sorteio público", "csrf_token": token})
    assert wrong.status_code == 422
    no_reason = client.post(f"/bo/selecao/editais/{edital_id}/desempate", data={
        "order": [ids["Carla Dias"], ids["Bruno Souza"]], "csrf_token": token})
    assert no_reason.status_code == 422
    done = client.post(f"/bo/selecao/editais/{edital_id}/desempate", data={
        "order": [ids["Carla Dias"], ids["Bruno Souza"]], "reason": "Sorteio público, ata nº 3/2026",
        "csrf_token": token})
    assert done.status_code == 302
    publish = client.post(f"/bo/selecao/editais/{edital_id}/publicar", data={"csrf_token": token})
    assert publish.status_code == 302
    state = _candidates(app, edital_id)
    assert state["Ana Lima"][:2] == ("selecionado", 1)
    assert state["Carla Dias"][:2] == ("suplente", 2)
    assert state["Bruno Souza"][:2] == ("suplente", 3)
    assert state["Davi Rocha"][:2] == ("suplente", 4)
    assert state["Elisa Prado"][:2] == ("inapto", None)
    with app.app_context():
        actions = [a.action for a in AuditLog.query.filter_by(entity="edital")]
    assert "tie_break" in actions and "publish_classification" in actions
    audit = client.get("/bo/auditoria?entidade=edital").get_data(as_text=True)
    assert "Desempate registrado" in audit and "Classificação publicada" in audit


def _run(runner, day):
    result = runner.invoke(args=["jobs", "run-daily", "--date", day.isoformat()])
    assert result.exit_code == 0, result.output
    return result.output


def _resolve_and_publish(app, client, edital_id):
    with app.app_context():
        ids = {c.name: c.id for c in Candidate.query.filter_by(edital_id=edital_id)}
    token = csrf_token(client, f"/bo/selecao/editais/{edital_id}")
    client.post(f"/bo/selecao/editais/{edital_id}/desempate", data={
        "order": [ids["Bruno Souza"], ids["Carla Dias"]], "reason": "Sorteio público", "csrf_token": token})
    assert client.post(f"/bo/selecao/editais/{edital_id}/publicar", data={"csrf_token": token}).status_code == 302
    return ids


def test_suplente_call_and_the_five_day_skip_by_the_daily_job(app, client, runner, demo):
    login(client, BO)
    edital_id = _edital_with_tie(client)
    ids = _resolve_and_publish(app, client, edital_id)
    with app.app_context():
        today = local_today()
    token = csrf_token(client, "/bo/selecao/")
    client.post("/bo/selecao/convocar", data={"reason": "Desistência da permissão 003/2025 (art. 27)",
                                              "csrf_token": token})
    assert _candidates(app, edital_id)["Bruno Souza"][0] == "convocado"
    # Bruno falls short of the law: 5 days with a reasoned justification (art. 33, § 3º).
    client.post(f"/bo/selecao/candidatos/{ids['Bruno Souza']}/prazo",
                data={"reason": "Atestado de saúde vencido", "csrf_token": token})
    status, _, until, _, _ = _candidates(app, edital_id)["Bruno Souza"]
    assert status == "em_regularizacao" and until == today + timedelta(days=5)
    _run(runner, until)  # the last day of the window: nothing happens
    assert _candidates(app, edital_id)["Bruno Souza"][0] == "em_regularizacao"
    output = _run(runner, until + timedelta(days=1))
    assert "(art. 33, § 3º): 1" in output
    state = _candidates(app, edital_id)
    assert state["Bruno Souza"][0] == "desabilitado"
    assert state["Carla Dias"][0] == "convocado" and state["Carla Dias"][4] == until + timedelta(days=1)
    with app.app_context():
        audits = AuditLog.query.count()
    output = _run(runner, until + timedelta(days=1))  # twice: nothing more
    assert "(art. 33, § 3º): 0" in output
    assert _candidates(app, edital_id) == state
    with app.app_context():
        assert AuditLog.query.count() == audits


def test_ninety_days_to_present_a_motorcycle(app, client, runner, demo):
    login(client, BO)
    post_population(client, 30_000, "2025-07-01")
    edital_id = create_edital(client, 1)
    register(client, edital_id, 11, "Fábio Reis", "2001-01-01", vehicle_year="")  # selected, no motorcycle
    register(client, edital_id, 12, "Gina Alves", "2003-01-01")
    register(client, edital_id, 13, "Hugo Melo", "2004-01-01", vehicle_year="")
    token = csrf_token(client, f"/bo/selecao/editais/{edital_id}")
    assert client.post(f"/bo/selecao/editais/{edital_id}/publicar", data={"csrf_token": token}).status_code == 302
    with app.app_context():
        today = local_today()
    status, _, _, due, _ = _candidates(app, edital_id)["Fábio Reis"]
    # 90 days; a publication on a day without office hours counts as made on the next business
    # day (CPC art. 224 § 1º), and a last day without office hours moves to the next business day
    # (CC art. 132 § 1º).
    from autos_process_helpers import FIXED_HOLIDAYS

    def closed(d):
        return d.weekday() >= 5 or (d.month, d.day) in FIXED_HOLIDAYS or (3, 20) <= (d.month, d.day) <= (4, 23)
    start = today
    while start.weekday() >= 5 or (start.month, start.day) in FIXED_HOLIDAYS:
        start += timedelta(days=1)
    plain = start + timedelta(days=90)
    assert status == "selecionado" and plain <= due and due.weekday() < 5 and (due.month, due.day) not in FIXED_HOLIDAYS
    skipped = [plain + timedelta(days=i) for i in range((due - plain).days)]
    assert all(closed(d) for d in skipped)
    assert _candidates(app, edital_id)["Gina Alves"][3] is None  # has a motorcycle: no window
    _run(runner, due)
    assert _candidates(app, edital_id)["Fábio Reis"][0] == "selecionado"
    output = _run(runner, due + timedelta(days=1))
    assert "(art. 8º, § 1º): 1" in output
    state = _candidates(app, edital_id)
    assert state["Fábio Reis"][0] == "perdeu_direito"
    assert state["Gina Alves"][0] == "convocado"  # the vacancy goes to the next suplente
    assert "(art. 8º, § 1º): 0" in _run(runner, due + timedelta(days=1))
    assert _candidates(app, edital_id) == state


def test_presenting_the_motorcycle_closes_the_window(app, client, runner, demo):
    login(client, BO)
    post_population(client, 30_000, "2025-07-01")
    edital_id = create_edital(client, 1)
    register(client, edital_id, 21, "Igor Nunes", "2001-01-01", vehicle_year="")
    token = csrf_token(client, f"/bo/selecao/editais/{edital_id}")
    client.post(f"/bo/selecao/editais/{edital_id}/publicar", data={"csrf_token": token})
    with app.app_context():
        cand = Candidate.query.filter_by(edital_id=edital_id).one()
        ident, due = cand.id, cand.motorcycle_due
    bad = client.post(f"/bo/selecao/candidatos/{ident}/motocicleta", data={"vehicle_year": "1800", "reason": "CRLV",
                                                                            "csrf_token": token})
    assert bad.status_code == 302 and _candidates(app, edital_id)["Igor Nunes"][3] == due
    client.post(f"/bo/selecao/candidatos/{ident}/motocicleta",
                data={"vehicle_year": "2024", "reason": "CRLV apresentado", "csrf_token": token})
    assert _candidates(app, edital_id)["Igor Nunes"][3] is None
    _run(runner, due + timedelta(days=1))
    assert _candidates(app, edital_id)["Igor Nunes"][0] == "selecionado"


def test_published_list_pdf_renders(app, client, demo, tmp_path):
    login(client, BO)
    edital_id = _edital_with_tie(client, vacancies=2)
    _resolve_and_publish(app, client, edital_id)
    response = client.get(f"/bo/selecao/editais/{edital_id}/classificacao.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.headers["Cache-Control"] == "private, no-store"
    pdf = tmp_path / "lista.pdf"
    pdf.write_bytes(response.data)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "Edital nº 001/2026" in text
    lines = [line for line in text.splitlines() if re.match(r"\s*\d+\s", line)]  # table rows
    assert [next(n for n in ("Ana", "Bruno", "Carla", "Davi") if n in line) for line in lines] == \
        ["Ana", "Bruno", "Carla", "Davi"]
    assert cpf(1) not in text and "Elisa Prado" in text and "Sorteio público" in text
    shots = Path(os.environ.get("MOTOFISCAL_SCREENSHOTS", "/tmp/motofiscal-shots"))
    shots.mkdir(parents=True, exist_ok=True)  # the rendered page, to look at (an artifact, not an assertion)
    subprocess.run(["pdftoppm", "-png", "-r", "80", "-singlefile", str(pdf), str(shots / "selection-lista-pdf")],
                   check=True)


def test_other_municipalities_and_other_staff_cannot_reach_it(app, client, demo):
    login(client, BO)
    edital_id = _edital_with_tie(client)
    client.get("/logout")
    client.post("/logout", data={"csrf_token": csrf_token(client, "/bo/")})
    login(client, "backoffice.sapezal")
    assert client.get("/bo/selecao/").status_code == 404  # Sapezal's law has no edital
    assert client.get(f"/bo/selecao/editais/{edital_id}").status_code == 404
    assert client.get(f"/bo/selecao/editais/{edital_id}/classificacao.pdf").status_code == 404


def test_forms_need_csrf(app, client, demo):
    login(client, BO)
    response = client.post("/bo/selecao/", data={"population": "50000", "reference_date": "2025-07-01",
                                                 "source": "IBGE"})
    assert response.status_code == 400


@pytest.mark.unswept("hostile input to every route: about input, not dates")
def test_selection_routes_never_answer_500_to_hostile_form_input(app, client, demo):
    """tests/test_no_500.py runs as Sapezal, where these screens are 404: the same hostile
    values here, as Paranatinga's back office, into every field of every selection form."""
    from test_no_500 import HOSTILE_STRINGS, _encode
    login(client, BO)
    edital_id = _edital_with_tie(client)
    with app.app_context():
        cand_id = Candidate.query.filter_by(edital_id=edital_id).order_by(Candidate.id).first().id
    token = csrf_token(client, "/bo/selecao/")
    names = ["population", "reference_date", "source", "number", "published_on", "registration_until",
             "vacancies_offered", "extra_criteria_text", "name", "cpf", "profession_since", "cnh_first_issue_date",
             "vehicle_year", "schooling", "extra_c1", "order", "reason", "art7_i", "art8"]
    paths = ["/bo/selecao/", "/bo/selecao/editais/novo", f"/bo/selecao/editais/{edital_id}/candidatos/novo",
             f"/bo/selecao/editais/{edital_id}/desempate", f"/bo/selecao/editais/{edital_id}/publicar",
             "/bo/selecao/convocar", f"/bo/selecao/candidatos/{cand_id}/prazo",
             f"/bo/selecao/candidatos/{cand_id}/regularizar", f"/bo/selecao/candidatos/{cand_id}/motocicleta",
             f"/bo/selecao/candidatos/{cand_id}/desistencia", f"/bo/selecao/candidatos/{cand_id}/nada"]
    for path in paths:
        for label, value in HOSTILE_STRINGS.items():
            response = client.post(path, data=_encode({**{n: value for n in names}, "csrf_token": token}),
                                   content_type="application/x-www-form-urlencoded")
            assert response.status_code < 500, f"{path} {label} → {response.status_code}"
    for path in (f"/bo/selecao/editais/{edital_id}", f"/bo/selecao/editais/{edital_id}/classificacao.pdf",
                 "/bo/selecao/editais/99999999999", "/bo/selecao/editais/0"):
        assert client.get(path).status_code in (200, 404)


def test_a_called_candidate_who_withdraws_frees_the_vacancy(app, client, demo):
    login(client, BO)
    edital_id = _edital_with_tie(client)
    ids = _resolve_and_publish(app, client, edital_id)
    token = csrf_token(client, "/bo/selecao/")
    no_reason = client.post(f"/bo/selecao/candidatos/{ids['Ana Lima']}/desistencia", data={"csrf_token": token})
    assert no_reason.status_code == 302 and _candidates(app, edital_id)["Ana Lima"][0] == "selecionado"
    client.post(f"/bo/selecao/candidatos/{ids['Ana Lima']}/desistencia",
                data={"reason": "Termo assinado em 02/03/2026", "csrf_token": token})
    state = _candidates(app, edital_id)
    assert state["Ana Lima"][0] == "desistente"
    assert state["Bruno Souza"][0] == "convocado" and state["Carla Dias"][0] == "suplente"
    # A suplente who withdraws frees nothing: the next one stays where it was.
    client.post(f"/bo/selecao/candidatos/{ids['Carla Dias']}/desistencia",
                data={"reason": "Não tem mais interesse", "csrf_token": token})
    state = _candidates(app, edital_id)
    assert state["Carla Dias"][0] == "desistente" and state["Davi Rocha"][0] == "suplente"


def test_a_closure_recorded_on_the_motorcycle_due_date_moves_it_audited(app, client, demo):
    """Art. 8º § 1º: 90 days by CC art. 132 from the selection. A closure recorded later on the
    stored last day moves it to the next business day (§ 1º), audited."""
    from server.modules.calendar.operations import add_closure
    from server.modules.registry.models import Municipality
    from server.rules.legal_calendar import calendar_for
    login(client, BO)
    post_population(client, 30_000, "2025-07-01")
    edital_id = create_edital(client, 1)
    register(client, edital_id, 21, "Igor Nunes", "2001-01-01", vehicle_year="")
    token = csrf_token(client, f"/bo/selecao/editais/{edital_id}")
    client.post(f"/bo/selecao/editais/{edital_id}/publicar", data={"csrf_token": token})
    with app.app_context():
        cand = Candidate.query.filter_by(edital_id=edital_id).one()
        ident, due = cand.id, cand.motorcycle_due
        muni = Municipality.query.filter_by(slug="paranatinga").one()
        add_closure(muni, {"day": due, "kind": "fechamento", "name_pt": "Repartição fechada", "act": "Decreto 3/2026"})
        expected = calendar_for("MT", [{"date": due.isoformat(), "kind": "fechamento", "name_pt": "x", "act": "x"}]
                                ).next_business_day(due)
        assert db.session.get(Candidate, ident).motorcycle_due == expected > due
        entry = AuditLog.query.filter_by(entity="candidate", entity_id=str(ident), action="update").one()
        assert "art. 8º, § 1º" in entry.reason
