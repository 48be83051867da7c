"""applied_penalty.committed_on: the day the infraction was committed (the auto's date), beside
applied_on (the day the penalty became applied). Recidivism windows count from the first
(Paranatinga art. 49 "tenha cometido"; SPEC §5 history `date`), the second decides whether an
entry counts (issue 19, point 5). operator.disqualified_on / disqualified_basis (inabilitação
reached by applied penalties) and rehabilitation_course_on / rehabilitation_course_ref (the curso
de reabilitação that ends it) (issue 19, point 7); no backfill: a disqualification is found when
a penalty is next applied.

Backfill: the auto's date as the process reads it (notification_content.infraction_date: the
device's clock, else the receipt time, as a local date in America/Cuiaba, the default
TIMEZONE); rows with no auto keep their applied_on (nothing better is known of them).

Revision ID: 0019_history_commission_date
Revises: 0018_calendar_closures
"""
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from alembic import op
import sqlalchemy as sa


revision = '0019_history_commission_date'
down_revision = '0018_calendar_closures'
branch_labels = None
depends_on = None

LOCAL = ZoneInfo("America/Cuiaba")


def _local_date(moment):
    if moment is None:
        return None
    if isinstance(moment, str):  # SQLite hands some drivers' timestamps back as text
        moment = datetime.fromisoformat(moment)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(LOCAL).date()


def upgrade():
    with op.batch_alter_table('applied_penalty', schema=None) as batch_op:
        batch_op.add_column(sa.Column('committed_on', sa.Date(), nullable=True))
    bind = op.get_bind()
    rows = bind.execute(sa.text(
        "SELECT p.id, p.applied_on, r.device_at, r.received_at FROM applied_penalty p "
        "LEFT JOIN field_record r ON r.id = p.auto_record_id")).fetchall()
    for pid, applied_on, device_at, received_at in rows:
        committed = _local_date(device_at or received_at) or applied_on
        bind.execute(sa.text("UPDATE applied_penalty SET committed_on = :d WHERE id = :i"),
                     {"d": committed, "i": pid})
    with op.batch_alter_table('applied_penalty', schema=None) as batch_op:
        batch_op.alter_column('committed_on', existing_type=sa.Date(), nullable=False)


    with op.batch_alter_table('operator', schema=None) as batch_op:
        batch_op.add_column(sa.Column('disqualified_on', sa.Date(), nullable=True))
        batch_op.add_column(sa.Column('disqualified_basis', sa.String(length=300), nullable=True))
        batch_op.add_column(sa.Column('rehabilitation_course_on', sa.Date(), nullable=True))
        batch_op.add_column(sa.Column('rehabilitation_course_ref', sa.String(length=200), nullable=True))


def downgrade():
    # Plain DROP COLUMN (SQLite ≥ 3.35, PostgreSQL): batch mode would rebuild `operator`, which
    # other tables reference, and SQLite refuses to drop that table while foreign keys are on.
    for column in ('rehabilitation_course_ref', 'rehabilitation_course_on', 'disqualified_basis',
                   'disqualified_on'):
        op.drop_column('operator', column)
    with op.batch_alter_table('applied_penalty', schema=None) as batch_op:
        batch_op.drop_column('committed_on')
