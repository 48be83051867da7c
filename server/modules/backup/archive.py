"""One backup archive (a tar file): the database (PostgreSQL: `pg_dump` custom format; SQLite: the
online backup API, consistent while the app runs) with the issuer keys in it (encrypted with their
passphrase; the passphrase itself, MOTOFISCAL_KEY_PASSPHRASE or keys/master.key, is NOT put in the
archive: keep it apart), every blob of the storage interface (evidence and operator photos, from
the instance folder or the object store: core.storage), and manifest.json with the SHA-256
of every member and the schema revision. Restore checks all of that before touching anything.
Both are written to the audit log (after the dump: the archive holds the log up to its making)."""
import hashlib
import io
import json
import os
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath

from alembic.config import Config
from alembic.script import ScriptDirectory
from flask import current_app
from sqlalchemy import inspect, text
from sqlalchemy.engine import make_url

from ...core.app_role import AppRoleError, prepare_app_role, role_attributes
from ...core.audit import record
from ...extensions import db
from ...core.storage import AREAS, storage

FORMAT = 2  # 2: blobs by storage area, keys in the database (0024); 1 had files/keys/


class BackupError(Exception):
    """A pt-BR message for the operator; nothing was changed."""


def _sha256_file(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 16), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _fetch_blobs(work):
    """Every stored blob, copied from its storage area to work/files/<area>/<key> (streamed)."""
    members = {}
    for area in AREAS:
        store = storage(area)
        for key in store.keys():
            blob = store.open(key)
            if blob is None:  # gone between listing and reading
                continue
            path = work / "files" / area / key
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                with open(path, "wb") as sink:
                    shutil.copyfileobj(blob.stream, sink)
            finally:
                blob.stream.close()
            members[f"files/{area}/{key}"] = path
    return members


def schema_revision():
    return db.session.execute(text("SELECT version_num FROM alembic_version")).scalar()


def code_revision():
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).resolve().parents[3] / "migrations"))
    heads = ScriptDirectory.from_config(config).get_heads()
    return heads[0] if len(heads) == 1 else ",".join(sorted(heads))


def _libpq_url():
    url = make_url(current_app.config["SQLALCHEMY_DATABASE_URI"])
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def _pg_tool(name):
    """pg_dump / pg_restore present, and of the server's major version (an older pg_dump refuses a
    newer server; a newer one writes archives an older pg_restore cannot read)."""
    path = shutil.which(name)
    if path is None:
        raise BackupError(f"{name} não encontrado: instale o cliente do PostgreSQL (postgresql-client) "
                          "da mesma versão do servidor.")
    out = subprocess.run([path, "--version"], capture_output=True, text=True, check=True).stdout
    tool_major = int(out.split()[-1].split(".")[0]) if out.split() else None
    server_num = db.session.execute(text("SHOW server_version_num")).scalar()
    server_major = int(server_num) // 10000
    if tool_major != server_major:
        raise BackupError(f"{name} é da versão {tool_major}, o servidor PostgreSQL da {server_major}: "
                          f"instale o {name} da versão {server_major}.")
    return path, out.strip()


def _dump_database(work):
    dialect = db.engine.dialect.name
    if dialect == "sqlite":
        source = db.engine.raw_connection()
        target_path = work / "database.sqlite3"
        try:
            target = sqlite3.connect(target_path)
            source.driver_connection.backup(target)  # the online backup API
            target.close()
        finally:
            source.close()
        return dialect, target_path, None
    if dialect == "postgresql":
        pg_dump, version = _pg_tool("pg_dump")
        target_path = work / "database.pgdump"
        done = subprocess.run([pg_dump, "--format=custom", "--no-owner", "--no-privileges",
                               f"--file={target_path}", f"--dbname={_libpq_url()}"], capture_output=True, text=True)
        if done.returncode != 0:
            raise BackupError(f"pg_dump falhou: {done.stderr.strip()[:500]}")
        return dialect, target_path, version
    raise BackupError(f"Banco {dialect} não suportado.")


