"""Blob storage: the ONE interface for every file the server keeps outside the database.

Three areas, each a flat space of keys built by our code (never user text), named by content hash:
  evidence  photos and signature images sent by phones, and the thumbnails made from them;
  photos    operator photos (registry.photos), `<municipality id>/<sha256>.jpg`;
  filings   attachments of the operators' defences and appeals (autos.operator_filings).
PDFs and crachás are not stored: they are rendered from the database on each request.

Backend, chosen by settings (config first, then the environment):
  STORAGE_URL unset       a local folder per area: EVIDENCE_STORAGE_DIR or instance/evidence,
                          and instance/photos (the embedded default, one server or a shared volume);
  STORAGE_URL=s3://bucket/prefix
                          an S3-compatible object store; keys `<prefix>/<area>/<key>`. Endpoint from
                          STORAGE_ENDPOINT_URL (MinIO, Ceph, a cloud's S3 API; unset = AWS), region
                          and credentials from the usual AWS_* variables (or an instance role).
Writes never replace: a key names its content, so a key that exists is left alone (HEAD before PUT).
Reads stream (open), downloads are proxied by views that checked the municipality first: the
bucket stays private, nothing is ever presigned or public.
"""
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Iterator
from urllib.parse import urlparse

from flask import current_app

AREAS = ("evidence", "photos", "filings")
CHUNK = 64 * 1024


@dataclass
class Blob:
    """An open stored file: read it in chunks, then close it."""
    stream: BinaryIO
    size: int


def _check_key(key: str) -> str:
    if not key or ".." in key.split("/") or key.startswith("/") or "\\" in key:
        raise ValueError("invalid storage key")
    return key


class LocalFolderStorage:
    """A folder. Writes are atomic renames of uniquely named temporary files, so two servers on a
    shared volume storing the same blob at once both succeed and a reader never sees half a file."""

    def __init__(self, root):
        self.root = Path(root)

    def _path(self, key: str) -> Path:
        return self.root / _check_key(key)

    def exists(self, key: str) -> bool:
        return self._path(key).is_file()

    def read(self, key: str) -> bytes | None:
        try:
            return self._path(key).read_bytes()
        except FileNotFoundError:
            return None

    def open(self, key: str) -> Blob | None:
        try:
            handle = open(self._path(key), "rb")
        except FileNotFoundError:
            return None
        return Blob(handle, os.fstat(handle.fileno()).st_size)

    def write(self, key: str, data: bytes) -> None:
        """Store data under key, atomically; writing the same key twice is harmless."""
        path = self._path(key)
        if path.is_file():
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)

    def delete(self, key: str) -> None:
        """Only for what the law says must go (LGPD anonymisation of an operator photo): evidence
        is never deleted."""
        self._path(key).unlink(missing_ok=True)

    def keys(self) -> Iterator[str]:
        if not self.root.is_dir():
            return
        for path in sorted(self.root.rglob("*")):
            if path.is_file() and not path.name.startswith("."):
                yield path.relative_to(self.root).as_posix()


class S3Storage:
    """One area of a bucket, through boto3 (any S3-compatible server)."""

    def __init__(self, client, bucket: str, prefix: str):
        self.client, self.bucket, self.prefix = client, bucket, prefix

    def _name(self, key: str) -> str:
        return f"{self.prefix}{_check_key(key)}"

    def exists(self, key: str) -> bool:
        from botocore.exceptions import ClientError  # noqa: PLC0415 (boto3 loads only where S3 is configured)
        try:
            self.client.head_object(Bucket=self.bucket, Key=self._name(key))
            return True
        except ClientError as err:
            if err.response.get("Error", {}).get("Code") in ("404", "NoSuchKey", "NotFound"):
                return False
            raise

    def open(self, key: str) -> Blob | None:
        try:
            answer = self.client.get_object(Bucket=self.bucket, Key=self._name(key))
        except self.client.exceptions.NoSuchKey:
            return None
        return Blob(answer["Body"], answer["ContentLength"])

    def read(self, key: str) -> bytes | None:
        blob = self.open(key)
        if blob is None:
            return None
        try:
            return blob.stream.read()
        finally:
            blob.stream.close()

    def write(self, key: str, data: bytes) -> None:
        # HEAD before PUT: the same content arrives from many phones and servers; a key that exists
        # already holds these bytes. Two PUTs racing write the same bytes, so either may win.
        if self.exists(key):
            return
        self.client.put_object(Bucket=self.bucket, Key=self._name(key), Body=data)

    def delete(self, key: str) -> None:
        """Only for what the law says must go (LGPD anonymisation of an operator photo): evidence
        is never deleted. Deleting a key that is not there is not an error in S3."""
        self.client.delete_object(Bucket=self.bucket, Key=self._name(key))

    def keys(self) -> Iterator[str]:
        pages = self.client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=self.prefix)
        for page in pages:
            for item in page.get("Contents", ()):
                yield item["Key"][len(self.prefix):]


