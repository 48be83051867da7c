"""The registry import's screens as a clerk meets them (issue 36's import, issue 39's look at every
screen): the upload, the job's progress page while a worker has not yet taken it, and the report
that leads with the errors that repeat. Each at the phone's and the laptop's size, with axe and no
sideways scrolling. Nothing is imported (the live app is shared by the session's other tests)."""
import pytest
from registry_import_data import values_for, write_csv

from .helpers import backoffice_login
from .test_backoffice_accessibility import _note_sizes, _report
from server.core.clock import local_today
from server.modules.registry.models import Municipality
from server.modules.registry_import import jobs
from server.modules.registry_import.columns import columns_for


@pytest.fixture
def queued_jobs(live_app):
    """Jobs wait for a worker (as behind a balancer) until the test runs one."""
    before = live_app.config.get("IMPORT_JOBS")
    live_app.config["IMPORT_JOBS"] = "worker"
    yield
    live_app.config["IMPORT_JOBS"] = before


def test_upload_progress_and_report_screens(browser, live_server, live_app, queued_jobs, tmp_path):
    with live_app.app_context():
        columns = columns_for(Municipality.query.filter_by(slug="sapezal").one())
    rows = [values_for(900 + i, local_today()) for i in range(8)]
    for row in rows[:6]:
        row["vehicle.plate"] = "12345"  # a column as a bad export leaves it, on six lines
    rows[7]["operator.cnh_number"] = "123"
    path = tmp_path / "cadastro.csv"
    write_csv(path, columns, rows)

    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="pt-BR")
    page = context.new_page()
    problems = {}
    try:
        backoffice_login(page, live_server, "backoffice.sapezal")
        page.goto(f"{live_server}/bo/importacao/")
        _note_sizes(page, "importação: envio", problems, shot="importacao-envio")
        page.set_input_files("input[type=file]", str(path))
        page.click("main button[type=submit]")
        page.wait_for_load_state("load")
        job_url = page.url
        assert "/bo/importacao/" in job_url and "Verificação" not in page.locator("h1").inner_text()
        _note_sizes(page, "importação: na fila", problems, shot="importacao-fila")

        assert page.locator("meta[http-equiv=refresh]").count() == 0  # no timed reload (WCAG 2.2.1)
        # The page follows its job through the job's small status answer, not by fetching itself.
        with page.expect_response(f"{job_url}/estado") as polled:
            pass
        assert polled.value.json() == {"state": "queued", "running": True, "text": "Na fila: começa em instantes."}
        with live_app.app_context():
            assert jobs.work(once=True) == 1
        # It opens the report once the job is done.
        page.locator("h1", has_text="Verificação de").wait_for()
        assert page.url == job_url and page.locator("h1").inner_text() == "Verificação de cadastro.csv"
        repeated = page.locator("table[aria-labelledby=tipos]").inner_text()
        assert "Placa" in repeated and "6 linhas" in repeated
        _note_sizes(page, "importação: relatório", problems, shot="importacao-relatorio")
    finally:
        context.close()
    assert not problems, _report(problems)
