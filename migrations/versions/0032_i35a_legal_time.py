"""legal_time: the ciência of a decision, and the last date each daily task decided (issue 35).

auto_appeal.decision_known_on / decision_known_via / decision_known_note: the day the operator
learnt of the decision (notificação of the decision, its AR, or its publication), entered by the
clerk; the next instance's period runs from it (Paranatinga Lei 311/2007 art. 48: "Da nova
decisão, caberá recurso … observando o mesmo prazo", 3 days "a contar do recebimento da
notificação"). Null while unknown: that period has not started (docs/ARCHITECTURE.md, "Time").
Existing decisions are left null — no ciência was ever recorded, and presuming one would shorten
an appeal.

daily_task_run: per daily task, the last date it decided (`flask jobs run-daily` decides each
missed date in order, so an outage cannot change a legal outcome). Platform-wide, like the tasks
(no municipality column, no row-level security). Not backfilled: the first run after the upgrade
decides its own date only.

Revision ID: 0032_i35a_legal_time
Revises: 0031_i34b_traffic_reports
"""
from alembic import op
import sqlalchemy as sa

revision = '0032_i35a_legal_time'
down_revision = '0031_i34b_traffic_reports'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('auto_appeal') as batch:
        batch.add_column(sa.Column('decision_known_on', sa.Date(), nullable=True))
        batch.add_column(sa.Column('decision_known_via', sa.String(length=20), nullable=True))
        batch.add_column(sa.Column('decision_known_note', sa.Text(), nullable=True))
    op.create_table(
        'daily_task_run',
        sa.Column('task', sa.String(length=80), nullable=False),
        sa.Column('last_decided_on', sa.Date(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('task'),
    )


def downgrade():
    op.drop_table('daily_task_run')
    with op.batch_alter_table('auto_appeal') as batch:
        batch.drop_column('decision_known_note')
        batch.drop_column('decision_known_via')
        batch.drop_column('decision_known_on')
