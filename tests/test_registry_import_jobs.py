"""The registry import at scale behind a balancer (issue 36, item 4): the upload is a row of the
database (any app server serves every step), the check and the import are jobs claimed once
(FOR UPDATE SKIP LOCKED on PostgreSQL), the report is stored, and what would cost a worker too
much is refused before any parsing."""
import io
import zipfile

import pytest
from helpers import csrf_token, login
from registry_import_data import values_for, write_csv

from server.core.clock import local_today
from server.extensions import db
from server.modules.registry.models import Municipality, Permit
from server.modules.registry_import import jobs
from server.modules.registry_import.columns import columns_for
from server.modules.registry_import.models import ImportJob
from server.modules.registry_import.template import template_xlsx

pytestmark = pytest.mark.db
PASSWORD = "senha-forte-123"


def _setup(app, runner):
    app.config["IMPORT_JOBS"] = "worker"
    assert runner.invoke(args=["municipality", "create", "--ibge", "5107875", "--name", "Sapezal", "--uf", "MT",
                               "--pack", "sapezal-lei-125-1999", "--public-base-url", "http://localhost:5000"]).exit_code == 0
    assert runner.invoke(args=["users", "create-admin", "--municipality", "sapezal", "--username", "adm.sapezal",
                               "--name", "Adm", "--password", PASSWORD]).exit_code == 0


def _upload(client, body, name):
    token = csrf_token(client, "/bo/importacao/")
    return client.post("/bo/importacao/", data={"csrf_token": token, "file": (io.BytesIO(body), name)})


@pytest.mark.app_role
def test_two_app_servers_share_the_upload_and_the_stored_report(app, runner, tmp_path):
    _setup(app, runner)
    with app.app_context():
        columns = columns_for(Municipality.query.one())
    rows = [values_for(i, local_today()) for i in range(3)]
    rows[1]["operator.cnh_number"] = "123"
    path = tmp_path / "c.csv"
    write_csv(path, columns, rows)
    first = app.test_client()
    login(first, "adm.sapezal", PASSWORD)
    queued = _upload(first, path.read_bytes(), "c.csv")
    job_id = queued.headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        assert jobs.work(once=True) == 1
        job = db.session.get(ImportJob, job_id)
        assert job.state == "done" and job.rows_done == 3 and job.result["error_rows"] == 1
        job.body = b"not the file any more"  # the report is read from the job, never recomputed
        db.session.commit()
    # "Another server": nothing of the upload lives in a process or an instance folder.
    app.instance_path = str(tmp_path / "other-instance")
    page = first.get(f"/bo/importacao/{job_id}").get_data(as_text=True)
    assert "Número da CNH" in page and "1 com erro<" in page
    report = first.get(f"/bo/importacao/{job_id}/erros.csv").get_data(as_text=True)
    assert report.splitlines()[1].startswith("3;Número da CNH;")


