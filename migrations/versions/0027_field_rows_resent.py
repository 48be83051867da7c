"""field_rows_resent: every phone gets every operator row again at its next sync (issue 24).

Operator rows no longer carry the CNH number, and the birth, first-CNH and residence dates travel
floored where the rules allow (server/modules/fieldsync/fact_floors.py). Rows a phone already
holds are replaced only when they travel again, so this forgets each municipality's last rules
ETag: its next field-data request sees the rules as changed, which marks every operator changed
(field_data.current_state), and each phone's next delta replaces its operator rows. No schema
change; downgrade has nothing to undo.

Revision ID: 0027_field_rows_resent
Revises: 0026_insurance_per_person
"""
from alembic import op

from server.core import rls_sql

revision = '0027_field_rows_resent'
down_revision = '0026_insurance_per_person'
branch_labels = None
depends_on = None


def upgrade():
    if op.get_bind().dialect.name == 'postgresql':
        # Row-level security binds the owner too: this statement crosses municipalities on purpose.
        op.execute(f"SELECT set_config('{rls_sql.SETTING_CROSSING}', 'on', true)")
    op.execute('UPDATE field_data_state SET rules_etag = NULL')


def downgrade():
    pass
