"""Daily: an import job's file and the personal data of its report (names, addresses in the
differences, CPF decisions) are kept for KEEP_DAYS after the job ends, long enough to download
the error report and decide; then only the counts stay (LGPD art. 6º, III: necessity). The audit
log keeps what each import wrote."""
from datetime import datetime, time, timedelta, timezone

from sqlalchemy import update

from ...extensions import db
from ..jobs.registry import daily_task
from .models import ImportJob

KEEP_DAYS = 7
COUNTS = ("rows", "valid", "existing", "written", "updated", "error_rows", "committed", "sha256", "clean", "decided")


@daily_task("registry_import.purge", "Importação de cadastro: apaga arquivos e relatórios com mais de 7 dias")
def purge(today):
    cutoff = datetime.combine(today - timedelta(days=KEEP_DAYS), time.min, tzinfo=timezone.utc)
    old = ImportJob.query.filter(ImportJob.finished_at < cutoff, ImportJob.state.in_(("done", "failed")),
                                 ImportJob.body != b"").all()
    for job in old:
        job.body = b""
        if job.result:
            job.result = {k: job.result.get(k) for k in COUNTS} | {"errors": [], "warnings": [], "decisions": [],
                                                                   "transitions": [], "changes": [],
                                                                   "undecided_lines": [], "purged": True}
    db.session.execute(update(ImportJob).where(ImportJob.state.in_(("queued", "running")),
                                               ImportJob.created_at < cutoff).values(state="failed", body=b"",
                                                                                     message="Abandonado."))
    return len(old)
