"""Backup and restore (issue 21): the demo backed up, restored into a new database and a new
instance folder (or object-store prefix: both storage backends, issue 22), and checked: row counts,
a crachá printed before the backup still verifying, operator photos and keys back, the audit log
identical but for the backup's own entries; a damaged or mismatched archive refused."""
import hashlib
import io
import json
import tarfile
from datetime import datetime, timezone
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text

from conftest import PG_URL, _base_config
from server import create_app
from server.core.audit import AuditLog
from server.extensions import db
from server.modules.backup.archive import BackupError, restore_backup

pytestmark = pytest.mark.usefixtures("storage_backend")  # instance folder, then the S3 server


def _restore_db():
    """Beside the session's own database: parallel runs on other databases never share it."""
    from sqlalchemy.engine import make_url
    return f"{make_url(PG_URL).database}_restore"


def _target_url(tmp_path):
    if not PG_URL:
        return f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    from server.config import normalize_database_url
    base = normalize_database_url(PG_URL)
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        if not conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": _restore_db()}).scalar():
            conn.execute(text(f'CREATE DATABASE "{_restore_db()}"'))
    admin.dispose()
    url = base.rsplit("/", 1)[0] + "/" + _restore_db()
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    return url


def _table_counts(app):
    with app.app_context():
        names = inspect(db.engine).get_table_names()
        return {n: db.session.execute(text(f'SELECT count(*) FROM "{n}"')).scalar() for n in names}


def _target(tmp_path, instance, request):
    """The app a backup is restored into: a new database, a new instance folder, and with the
    object store a prefix of its own (empty)."""
    target = create_app(_base_config(_target_url(tmp_path), instance))
    target.instance_path = str(instance)
    if request.getfixturevalue("storage_backend") == "s3":
        settings = request.getfixturevalue("s3_server").settings()
        target.config.update(STORAGE_URL=settings["STORAGE_URL"], STORAGE_ENDPOINT_URL=settings["STORAGE_ENDPOINT_URL"])
    return target


def _audit(app):
    with app.app_context():
        return [(a.id, a.action, a.entity, a.entity_id, a.actor_label, json.dumps(a.after, sort_keys=True))
                for a in AuditLog.query.order_by(AuditLog.id)]


def _source_with_badge(app, demo):
    """Keys and one crachá printed before the backup, an operator photo on disk."""
    from server.modules.credentials.operations import create_key, issue_credential
    from server.modules.registry.models import Municipality, Permit
    from server.modules.registry.photos import store_operator_photo
    from PIL import Image

    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        create_key(muni)
        permit = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first()
        credential = issue_credential(permit)
        image = io.BytesIO()
        Image.new("RGB", (300, 400), (120, 90, 60)).save(image, "PNG")
        store_operator_photo(permit.main_driver, image.getvalue())
        db.session.commit()
        return credential.payload, permit.main_driver.photo_path


def _verify(app, payload):
    from server.modules.credentials import operations as ops
    from server.modules.credentials.verifier import prepare_trust, verify

    with app.app_context():
        muni, body = ops.payload_municipality(payload)
        return verify(payload, prepare_trust(ops.trust_for_payload(muni, body)), datetime.now(timezone.utc))


def _app_role_granted_and_analyzed(target):
    """PostgreSQL: the restore gave the app role its rows again (the dump has no privileges) and
    ran ANALYZE (issue 36: a restored database was unreadable by the app until `tenancy app-role`)."""
    with target.app_context():
        if db.engine.dialect.name != "postgresql":
            return
        granted = db.session.execute(text(
            "SELECT has_table_privilege('motofiscal_app', 'permit', 'SELECT, INSERT, UPDATE, DELETE'), "
            "has_table_privilege('motofiscal_app', 'municipality', 'SELECT, UPDATE')")).one()
        analyzed = db.session.execute(text(
            "SELECT last_analyze IS NOT NULL FROM pg_stat_user_tables WHERE relname = 'permit'")).scalar()
        db.session.remove()
    assert tuple(granted) == (True, True) and analyzed


