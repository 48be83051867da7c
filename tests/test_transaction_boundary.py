"""One transaction boundary (server/core/transaction.py, issue 39): no file of server/ commits but
the boundary itself, and only job runners open a unit of work.

Read from the source (AST), so a commit written any way (`db.session.commit()`, a session held in
a variable, `with session.begin():`) is found; the request and command boundaries are exercised
by tests/test_transaction_requests.py.
"""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "server"

# Files that may call .commit(), each with its reason.
COMMIT_ALLOWED = {
    "server/core/transaction.py": "the boundary",
    "server/modules/jobs/lock.py": "the advisory lock's own connection (a session-level lock, no data)",
    "server/modules/tenancy/cli.py": "roles and grants (DDL) on a connection of its own, not the session's data",
}

def _calls(tree, name):
    """Line numbers of every call of `<anything>.name(...)` or `name(...)`."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if (isinstance(func, ast.Attribute) and func.attr == name) or (isinstance(func, ast.Name) and func.id == name):
                found.append(node.lineno)
    return found


def _sources():
    for path in sorted(SERVER.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        yield rel, ast.parse(path.read_text(encoding="utf-8"), filename=rel)


def _is_job_runner(rel):
    return Path(rel).name in ("cli.py", "jobs.py") or rel in ("server/modules/jobs/registry.py",
                                                               "server/core/transaction.py")


def test_no_commit_outside_the_boundary():
    offenders = {}
    for rel, tree in _sources():
        if rel in COMMIT_ALLOWED:
            continue
        lines = _calls(tree, "commit") + _calls(tree, "begin")
        if lines:
            offenders[rel] = lines
    assert not offenders, f"commit()/begin() outside the transaction boundary: {offenders}"


def test_units_of_work_only_in_job_runners():
    offenders = {rel: lines for rel, tree in _sources()
                 if not _is_job_runner(rel) and (lines := _calls(tree, "unit_of_work"))}
    assert not offenders, f"unit_of_work() outside a job runner (cli.py, jobs.py): {offenders}"