def _counts():
    names = inspect(db.engine).get_table_names()
    return {name: db.session.execute(text(f'SELECT count(*) FROM "{name}"')).scalar() for name in sorted(names)}


def create_backup(out_path):
    """Write the archive to out_path; returns the manifest."""
    out_path = Path(out_path)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        dialect, dump, tool = _dump_database(work)
        members = {f"database/{dump.name}": dump, **_fetch_blobs(work)}
        manifest = {"format": FORMAT, "created_at": datetime.now(timezone.utc).isoformat(),
                    "schema_revision": schema_revision(), "database": dialect, "pg_dump": tool,
                    "counts": _counts(), "sha256": {arc: _sha256_file(path) for arc, path in members.items()}}
        partial = out_path.with_name(out_path.name + ".partial")
        # Personal data (LGPD art. 46): readable by the app's user only, from the first byte.
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(fd, 0o600)  # a .partial left by an earlier run keeps its mode through O_TRUNC
        with os.fdopen(fd, "wb") as sink, tarfile.open(fileobj=sink, mode="w") as tar:
            data = json.dumps(manifest, indent=1, ensure_ascii=False).encode()
            info = tarfile.TarInfo("manifest.json")
            info.size, info.mtime = len(data), int(datetime.now().timestamp())
            tar.addfile(info, io.BytesIO(data))
            for arc, path in members.items():
                tar.add(path, arcname=arc, recursive=False)
        os.replace(partial, out_path)
    record("backup_create", "backup", None, None,
           {"file": out_path.name, "schema_revision": manifest["schema_revision"], "files": len(members),
            "sha256": _sha256_file(out_path)})  # committed by the command (core/transaction.py)
    return manifest


def read_manifest(tar):
    try:
        member = tar.getmember("manifest.json")
        manifest = json.loads(tar.extractfile(member).read())
    except (KeyError, ValueError, AttributeError) as exc:
        raise BackupError("Arquivo de backup danificado: manifest.json ausente ou ilegível.") from exc
    if manifest.get("format") != FORMAT or not isinstance(manifest.get("sha256"), dict):
        raise BackupError("Arquivo de backup de formato desconhecido.")
    return manifest


def _check_members(tar, manifest, work):
    """Extract every member into work/ after checking its name, then its SHA-256."""
    expected = dict(manifest["sha256"])
    for member in tar.getmembers():
        if member.name == "manifest.json":
            continue
        name = PurePosixPath(member.name)
        if not member.isfile() or name.is_absolute() or ".." in name.parts or member.name not in expected:
            raise BackupError(f"Arquivo de backup danificado: item inesperado {member.name!r}.")
        target = work / member.name
        target.parent.mkdir(parents=True, exist_ok=True)
        with tar.extractfile(member) as source, open(target, "wb") as sink:
            shutil.copyfileobj(source, sink)
        if _sha256_file(target) != expected.pop(member.name):
            raise BackupError(f"Arquivo de backup danificado: {member.name} não confere com o manifesto (SHA-256).")
    if expected:
        raise BackupError(f"Arquivo de backup incompleto: faltam {', '.join(sorted(expected)[:5])}.")


def _database_is_empty():
    return not inspect(db.engine).get_table_names()