def test_inflating_xlsx_and_oversized_files_refused_before_parsing(app, runner):
    _setup(app, runner)
    with app.app_context():
        template = template_xlsx(Municipality.query.one())
    bomb = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(template)) as source, zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as out:
        for item in source.infolist():
            if item.filename != "xl/sharedStrings.xml":
                out.writestr(item, source.read(item))
        # ~30 MB of one repeated string: a few dozen KB compressed (the 386 KB → 385 MB).
        out.writestr("xl/sharedStrings.xml", '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                     + "<si><t>" + "A" * (30 * 1024 * 1024) + "</t></si></sst>")
    assert len(bomb.getvalue()) < 200_000
    client = app.test_client()
    login(client, "adm.sapezal", PASSWORD)
    refused = _upload(client, bomb.getvalue(), "bomba.xlsx")
    assert refused.status_code == 422 and "descompactada ocupa" in refused.get_data(as_text=True)
    with app.app_context():
        assert ImportJob.query.count() == 0  # nothing queued, nothing parsed


def test_row_cap_refused_with_a_clear_message(app, runner, tmp_path, monkeypatch):
    from server.modules.registry_import import reader

    _setup(app, runner)
    monkeypatch.setattr(reader, "MAX_ROWS", 2)  # the cap's value, not its logic, is under test elsewhere
    with app.app_context():
        columns = columns_for(Municipality.query.one())
    path = tmp_path / "c.csv"
    write_csv(path, columns, [values_for(i, local_today()) for i in range(3)])
    client = app.test_client()
    login(client, "adm.sapezal", PASSWORD)
    job_id = _upload(client, path.read_bytes(), "c.csv").headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        jobs.work(once=True)
        assert db.session.get(ImportJob, job_id).state == "failed"
    page = client.get(f"/bo/importacao/{job_id}")
    assert page.status_code == 422 and "mais de 2 linhas" in page.get_data(as_text=True)


@pytest.mark.app_role
def test_a_claimed_job_is_skipped_by_another_worker_and_a_dead_one_is_claimed_again(app, runner, database_url):
    from datetime import timedelta

    from sqlalchemy import create_engine, text

    from server.modules.registry.models import utcnow

    _setup(app, runner)
    with app.app_context():
        mid = Municipality.query.one().id
        first = jobs.enqueue(mid, None, "check", "a.csv", "csv", b"x", {}).id
        second = jobs.enqueue(mid, None, "check", "b.csv", "csv", b"x", {}).id
        db.session.commit()  # the back office's request would commit them
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        engine = create_engine(app.config["SQLALCHEMY_DATABASE_URI"])
        with engine.connect() as other:  # another worker, its transaction holding the first job's row
            other.execute(text("SELECT set_config('motofiscal.crossing', 'on', false)"))
            other.execute(text("SELECT id FROM import_job WHERE id = :id FOR UPDATE"), {"id": first})
            with app.app_context():
                assert jobs.claim() == second  # skipped, not waited for
            other.rollback()
        engine.dispose()
        with app.app_context():
            assert jobs.claim() == first
    else:
        with app.app_context():
            assert jobs.claim() == first and jobs.claim() == second
    with app.app_context():
        assert jobs.claim() is None
        job = db.session.get(ImportJob, first)
        job.heartbeat_at = utcnow() - jobs.STALE_AFTER - timedelta(seconds=1)  # its worker died
        db.session.commit()
        assert jobs.claim() == first


@pytest.mark.app_role
def test_in_process_thread_for_make_run(app, runner, tmp_path):
    import time

    _setup(app, runner)
    app.config["IMPORT_JOBS"] = "thread"
    with app.app_context():
        columns = columns_for(Municipality.query.one())
    path = tmp_path / "c.csv"
    write_csv(path, columns, [values_for(i, local_today()) for i in range(2)])
    client = app.test_client()
    login(client, "adm.sapezal", PASSWORD)
    job_id = _upload(client, path.read_bytes(), "c.csv").headers["Location"].rsplit("/", 1)[1]
    for _ in range(600):  # waits for the thread (not a timing assertion: no bound is asserted)
        with app.app_context():
            state = db.session.get(ImportJob, job_id).state
            db.session.remove()
        if state in ("done", "failed"):
            break
        time.sleep(0.1)
    assert state == "done"
    token = csrf_token(client, "/bo/importacao/")
    done = client.post(f"/bo/importacao/{job_id}/gravar", data={"csrf_token": token})
    commit_id = done.headers["Location"].rsplit("/", 1)[1]
    for _ in range(600):
        with app.app_context():
            state = db.session.get(ImportJob, commit_id).state
            db.session.remove()
        if state in ("done", "failed"):
            break
        time.sleep(0.1)
    with app.app_context():
        assert state == "done" and Permit.query.count() == 2


def test_flask_jobs_worker_once_runs_the_queue(app, runner, tmp_path):
    _setup(app, runner)
    with app.app_context():
        muni = Municipality.query.one()
        columns = columns_for(muni)
        path = tmp_path / "c.csv"
        write_csv(path, columns, [values_for(0, local_today())])
        job_id = jobs.enqueue(muni.id, None, "check", "c.csv", "csv", path.read_bytes(), {}).id
        db.session.commit()  # the back office's request would commit it
    out = runner.invoke(args=["jobs", "worker", "--once"])
    assert out.exit_code == 0, out.output
    assert "1 trabalho(s) de importação concluído(s)." in out.output
    with app.app_context():
        job = db.session.get(ImportJob, job_id)
        assert job.state == "done" and job.result["valid"] == 1


def test_daily_purge_drops_old_files_and_report_details(app, runner):
    from datetime import timedelta

    from server.core.clock import local_today
    from server.modules.registry.models import utcnow
    from server.modules.registry_import.daily import purge

    _setup(app, runner)
    with app.app_context():
        mid = Municipality.query.one().id
        old = jobs.enqueue(mid, None, "check", "a.csv", "csv", b"cpf;nome", {})
        old.state, old.finished_at = "done", utcnow() - timedelta(days=9)
        old.result = {"rows": 1, "errors": [[2, "Nome do titular", "Maria"]], "changes": []}
        recent = jobs.enqueue(mid, None, "check", "b.csv", "csv", b"cpf;nome", {})
        recent.state, recent.finished_at = "done", utcnow() - timedelta(days=1)
        db.session.commit()
        assert purge(local_today()) == 1
        db.session.commit()
        old, recent = db.session.get(ImportJob, old.id), db.session.get(ImportJob, recent.id)
        assert old.body == b"" and old.result["errors"] == [] and old.result["rows"] == 1
        assert recent.body == b"cpf;nome"


def test_progress_is_recorded_while_a_job_runs_on_both_databases(app, runner, tmp_path):
    """More rows than a progress step and a write batch: the progress written beside the job's own
    transaction never blocks it (SQLite included, where `make run` runs the jobs)."""
    from server.modules.registry_import.importer import PROGRESS_EVERY
    from server.modules.registry_import.writing import BATCH

    _setup(app, runner)
    rows = max(BATCH, PROGRESS_EVERY) + PROGRESS_EVERY + 10
    with app.app_context():
        muni = Municipality.query.one()
        path = tmp_path / "c.csv"
        write_csv(path, columns_for(muni), [values_for(i, local_today()) for i in range(rows)])
        check = jobs.enqueue(muni.id, None, "check", "c.csv", "csv", path.read_bytes(), {}).id
        assert jobs.work(once=True) == 1
        commit = jobs.enqueue(muni.id, None, "commit", "c.csv", "csv", path.read_bytes(), {"check_id": check}).id
        assert jobs.work(once=True) == 1
        job = db.session.get(ImportJob, commit)
        assert job.state == "done" and job.result["committed"] and job.rows_done == rows
        assert Permit.query.count() == rows


@pytest.mark.parametrize("action, one, many", [("check", "1 linha verificada", "3 linhas verificadas"),
                                               ("commit", "1 linha processada", "3 linhas processadas")])
def test_progress_line_agrees_in_number(app, runner, client, action, one, many):
    """The progress line a clerk reads while a job runs says "1 linha", never "1 linhas"."""
    from server.modules.accounts.models import User

    _setup(app, runner)
    with app.app_context():
        muni = Municipality.query.one()
        clerk = User.query.filter_by(username="adm.sapezal").one()
        job_id = jobs.enqueue(muni.id, clerk.id, action, "c.csv", "csv", b"x", {}).id
        db.session.commit()
    login(client, "adm.sapezal", PASSWORD)
    for done, text in ((1, one), (3, many)):
        with app.app_context():
            job = db.session.get(ImportJob, job_id)
            job.state, job.rows_done = "running", done
            db.session.commit()
        status = client.get(f"/bo/importacao/{job_id}/estado").get_json()
        assert status["running"] and status["text"] == f"{text} até agora…"
        assert f"{text} até agora…" in client.get(f"/bo/importacao/{job_id}").get_data(as_text=True)
