"""`flask storage create-bucket`: the object store's bucket, made once by the store's administrator
(docs/operations.md, "The object store's bucket"). The app itself never creates buckets: its own
credentials only read and write objects under STORAGE_URL's prefix."""
import click
from flask.cli import with_appcontext

from ...core.storage import parse_s3_url, s3_client, storage_url


@click.group("storage")
def storage_cli():
    """Stored files (object store)."""


@storage_cli.command("create-bucket")
@with_appcontext
def create_bucket():
    """Create STORAGE_URL's bucket when missing (private, versioning on); say so when it exists."""
    # local: the S3 library loads only where an object store is used (as core/storage.py does)
    from botocore.exceptions import BotoCoreError, ClientError  # noqa: PLC0415 (local: boto3 loads only where an object store is configured)

    url = storage_url()
    if not url:
        raise click.ClickException("STORAGE_URL não definido: sem objeto de armazenamento, os arquivos ficam na "
                                   "pasta da instância. Defina STORAGE_URL=s3://bucket/prefixo.")
    try:
        bucket, _prefix = parse_s3_url(url)
    except ValueError:
        raise click.ClickException(f"STORAGE_URL deve ser s3://bucket/prefixo, não {url!r}.") from None
    client = s3_client()
    try:
        existing = {b["Name"] for b in client.list_buckets().get("Buckets", [])}
        if bucket in existing:
            click.echo(f"Bucket {bucket} já existe: nada criado.")
            return
        region = client.meta.region_name
        options = {} if region in (None, "us-east-1") else {
            "CreateBucketConfiguration": {"LocationConstraint": region}}
        client.create_bucket(Bucket=bucket, **options)
        # A mistaken overwrite by hand can be undone (docs/operations.md, "Bucket policy").
        client.put_bucket_versioning(Bucket=bucket, VersioningConfiguration={"Status": "Enabled"})
    except (BotoCoreError, ClientError) as err:
        raise click.ClickException(f"O armazenamento de objetos recusou: {err}") from None
    click.echo(f"Bucket {bucket} criado (privado, com versionamento).")
