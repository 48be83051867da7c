"""insurance per covered person: Sapezal Lei 125/1999, art. 4º, § 1º owes the minimum covers
"tanto para os terceiros quanto para o motorista e passageiro, individualmente" (issue 19, point
10). Twelve nullable columns on insurance_policy (third parties, driver, passenger × invalidez
temporária, invalidez permanente, morte, acidentes pessoais). Nothing is backfilled: a policy
recorded with one set of amounts does not say whom they cover, so its per-person covers stay
unknown ("a confirmar") rather than being copied from that set.

Revision ID: 0026_insurance_per_person
Revises: 0025_tenancy_rls
"""
from alembic import op
import sqlalchemy as sa


revision = '0026_insurance_per_person'
down_revision = '0025_tenancy_rls'
branch_labels = None
depends_on = None

PERSONS = ('third_parties', 'driver', 'passenger')
AMOUNTS = ('temporary_disability', 'permanent_disability', 'death')


def _columns():
    for person in PERSONS:
        for cover in AMOUNTS:
            yield sa.Column(f'{person}_{cover}', sa.Numeric(14, 2), nullable=True)
        yield sa.Column(f'{person}_personal_accidents', sa.Boolean(), nullable=True)


def upgrade():
    with op.batch_alter_table('insurance_policy', schema=None) as batch_op:
        for column in _columns():
            batch_op.add_column(column)


def downgrade():
    with op.batch_alter_table('insurance_policy', schema=None) as batch_op:
        for column in reversed(list(_columns())):
            batch_op.drop_column(column.name)
