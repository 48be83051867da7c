"""amounts: the dashboard counts apart the municipal fines whose amount is not configured
(issue 18, item 5: "a definir (decreto não configurado)", never R$ 0,00, and no total while any
amount is unknown), and a traffic (SNT, CTB art. 244) infraction never enters the amounts.
`unpriced` on field_stat, field_stat_item and their daily rollups; backfilled from the bodies
held (dashboard.derive.item_amount, as the push derives new ones), the rollups rebuilt by one
GROUP BY each, as 0014_dash_rollup built them.

Revision ID: 0022_amounts_unpriced
Revises: 0020_poison_quarantine
"""
import json

from alembic import op
import sqlalchemy as sa


revision = '0022_amounts_unpriced'
down_revision = '0020_poison_quarantine'
branch_labels = None
depends_on = None

TABLES = ('field_stat', 'field_stat_item', 'field_stat_day', 'field_stat_item_day')
BATCH = 1000


def upgrade():
    for table in TABLES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column('unpriced', sa.Integer(), server_default='0', nullable=False))
    _backfill()


def _backfill():
    from server.modules.dashboard.derive import confirmed_infractions, item_amount, traffic_ids

    bind = op.get_bind()
    traffic = traffic_ids()
    update = sa.text("UPDATE field_stat_item SET amount_cents = :cents, unpriced = :unpriced "
                     "WHERE record_id = :rid AND position = :pos")
    rows = bind.execute(sa.text(
        "SELECT r.id, r.body FROM field_record r JOIN field_stat s ON s.record_id = r.id "
        "WHERE s.kind = 'auto' ORDER BY r.id")).fetchall()
    changes = []
    for rid, body_text in rows:
        try:
            body = json.loads(body_text)
        except ValueError:
            continue
        if not isinstance(body, dict):
            continue
        # Positions as derive numbers them: confirmed infractions with an id, in order.
        codes = [i for i in confirmed_infractions(body) if isinstance(i.get("id"), str) and i.get("id")]
        for pos, item in enumerate(codes):
            cents, unpriced = item_amount(item, traffic)
            if unpriced or item["id"] in traffic:
                changes.append({"cents": cents, "unpriced": unpriced, "rid": rid, "pos": pos})
        if len(changes) >= BATCH:
            bind.execute(update, changes)
            changes.clear()
    if changes:
        bind.execute(update, changes)
    op.execute(
        "UPDATE field_stat SET "
        "unpriced = (SELECT COALESCE(SUM(i.unpriced), 0) FROM field_stat_item i WHERE i.record_id = field_stat.record_id), "
        "amount_cents = (SELECT COALESCE(SUM(i.amount_cents), 0) FROM field_stat_item i WHERE i.record_id = field_stat.record_id) "
        "WHERE kind = 'auto'")
    op.execute("DELETE FROM field_stat_day")
    op.execute("DELETE FROM field_stat_item_day")
    op.execute(
        "INSERT INTO field_stat_day (municipality_id, day, user_id, ponto_key, month, inspections, autos, amount_cents, unpriced, void) "
        "SELECT municipality_id, day, user_id, COALESCE(ponto_id, 0), MAX(month), "
        "COUNT(CASE WHEN kind = 'inspection' THEN 1 END), COUNT(CASE WHEN kind = 'auto' THEN 1 END), "
        "COALESCE(SUM(CASE WHEN NOT void THEN amount_cents END), 0), "
        "COALESCE(SUM(CASE WHEN NOT void THEN unpriced END), 0), COUNT(CASE WHEN void THEN 1 END) "
        "FROM field_stat GROUP BY municipality_id, day, user_id, COALESCE(ponto_id, 0)")
    op.execute(
        "INSERT INTO field_stat_item_day (municipality_id, day, kind, code, label, count, amount_cents, unpriced) "
        "SELECT municipality_id, day, kind, code, MAX(label), COUNT(*), "
        "COALESCE(SUM(CASE WHEN NOT void THEN amount_cents END), 0), "
        "COALESCE(SUM(CASE WHEN NOT void THEN unpriced END), 0) "
        "FROM field_stat_item GROUP BY municipality_id, day, kind, code")


def downgrade():
    for table in reversed(TABLES):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column('unpriced')
