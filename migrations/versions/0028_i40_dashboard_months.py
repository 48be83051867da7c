"""field_stat_month, field_stat_item_month: the dashboard's monthly rollups (per month × fiscal ×
ponto, per month × infraction / requirement code), beside the daily ones (issue 40, item 5: 24
months at a million autos read ~438,000 daily rows; whole months now read ≤ 14,400). Backfilled
by one GROUP BY of the daily rollups (and, for items, of field_stat_item with its record's
month); from here on kept by the same upserts as the daily ones (dashboard.operations._roll).
Tenant tables: row-level security on PostgreSQL as for every table with a municipality.

Revision ID: 0028_i40_dashboard_months
Revises: 0027_field_rows_resent
"""
from alembic import op
import sqlalchemy as sa

from server.core import rls_sql

revision = '0028_i40_dashboard_months'
down_revision = '0027_field_rows_resent'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('field_stat_month',
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('month', sa.String(length=7), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('ponto_key', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('inspections', sa.Integer(), nullable=False),
    sa.Column('autos', sa.Integer(), nullable=False),
    sa.Column('amount_cents', sa.BigInteger(), nullable=False),
    sa.Column('unpriced', sa.Integer(), server_default='0', nullable=False),
    sa.Column('void', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_field_stat_month_municipality_id_municipality')),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_field_stat_month_user_id_user')),
    sa.PrimaryKeyConstraint('municipality_id', 'month', 'user_id', 'ponto_key', name=op.f('pk_field_stat_month'))
    )
    op.create_table('field_stat_item_month',
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('month', sa.String(length=7), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('code', sa.String(length=120), nullable=False),
    sa.Column('label', sa.String(length=300), nullable=True),
    sa.Column('count', sa.Integer(), nullable=False),
    sa.Column('amount_cents', sa.BigInteger(), nullable=False),
    sa.Column('unpriced', sa.Integer(), server_default='0', nullable=False),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_field_stat_item_month_municipality_id_municipality')),
    sa.PrimaryKeyConstraint('municipality_id', 'month', 'kind', 'code', name=op.f('pk_field_stat_item_month'))
    )
    if op.get_bind().dialect.name == 'postgresql':
        for table in ('field_stat_month', 'field_stat_item_month'):
            for statement in rls_sql.enable(table, rls_sql.tenant_condition()):
                op.execute(statement)
        # Row-level security binds the owner too: the backfill crosses municipalities on purpose.
        op.execute(f"SELECT set_config('{rls_sql.SETTING_CROSSING}', 'on', true)")
    op.execute(
        "INSERT INTO field_stat_month (municipality_id, month, user_id, ponto_key, inspections, autos, "
        "amount_cents, unpriced, void) "
        "SELECT municipality_id, month, user_id, ponto_key, SUM(inspections), SUM(autos), SUM(amount_cents), "
        "SUM(unpriced), SUM(void) FROM field_stat_day GROUP BY municipality_id, month, user_id, ponto_key")
    op.execute(
        "INSERT INTO field_stat_item_month (municipality_id, month, kind, code, label, count, amount_cents, unpriced) "
        "SELECT i.municipality_id, s.month, i.kind, i.code, MAX(i.label), COUNT(*), "
        "COALESCE(SUM(CASE WHEN NOT i.void THEN i.amount_cents END), 0), "
        "COALESCE(SUM(CASE WHEN NOT i.void THEN i.unpriced END), 0) "
        "FROM field_stat_item i JOIN field_stat s ON s.record_id = i.record_id "
        "GROUP BY i.municipality_id, s.month, i.kind, i.code")


def downgrade():
    op.drop_table('field_stat_item_month')
    op.drop_table('field_stat_month')
