"""A spreadsheet's errors come in kinds: the check's page leads with the errors that repeat, each
with how many lines and which, so a clerk fixes a column once instead of reading 300 rows."""
import pytest
from helpers import login
from registry_import_data import values_for, write_csv
from test_registry_import_jobs import PASSWORD, _setup, _upload

from server.core.clock import local_today
from server.modules.registry.models import Municipality
from server.modules.registry_import import jobs
from server.modules.registry_import.columns import columns_for
from server.modules.registry_import.error_summary import summarize


def test_errors_are_grouped_by_column_and_message_with_their_lines_as_ranges():
    errors = [(line, "Placa", "Placa inválida.") for line in (2, 3, 4, 5, 9, 11, 12)]
    errors += [(6, "CPF do titular", "CPF inválido."), (7, "CPF do titular", "CPF inválido."),
               (8, "Data de emissão", "Data inválida.")]
    assert summarize(errors) == [("Placa", "Placa inválida.", 7, "2–5, 9, 11–12"),
                                 ("CPF do titular", "CPF inválido.", 2, "6–7")]


def test_a_long_list_of_lines_is_cut_after_six_ranges_and_counts_the_rest():
    errors = [(line, "Placa", "Placa inválida.") for line in range(2, 40, 2)]  # 19 lines, none adjacent
    [(_column, _message, count, lines)] = summarize(errors)
    assert count == 19 and lines == "2, 4, 6, 8, 10, 12 e mais 13 linhas"


def test_no_summary_when_no_error_repeats():
    assert summarize([(2, "Placa", "Placa inválida."), (3, "CPF do titular", "CPF inválido.")]) == []


@pytest.mark.db
def test_the_check_page_leads_with_the_repeated_errors(app, runner, tmp_path):
    _setup(app, runner)
    with app.app_context():
        columns = columns_for(Municipality.query.one())
    rows = [values_for(i, local_today()) for i in range(12)]
    for i in range(1, 11):  # lines 3–12: the plate column as a bad export leaves it
        rows[i]["vehicle.plate"] = "12345"
    rows[11]["operator.cnh_number"] = "123"  # line 13: one error of its own
    path = tmp_path / "c.csv"
    write_csv(path, columns, rows)
    client = app.test_client()
    login(client, "adm.sapezal", PASSWORD)
    job_id = _upload(client, path.read_bytes(), "c.csv").headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        assert jobs.work(once=True) == 1
    page = client.get(f"/bo/importacao/{job_id}").get_data(as_text=True)
    summary = page[page.index("Erros que se repetem"):page.index("Erros por linha")]
    assert "Placa" in summary and "<strong>10 linhas</strong> (3–12)" in summary
    assert "Número da CNH" not in summary  # a lone error stays in the table only
    assert "Número da CNH" in page[page.index("Erros por linha"):]
