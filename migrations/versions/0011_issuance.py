"""issuance: vistorias, insurance policies, document checks and ISSQN charges; a permit's
insurance and last vistoria move into their own records (kept). New permits' ISSQN situation is
"sem_info" (desconhecido) instead of a presumed "em dia" — a model default, no schema change;
existing rows keep their value.

Revision ID: 0011_issuance
Revises: 0010_dash
"""
from alembic import op
import sqlalchemy as sa


revision = '0011_issuance'
down_revision = '0010_dash'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('vistoria',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('vehicle_id', sa.Integer(), nullable=False),
    sa.Column('permit_id', sa.Integer(), nullable=True),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('inspected_on', sa.Date(), nullable=False),
    sa.Column('result', sa.String(length=10), nullable=False),
    sa.Column('items', sa.JSON(), nullable=False),
    sa.Column('items_to_fix', sa.Text(), nullable=True),
    sa.Column('return_on', sa.Date(), nullable=True),
    sa.Column('inspector_name', sa.String(length=160), nullable=False),
    sa.Column('photo_hashes', sa.JSON(), nullable=False),
    sa.Column('notes', sa.Text(), nullable=True),
    sa.Column('recorded_by_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_vistoria_municipality_id_municipality')),
    sa.ForeignKeyConstraint(['permit_id'], ['permit.id'], name=op.f('fk_vistoria_permit_id_permit')),
    sa.ForeignKeyConstraint(['recorded_by_id'], ['user.id'], name=op.f('fk_vistoria_recorded_by_id_user')),
    sa.ForeignKeyConstraint(['vehicle_id'], ['vehicle.id'], name=op.f('fk_vistoria_vehicle_id_vehicle')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_vistoria'))
    )
    with op.batch_alter_table('vistoria', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_vistoria_inspected_on'), ['inspected_on'], unique=False)
        batch_op.create_index(batch_op.f('ix_vistoria_municipality_id'), ['municipality_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_vistoria_permit_id'), ['permit_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_vistoria_vehicle_id'), ['vehicle_id'], unique=False)

    op.create_table('insurance_policy',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('vehicle_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('insurer', sa.String(length=160), nullable=False),
    sa.Column('policy_number', sa.String(length=60), nullable=False),
    sa.Column('starts_on', sa.Date(), nullable=False),
    sa.Column('ends_on', sa.Date(), nullable=False),
    sa.Column('cover_temporary_disability', sa.Numeric(precision=14, scale=2), nullable=True),
    sa.Column('cover_permanent_disability', sa.Numeric(precision=14, scale=2), nullable=True),
    sa.Column('cover_death', sa.Numeric(precision=14, scale=2), nullable=True),
    sa.Column('cover_medical', sa.Numeric(precision=14, scale=2), nullable=True),
    sa.Column('cover_personal_accidents', sa.Boolean(), nullable=True),
    sa.Column('coverage_attested', sa.Boolean(), nullable=True),
    sa.Column('copy_filed', sa.Boolean(), nullable=False),
    sa.Column('recorded_by_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_insurance_policy_municipality_id_municipality')),
    sa.ForeignKeyConstraint(['recorded_by_id'], ['user.id'], name=op.f('fk_insurance_policy_recorded_by_id_user')),
    sa.ForeignKeyConstraint(['vehicle_id'], ['vehicle.id'], name=op.f('fk_insurance_policy_vehicle_id_vehicle')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_insurance_policy'))
    )
    with op.batch_alter_table('insurance_policy', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_insurance_policy_ends_on'), ['ends_on'], unique=False)
        batch_op.create_index(batch_op.f('ix_insurance_policy_municipality_id'), ['municipality_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_insurance_policy_vehicle_id'), ['vehicle_id'], unique=False)

    op.create_table('document_check',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('subject', sa.String(length=10), nullable=False),
    sa.Column('subject_id', sa.Integer(), nullable=False),
    sa.Column('fact', sa.String(length=60), nullable=False),
    sa.Column('value', sa.JSON(), nullable=True),
    sa.Column('checked_on', sa.Date(), nullable=False),
    sa.Column('valid_until', sa.Date(), nullable=True),
    sa.Column('recorded_by_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_document_check_municipality_id_municipality')),
    sa.ForeignKeyConstraint(['recorded_by_id'], ['user.id'], name=op.f('fk_document_check_recorded_by_id_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_document_check'))
    )
    with op.batch_alter_table('document_check', schema=None) as batch_op:
        batch_op.create_index('ix_document_check_subject', ['subject', 'subject_id', 'fact'], unique=False)
        batch_op.create_index(batch_op.f('ix_document_check_municipality_id'), ['municipality_id'], unique=False)

    op.create_table('issqn_charge',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('company_id', sa.Integer(), nullable=False),
    sa.Column('month', sa.Date(), nullable=False),
    sa.Column('motorcycles', sa.Integer(), nullable=False),
    sa.Column('ufm', sa.Numeric(precision=10, scale=3), nullable=False),
    sa.Column('amount_brl', sa.Numeric(precision=14, scale=2), nullable=True),
    sa.Column('due_on', sa.Date(), nullable=False),
    sa.Column('paid_on', sa.Date(), nullable=True),
    sa.Column('paid_amount_brl', sa.Numeric(precision=14, scale=2), nullable=True),
    sa.Column('payment_reference', sa.String(length=60), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['company_id'], ['company.id'], name=op.f('fk_issqn_charge_company_id_company')),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_issqn_charge_municipality_id_municipality')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_issqn_charge')),
    sa.UniqueConstraint('company_id', 'month', name=op.f('uq_issqn_charge_company_id'))
    )
    with op.batch_alter_table('issqn_charge', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_issqn_charge_company_id'), ['company_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_issqn_charge_due_on'), ['due_on'], unique=False)
        batch_op.create_index(batch_op.f('ix_issqn_charge_municipality_id'), ['municipality_id'], unique=False)

    # Keep what permits held: the last vistoria becomes an approved record "registrada antes deste
    # sistema" (its checklist unknown), the insurance a policy whose coverages are not stated.
    op.execute("INSERT INTO vistoria (municipality_id, vehicle_id, permit_id, kind, inspected_on, result, "
               "items, inspector_name, photo_hashes, notes, created_at) "
               "SELECT municipality_id, vehicle_id, id, 'registro_anterior', last_vistoria_date, 'aprovada', "
               "'{}', 'não informado', '[]', 'Migrada da data de última vistoria da permissão.', updated_at "
               "FROM permit WHERE last_vistoria_date IS NOT NULL AND vehicle_id IS NOT NULL")
    op.execute("INSERT INTO insurance_policy (municipality_id, vehicle_id, kind, insurer, policy_number, "
               "starts_on, ends_on, copy_filed, created_at) "
               "SELECT municipality_id, vehicle_id, 'outro', 'não informada', COALESCE(insurance_policy, 'não informada'), "
               "issued_on, insurance_expiry, false, updated_at "
               "FROM permit WHERE insurance_expiry IS NOT NULL AND vehicle_id IS NOT NULL")
    # Plain DROP COLUMN (SQLite ≥ 3.35 too): a batch copy of "permit" would have to drop the table,
    # which SQLite refuses while vistorias, crachás and drivers reference its rows.
    op.drop_column('permit', 'last_vistoria_date')
    op.drop_column('permit', 'insurance_expiry')
    op.drop_column('permit', 'insurance_policy')


def downgrade():
    op.add_column('permit', sa.Column('insurance_policy', sa.String(length=60), nullable=True))
    op.add_column('permit', sa.Column('insurance_expiry', sa.Date(), nullable=True))
    op.add_column('permit', sa.Column('last_vistoria_date', sa.Date(), nullable=True))
    op.drop_table('issqn_charge')
    op.drop_table('document_check')
    op.drop_table('insurance_policy')
    op.drop_table('vistoria')
