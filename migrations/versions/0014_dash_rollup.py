"""field_stat_day, field_stat_item_day: the dashboard's daily rollups (per day × fiscal × ponto,
per day × infraction / requirement code), backfilled by one GROUP BY of field_stat and
field_stat_item; from here on kept by the sync push and the void listener.

Revision ID: 0014_dash_rollup
Revises: 0013_issuance_links
"""
from alembic import op
import sqlalchemy as sa


revision = '0014_dash_rollup'
down_revision = '0013_issuance_links'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('field_stat_day',
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('day', sa.Date(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('ponto_key', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('month', sa.String(length=7), nullable=False),
    sa.Column('inspections', sa.Integer(), nullable=False),
    sa.Column('autos', sa.Integer(), nullable=False),
    sa.Column('amount_cents', sa.BigInteger(), nullable=False),
    sa.Column('void', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_field_stat_day_municipality_id_municipality')),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_field_stat_day_user_id_user')),
    sa.PrimaryKeyConstraint('municipality_id', 'day', 'user_id', 'ponto_key', name=op.f('pk_field_stat_day'))
    )
    op.create_table('field_stat_item_day',
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('day', sa.Date(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('code', sa.String(length=120), nullable=False),
    sa.Column('label', sa.String(length=300), nullable=True),
    sa.Column('count', sa.Integer(), nullable=False),
    sa.Column('amount_cents', sa.BigInteger(), nullable=False),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_field_stat_item_day_municipality_id_municipality')),
    sa.PrimaryKeyConstraint('municipality_id', 'day', 'kind', 'code', name=op.f('pk_field_stat_item_day'))
    )
    # The same sums operations._roll adds record by record, once over everything held.
    op.execute(
        "INSERT INTO field_stat_day (municipality_id, day, user_id, ponto_key, month, inspections, autos, amount_cents, void) "
        "SELECT municipality_id, day, user_id, COALESCE(ponto_id, 0), MAX(month), "
        "COUNT(CASE WHEN kind = 'inspection' THEN 1 END), COUNT(CASE WHEN kind = 'auto' THEN 1 END), "
        "COALESCE(SUM(CASE WHEN NOT void THEN amount_cents END), 0), COUNT(CASE WHEN void THEN 1 END) "
        "FROM field_stat GROUP BY municipality_id, day, user_id, COALESCE(ponto_id, 0)")
    op.execute(
        "INSERT INTO field_stat_item_day (municipality_id, day, kind, code, label, count, amount_cents) "
        "SELECT municipality_id, day, kind, code, MAX(label), COUNT(*), "
        "COALESCE(SUM(CASE WHEN NOT void THEN amount_cents END), 0) "
        "FROM field_stat_item GROUP BY municipality_id, day, kind, code")


def downgrade():
    op.drop_table('field_stat_item_day')
    op.drop_table('field_stat_day')
