"""operator.name_search: accent- and case-insensitive name search

Existing rows are backfilled with the same fold() the application uses, so an upgraded
database finds "joao" in "João" at once.

Revision ID: 0003_operator_name_search
Revises: 0002_credentials
"""
import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0003_operator_name_search"
down_revision = "0002_credentials"
branch_labels = None
depends_on = None


def _fold(text):
    # Same rule as server.core.validation.fold, copied so that this migration keeps working
    # whatever the application code becomes later.
    decomposed = unicodedata.normalize("NFKD", text or "")
    return " ".join("".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower().split())


def upgrade():
    with op.batch_alter_table("operator", schema=None) as batch_op:
        batch_op.add_column(sa.Column("name_search", sa.String(length=160), nullable=True))
    conn = op.get_bind()
    operator = sa.table("operator", sa.column("id", sa.Integer), sa.column("name", sa.String),
                        sa.column("name_search", sa.String))
    for row in conn.execute(sa.select(operator.c.id, operator.c.name)).all():
        conn.execute(operator.update().where(operator.c.id == row.id).values(name_search=_fold(row.name)))
    with op.batch_alter_table("operator", schema=None) as batch_op:
        batch_op.alter_column("name_search", existing_type=sa.String(length=160), nullable=False)


def downgrade():
    with op.batch_alter_table("operator", schema=None) as batch_op:
        batch_op.drop_column("name_search")