def restore_backup(archive_path, app_role=None):
    """Restore into an empty database and empty file folders. Raises BackupError (nothing changed)
    on a damaged archive, another schema revision or database kind, or a database not empty.
    PostgreSQL: `app_role` (the role the application connects as, bound by row-level security) is
    granted the restored rows, as `flask tenancy app-role` does (the dump carries no privileges);
    then ANALYZE, so the first queries are not planned on empty statistics."""
    try:
        tar = tarfile.open(archive_path, "r:")
    except (tarfile.TarError, OSError) as exc:
        raise BackupError("Arquivo de backup danificado ou não é um backup do Motofiscal.") from exc
    with tar, tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        try:
            manifest = read_manifest(tar)
            _check_members(tar, manifest, work)
        except (tarfile.TarError, OSError, EOFError) as exc:
            raise BackupError("Arquivo de backup danificado (leitura interrompida).") from exc
        dialect = db.engine.dialect.name
        if manifest["database"] != dialect:
            raise BackupError(f"O backup é de um banco {manifest['database']}; este servidor usa {dialect}.")
        if manifest["schema_revision"] != code_revision():
            raise BackupError(f"O backup é da revisão do esquema {manifest['schema_revision']}; este código "
                              f"espera {code_revision()}: restaure com a versão do Motofiscal que o gerou.")
        if not _database_is_empty():
            raise BackupError("O banco de destino não está vazio: restaure num banco novo, vazio.")
        if app_role and dialect == "postgresql":
            _check_app_role(app_role)
        for area in AREAS:
            if next(iter(storage(area).keys()), None) is not None:
                raise BackupError(f"O armazenamento de destino ({area}) não está vazio: restaure num vazio.")
        _restore_database(work, dialect)  # a fresh session from here: the restored database's
        _after_restore(dialect, app_role)
        for area in AREAS:
            source = work / "files" / area
            for path in sorted(source.rglob("*")) if source.is_dir() else ():
                if path.is_file():
                    storage(area).write(path.relative_to(source).as_posix(), path.read_bytes())
    # In the transaction of the grants: the command commits both (core/transaction.py).
    record("backup_restore", "backup", None, None,
           {"file": Path(archive_path).name, "created_at": manifest["created_at"],
            "schema_revision": manifest["schema_revision"], "files": len(manifest["sha256"])})
    return manifest


def _restore_database(work, dialect):
    if dialect == "sqlite":
        target = make_url(current_app.config["SQLALCHEMY_DATABASE_URI"]).database
        db.session.remove()
        db.engine.dispose()
        source = sqlite3.connect(work / "database" / "database.sqlite3")
        dest = sqlite3.connect(target)
        try:
            source.backup(dest)
        finally:
            source.close()
            dest.close()
        return
    pg_restore, _ = _pg_tool("pg_restore")
    db.session.remove()
    done = subprocess.run([pg_restore, "--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction",
                           f"--dbname={_libpq_url()}", str(work / "database" / "database.pgdump")],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupError(f"pg_restore falhou: {done.stderr.strip()[:500]}")


def _check_app_role(role):
    """Before anything is written: the app role can be made ready by the connected user."""
    with db.engine.connect() as conn:
        attributes = role_attributes(conn, role)
        may_create = conn.execute(text("SELECT rolsuper OR rolcreaterole FROM pg_roles "
                                       "WHERE rolname = current_user")).scalar()
    if attributes is None and not may_create:
        raise BackupError(f"O papel do aplicativo {role} não existe neste servidor e este usuário não pode "
                          f"criá-lo: crie-o como superusuário (CREATE ROLE {role} LOGIN PASSWORD '…') ou "
                          "indique outro com --app-role. Nada foi restaurado.")
    if attributes is not None and any(attributes):
        raise BackupError(f"O papel {role} é superusuário ou tem BYPASSRLS: as políticas não o alcançariam. "
                          "Indique o papel do aplicativo com --app-role. Nada foi restaurado.")


def _after_restore(dialect, app_role):
    """The app role's grants (PostgreSQL), then fresh planner statistics: staged in the session's
    transaction, which the command commits (a failure here rolls the grants back)."""
    conn = db.session.connection()
    if app_role and dialect == "postgresql":
        try:
            prepare_app_role(conn, app_role)
        except AppRoleError as err:
            raise BackupError(f"Banco restaurado, mas o papel do aplicativo não ficou pronto: {err}") from None
    conn.exec_driver_sql("ANALYZE")
