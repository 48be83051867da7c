"""selection: the dated population behind Paranatinga's vacancies, editais and candidates (with
their legal conditions, tie-breaks, classification and suplente windows); vehicle substitutions
during a permit's life; tariff tables set by decree.

Revision ID: 0012_selection
Revises: 0011_issuance
"""
from alembic import op
import sqlalchemy as sa


revision = '0012_selection'
down_revision = '0011_issuance'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('edital',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.String(length=40), nullable=False),
    sa.Column('published_on', sa.Date(), nullable=False),
    sa.Column('registration_until', sa.Date(), nullable=False),
    sa.Column('vacancies_offered', sa.Integer(), nullable=False),
    sa.Column('extra_criteria', sa.JSON(), nullable=False),
    sa.Column('classification_published_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_edital_municipality_id_municipality')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_edital')),
    sa.UniqueConstraint('municipality_id', 'number', name=op.f('uq_edital_municipality_id'))
    )
    with op.batch_alter_table('edital', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_edital_municipality_id'), ['municipality_id'], unique=False)
    op.create_table('population_figure',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('population', sa.Integer(), nullable=False),
    sa.Column('reference_date', sa.Date(), nullable=False),
    sa.Column('source', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_population_figure_municipality_id_municipality')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_population_figure')),
    sa.UniqueConstraint('municipality_id', 'reference_date', name=op.f('uq_population_figure_municipality_id'))
    )
    with op.batch_alter_table('population_figure', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_population_figure_municipality_id'), ['municipality_id'], unique=False)
    op.create_table('tariff_table',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('act', sa.String(length=200), nullable=False),
    sa.Column('valid_from', sa.Date(), nullable=False),
    sa.Column('valid_until', sa.Date(), nullable=True),
    sa.Column('items', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_tariff_table_municipality_id_municipality')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tariff_table')),
    sa.UniqueConstraint('municipality_id', 'valid_from', name=op.f('uq_tariff_table_municipality_id'))
    )
    with op.batch_alter_table('tariff_table', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tariff_table_municipality_id'), ['municipality_id'], unique=False)
    op.create_table('candidate',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('edital_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=160), nullable=False),
    sa.Column('cpf', sa.String(length=11), nullable=False),
    sa.Column('profession_since', sa.Date(), nullable=False),
    sa.Column('cnh_first_issue_date', sa.Date(), nullable=False),
    sa.Column('vehicle_year', sa.Integer(), nullable=True),
    sa.Column('schooling', sa.Integer(), nullable=False),
    sa.Column('extra_values', sa.JSON(), nullable=False),
    sa.Column('conditions', sa.JSON(), nullable=False),
    sa.Column('tie_break', sa.Integer(), nullable=True),
    sa.Column('tie_break_reason', sa.Text(), nullable=True),
    sa.Column('classification', sa.Integer(), nullable=True),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('called_on', sa.Date(), nullable=True),
    sa.Column('regularize_until', sa.Date(), nullable=True),
    sa.Column('selected_on', sa.Date(), nullable=True),
    sa.Column('motorcycle_due', sa.Date(), nullable=True),
    sa.Column('status_reason', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['edital_id'], ['edital.id'], name=op.f('fk_candidate_edital_id_edital')),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_candidate_municipality_id_municipality')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_candidate')),
    sa.UniqueConstraint('edital_id', 'cpf', name=op.f('uq_candidate_edital_id'))
    )
    with op.batch_alter_table('candidate', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_candidate_edital_id'), ['edital_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_candidate_motorcycle_due'), ['motorcycle_due'], unique=False)
        batch_op.create_index(batch_op.f('ix_candidate_municipality_id'), ['municipality_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_candidate_regularize_until'), ['regularize_until'], unique=False)
        batch_op.create_index(batch_op.f('ix_candidate_status'), ['status'], unique=False)
    op.create_table('vehicle_substitution',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('permit_id', sa.Integer(), nullable=False),
    sa.Column('old_vehicle_id', sa.Integer(), nullable=True),
    sa.Column('new_vehicle_id', sa.Integer(), nullable=False),
    sa.Column('replaced_on', sa.Date(), nullable=False),
    sa.Column('requested_on', sa.Date(), nullable=False),
    sa.Column('vistoria_required', sa.Boolean(), nullable=False),
    sa.Column('vistoria_done_on', sa.Date(), nullable=True),
    sa.Column('basis', sa.String(length=200), nullable=False),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_vehicle_substitution_municipality_id_municipality')),
    sa.ForeignKeyConstraint(['new_vehicle_id'], ['vehicle.id'], name=op.f('fk_vehicle_substitution_new_vehicle_id_vehicle')),
    sa.ForeignKeyConstraint(['old_vehicle_id'], ['vehicle.id'], name=op.f('fk_vehicle_substitution_old_vehicle_id_vehicle')),
    sa.ForeignKeyConstraint(['permit_id'], ['permit.id'], name=op.f('fk_vehicle_substitution_permit_id_permit')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_vehicle_substitution'))
    )
    with op.batch_alter_table('vehicle_substitution', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_vehicle_substitution_municipality_id'), ['municipality_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_vehicle_substitution_permit_id'), ['permit_id'], unique=False)



def downgrade():
    with op.batch_alter_table('vehicle_substitution', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_vehicle_substitution_permit_id'))
        batch_op.drop_index(batch_op.f('ix_vehicle_substitution_municipality_id'))
    op.drop_table('vehicle_substitution')
    with op.batch_alter_table('candidate', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_candidate_status'))
        batch_op.drop_index(batch_op.f('ix_candidate_regularize_until'))
        batch_op.drop_index(batch_op.f('ix_candidate_municipality_id'))
        batch_op.drop_index(batch_op.f('ix_candidate_motorcycle_due'))
        batch_op.drop_index(batch_op.f('ix_candidate_edital_id'))
    op.drop_table('candidate')
    with op.batch_alter_table('tariff_table', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tariff_table_municipality_id'))
    op.drop_table('tariff_table')
    with op.batch_alter_table('population_figure', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_population_figure_municipality_id'))
    op.drop_table('population_figure')
    with op.batch_alter_table('edital', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_edital_municipality_id'))
    op.drop_table('edital')