def _setting(name):
    return current_app.config.get(name) or os.environ.get(name)


def storage_url() -> str | None:
    return _setting("STORAGE_URL")


def s3_client():
    """One boto3 client per app and endpoint (clients are thread-safe and slow to make)."""
    import boto3  # noqa: PLC0415 (boto3 loads only where S3 is configured: about a second to import)
    endpoint = _setting("STORAGE_ENDPOINT_URL")
    clients = current_app.extensions.setdefault("storage_s3_clients", {})
    if endpoint not in clients:
        clients[endpoint] = boto3.client("s3", endpoint_url=endpoint)
    return clients[endpoint]


def _s3_health_client():
    """A client that gives up fast (the health check answers a balancer within seconds)."""
    import boto3  # noqa: PLC0415 (as in s3_client)
    from botocore.config import Config  # noqa: PLC0415 (as in s3_client)
    endpoint = _setting("STORAGE_ENDPOINT_URL")
    clients = current_app.extensions.setdefault("storage_s3_health_clients", {})
    if endpoint not in clients:
        clients[endpoint] = boto3.client("s3", endpoint_url=endpoint, config=Config(
            connect_timeout=2, read_timeout=2, retries={"max_attempts": 1}))
    return clients[endpoint]


def health() -> str | None:
    """None when the storage answers; else a short reason (core/health.py, `/healthz`)."""
    url = storage_url()
    try:
        if url:
            bucket, prefix = parse_s3_url(url)
            _s3_health_client().list_objects_v2(Bucket=bucket, Prefix=prefix, MaxKeys=1)
            return None
        for area in AREAS:
            root = storage(area).root
            folder = root if root.exists() else root.parent  # made at the first write
            if not os.access(folder, os.W_OK):
                return f"pasta {folder} sem permissão de escrita"
        return None
    except Exception as err:  # any failure of the store is "degraded", never an error of the check
        return f"inacessível ({type(err).__name__})"


def parse_s3_url(url: str) -> tuple[str, str]:
    """s3://bucket/prefix → (bucket, "prefix/"); the prefix may be empty."""
    parsed = urlparse(url)
    if parsed.scheme != "s3" or not parsed.netloc:
        raise ValueError(f"STORAGE_URL must be s3://bucket/prefix, not {url!r}")
    prefix = parsed.path.strip("/")
    return parsed.netloc, f"{prefix}/" if prefix else ""


def storage(area: str = "evidence") -> LocalFolderStorage | S3Storage:
    if area not in AREAS:
        raise ValueError(f"unknown storage area {area!r}")
    url = storage_url()
    if url:
        bucket, prefix = parse_s3_url(url)
        return S3Storage(s3_client(), bucket, f"{prefix}{area}/")
    if area == "evidence":
        return LocalFolderStorage(_setting("EVIDENCE_STORAGE_DIR") or Path(current_app.instance_path) / "evidence")
    return LocalFolderStorage(Path(current_app.instance_path) / area)


class _Chunks:
    """The WSGI body: chunks of the stream, closed by the server once sent (or never started)."""

    def __init__(self, stream):
        self.stream = stream

    def __iter__(self):
        return iter(lambda: self.stream.read(CHUNK), b"")

    def close(self):
        self.stream.close()


def stored_response(area: str, key: str, mimetype: str, cache_control: str):
    """A streamed download of one stored blob, or None when it is missing. Callers check the
    municipality's right to it first: this only moves bytes."""
    blob = storage(area).open(key)
    if blob is None:
        return None

    response = current_app.response_class(_Chunks(blob.stream), mimetype=mimetype, direct_passthrough=True)
    response.content_length = blob.size
    response.headers["Cache-Control"] = cache_control
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response