def test_backup_restore_round_trip(app, demo, runner, tmp_path, request):
    payload, photo = _source_with_badge(app, demo)
    assert _verify(app, payload)["reason_code"] == "ok"
    archive = tmp_path / "backup.tar"
    made = runner.invoke(args=["backup", "create", str(archive)])
    assert made.exit_code == 0, made.output
    assert archive.stat().st_mode & 0o777 == 0o600  # personal data: the app's user only (LGPD art. 46)
    with tarfile.open(archive) as tar:
        names = tar.getnames()
        manifest = json.loads(tar.extractfile("manifest.json").read())
    assert f"files/photos/{photo}" in names
    assert not any(n.startswith("files/keys/") or n.endswith("master.key") for n in names)  # keys: in the dump
    assert manifest["counts"]["issuer_key"] == 1
    with app.app_context():
        assert manifest["schema_revision"] == db.session.execute(text("SELECT version_num FROM alembic_version")).scalar()
    for name, digest in manifest["sha256"].items():
        assert len(digest) == 64 and name in names

    instance = tmp_path / "restored-instance"
    (instance / "keys").mkdir(parents=True)
    master = Path(app.instance_path) / "keys" / "master.key"
    (instance / "keys" / "master.key").write_bytes(master.read_bytes())  # brought from where it was kept
    target = _target(tmp_path, instance, request)
    restored = target.test_cli_runner().invoke(args=["backup", "restore", str(archive)])
    assert restored.exit_code == 0, restored.output
    _app_role_granted_and_analyzed(target)

    source_audit, target_audit = _audit(app), _audit(target)
    assert source_audit[-1][1:4] == ("backup_create", "backup", None)  # written once the archive was made
    assert target_audit[-1][1:4] == ("backup_restore", "backup", None)
    assert target_audit[:-1] == source_audit[:-1]  # the log as it was when the backup was made
    assert json.loads(source_audit[-1][5])["sha256"] == hashlib.sha256(archive.read_bytes()).hexdigest()
    assert _table_counts(target) == _table_counts(app)  # audit_log: one backup entry each
    with app.app_context():
        from server.core.storage import storage
        kept = storage("photos").read(photo)
    with target.app_context():
        assert kept is not None and storage("photos").read(photo) == kept
    assert _verify(target, payload)["reason_code"] == "ok"
    with target.app_context():  # the restored key still signs: a new crachá verifies too
        from server.modules.credentials.operations import issue_credential
        from server.modules.registry.models import Permit
        permit = Permit.query.filter_by(status="ativo").join(Permit.holder_operator).filter_by(photo_path=photo).first()
        new_payload = issue_credential(permit, reason="segunda via").payload
        db.session.commit()  # as the back office's request would
    assert _verify(target, new_payload)["reason_code"] == "ok"

    again = target.test_cli_runner().invoke(args=["backup", "restore", str(archive)])
    assert again.exit_code != 0 and "não está vazio" in again.output
    with target.app_context():
        db.session.remove()
        db.engine.dispose()


def test_damaged_or_mismatched_archive_is_refused(app, demo, runner, tmp_path, request):
    archive = tmp_path / "backup.tar"
    assert runner.invoke(args=["backup", "create", str(archive)]).exit_code == 0
    data = bytearray(archive.read_bytes())
    with tarfile.open(archive) as tar:
        member = next(m for m in tar.getmembers() if m.name.startswith("database/"))
    data[member.offset_data + member.size // 2] ^= 0xFF  # one flipped byte inside the database dump
    damaged = tmp_path / "damaged.tar"
    damaged.write_bytes(bytes(data))
    truncated = tmp_path / "truncated.tar"
    truncated.write_bytes(archive.read_bytes()[: len(data) // 3])

    other = tmp_path / "other-revision.tar"
    with tarfile.open(archive) as src, tarfile.open(other, "w") as dst:
        for m in src.getmembers():
            body = src.extractfile(m).read()
            if m.name == "manifest.json":
                manifest = json.loads(body)
                manifest["schema_revision"] = "0001_foundation"
                body = json.dumps(manifest).encode()
                m.size = len(body)
            dst.addfile(m, io.BytesIO(body))

    instance = tmp_path / "empty-instance"
    target = _target(tmp_path, instance, request)
    with target.app_context():
        for path, words in ((damaged, "SHA-256"), (truncated, "danificado"), (other, "revisão do esquema")):
            with pytest.raises(BackupError) as err:
                restore_backup(path)
            assert words in str(err.value), (path.name, str(err.value))
        assert inspect(db.engine).get_table_names() == []  # nothing was written
        db.session.remove()
        db.engine.dispose()
    refused = target.test_cli_runner().invoke(args=["backup", "restore", str(damaged)])
    assert refused.exit_code != 0 and "SHA-256" in refused.output
    with target.app_context():
        from server.core.storage import storage
        assert list(storage("photos").keys()) == [] and list(storage().keys()) == []  # nothing was written
