"""review: corrections of autos as versions, decisions on cancellation requests, and the
indexes of the review queue on field_record.

Revision ID: 0008_review
Revises: 0007_auto_case
"""
from alembic import op
import sqlalchemy as sa


revision = '0008_review'
down_revision = '0007_auto_case'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('auto_case_version',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('n', sa.Integer(), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('source', sa.String(length=16), nullable=False),
    sa.Column('conflict_id', sa.Integer(), nullable=True),
    sa.Column('author_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['author_id'], ['user.id'], name=op.f('fk_auto_case_version_author_id_user')),
    sa.ForeignKeyConstraint(['case_id'], ['auto_case.id'], name=op.f('fk_auto_case_version_case_id_auto_case')),
    sa.ForeignKeyConstraint(['conflict_id'], ['field_record_conflict.id'], name=op.f('fk_auto_case_version_conflict_id_field_record_conflict')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_auto_case_version')),
    sa.UniqueConstraint('case_id', 'n', name=op.f('uq_auto_case_version_case_id'))
    )
    with op.batch_alter_table('auto_case_version', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_auto_case_version_case_id'), ['case_id'], unique=False)
    op.create_table('cancel_request_decision',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('request_id', sa.String(length=36), nullable=False),
    sa.Column('decision', sa.String(length=10), nullable=False),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('decided_by_id', sa.Integer(), nullable=True),
    sa.Column('decided_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['decided_by_id'], ['user.id'], name=op.f('fk_cancel_request_decision_decided_by_id_user')),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_cancel_request_decision_municipality_id_municipality')),
    sa.ForeignKeyConstraint(['request_id'], ['field_record.id'], name=op.f('fk_cancel_request_decision_request_id_field_record')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_cancel_request_decision')),
    sa.UniqueConstraint('request_id', name=op.f('uq_cancel_request_decision_request_id'))
    )
    with op.batch_alter_table('cancel_request_decision', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_cancel_request_decision_municipality_id'), ['municipality_id'], unique=False)
    with op.batch_alter_table('field_record', schema=None) as batch_op:
        batch_op.create_index('ix_field_record_queue', ['municipality_id', 'received_at', 'id', 'kind'], unique=False)
        batch_op.create_index('ix_field_record_device_time', ['municipality_id', 'device_at'], unique=False)


def downgrade():
    with op.batch_alter_table('field_record', schema=None) as batch_op:
        batch_op.drop_index('ix_field_record_device_time')
        batch_op.drop_index('ix_field_record_queue')
    with op.batch_alter_table('cancel_request_decision', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_cancel_request_decision_municipality_id'))
    op.drop_table('cancel_request_decision')
    with op.batch_alter_table('auto_case_version', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_auto_case_version_case_id'))
    op.drop_table('auto_case_version')
