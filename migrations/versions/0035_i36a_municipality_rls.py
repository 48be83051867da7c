"""municipality_rls: row-level security on the `municipality` table itself (issue 36, "Operations
that hold"). Its rows hold each municipality's settings (fine amounts, retention periods, process
deadlines): as the app role a transaction reads and writes only the row of the municipality in
`motofiscal.municipality_id`, or every row when it declared the crossing (`motofiscal.crossing`:
creating a municipality, platform administration, the command line, public look-ups by a signed
code). The platform flag alone does not open it: a platform administrator works on the one
municipality picked, like everyone else, and the screens that list them all declare the crossing.
server/core/rls_sql.py has the text; docs/operations.md, "Row-level security". SQLite: nothing.

Revision ID: 0035_i36a_municipality_rls
Revises: 0034_i36b_import_jobs
"""
from alembic import op

from server.core import rls_sql

revision = '0035_i36a_municipality_rls'
down_revision = '0034_i36b_import_jobs'
branch_labels = None
depends_on = None


def upgrade():
    if op.get_bind().dialect.name != 'postgresql':
        return
    for statement in rls_sql.enable('municipality', rls_sql.municipality_condition()):
        op.execute(statement)


def downgrade():
    if op.get_bind().dialect.name != 'postgresql':
        return
    for statement in rls_sql.disable('municipality'):
        op.execute(statement)
