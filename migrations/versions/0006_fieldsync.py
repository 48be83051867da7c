"""fieldsync: signed field records, conflicts, evidence photos, auto numbers, applied
penalties and field-data versions (issue 9, server side)

Revision ID: 0006_fieldsync
Revises: 0005_user_sessions
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0006_fieldsync'
down_revision = '0005_user_sessions'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('auto_number_series',
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('year', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('last_seq', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_auto_number_series_municipality_id_municipality')),
    sa.PrimaryKeyConstraint('municipality_id', 'year', name=op.f('pk_auto_number_series'))
    )
    op.create_table('field_data_entity',
    sa.Column('municipality_id', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('kind', sa.String(length=12), nullable=False),
    sa.Column('entity_id', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('version', sa.BigInteger(), nullable=False),
    sa.Column('removed', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_field_data_entity_municipality_id_municipality')),
    sa.PrimaryKeyConstraint('municipality_id', 'kind', 'entity_id', name=op.f('pk_field_data_entity'))
    )
    with op.batch_alter_table('field_data_entity', schema=None) as batch_op:
        batch_op.create_index('ix_field_data_entity_delta', ['municipality_id', 'version'], unique=False)

    op.create_table('field_data_state',
    sa.Column('municipality_id', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('version', sa.BigInteger(), nullable=False),
    sa.Column('rules_etag', sa.String(length=80), nullable=True),
    sa.Column('changed_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_field_data_state_municipality_id_municipality')),
    sa.PrimaryKeyConstraint('municipality_id', name=op.f('pk_field_data_state'))
    )
    op.create_table('auto_number_block',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('year', sa.Integer(), nullable=False),
    sa.Column('first_seq', sa.Integer(), nullable=False),
    sa.Column('count', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['device_id'], ['device.id'], name=op.f('fk_auto_number_block_device_id_device')),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_auto_number_block_municipality_id_municipality')),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_auto_number_block_user_id_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_auto_number_block'))
    )
    with op.batch_alter_table('auto_number_block', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_auto_number_block_device_id'), ['device_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_auto_number_block_municipality_id'), ['municipality_id'], unique=False)

    op.create_table('evidence_photo',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('sha256', sa.String(length=64), nullable=False),
    sa.Column('content_type', sa.String(length=20), nullable=False),
    sa.Column('size', sa.Integer(), nullable=False),
    sa.Column('width', sa.Integer(), nullable=False),
    sa.Column('height', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=True),
    sa.Column('uploaded_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['device_id'], ['device.id'], name=op.f('fk_evidence_photo_device_id_device')),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_evidence_photo_municipality_id_municipality')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_evidence_photo')),
    sa.UniqueConstraint('municipality_id', 'sha256', name=op.f('uq_evidence_photo_municipality_id'))
    )
    with op.batch_alter_table('evidence_photo', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_evidence_photo_device_id'), ['device_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_evidence_photo_municipality_id'), ['municipality_id'], unique=False)

    op.create_table('field_record',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('prev_hash', sa.String(length=64), nullable=True),
    sa.Column('body_hash', sa.String(length=64), nullable=False),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('signature', sa.String(length=100), nullable=False),
    sa.Column('flags', sa.JSON(), nullable=False),
    sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('device_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('gps_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('auto_number', sa.String(length=40), nullable=True),
    sa.Column('operator_id', sa.Integer(), nullable=True),
    sa.Column('inspection_id', sa.String(length=36), nullable=True),
    sa.Column('target_id', sa.String(length=36), nullable=True),
    sa.Column('public_token_hash', sa.String(length=64), nullable=True),
    sa.ForeignKeyConstraint(['device_id'], ['device.id'], name=op.f('fk_field_record_device_id_device')),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_field_record_municipality_id_municipality')),
    sa.ForeignKeyConstraint(['operator_id'], ['operator.id'], name=op.f('fk_field_record_operator_id_operator')),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_field_record_user_id_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_field_record'))
    )
    with op.batch_alter_table('field_record', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_field_record_auto_number'), ['auto_number'], unique=False)
        batch_op.create_index(batch_op.f('ix_field_record_device_id'), ['device_id'], unique=False)
        batch_op.create_index('ix_field_record_device_seq', ['device_id', 'seq'], unique=False)
        batch_op.create_index(batch_op.f('ix_field_record_inspection_id'), ['inspection_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_field_record_municipality_id'), ['municipality_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_field_record_operator_id'), ['operator_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_field_record_public_token_hash'), ['public_token_hash'], unique=False)
        batch_op.create_index(batch_op.f('ix_field_record_received_at'), ['received_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_field_record_target_id'), ['target_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_field_record_user_id'), ['user_id'], unique=False)

    op.create_table('applied_penalty',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('operator_id', sa.Integer(), nullable=True),
    sa.Column('permit_id', sa.Integer(), nullable=True),
    sa.Column('infraction_id', sa.String(length=80), nullable=False),
    sa.Column('penalty', sa.String(length=30), nullable=True),
    sa.Column('applied_on', sa.Date(), nullable=False),
    sa.Column('auto_record_id', sa.String(length=36), nullable=True),
    sa.Column('decision_ref', sa.String(length=120), nullable=True),
    sa.Column('cancelled', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['auto_record_id'], ['field_record.id'], name=op.f('fk_applied_penalty_auto_record_id_field_record')),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_applied_penalty_municipality_id_municipality')),
    sa.ForeignKeyConstraint(['operator_id'], ['operator.id'], name=op.f('fk_applied_penalty_operator_id_operator')),
    sa.ForeignKeyConstraint(['permit_id'], ['permit.id'], name=op.f('fk_applied_penalty_permit_id_permit')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_applied_penalty'))
    )
    with op.batch_alter_table('applied_penalty', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_applied_penalty_municipality_id'), ['municipality_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_applied_penalty_operator_id'), ['operator_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_applied_penalty_permit_id'), ['permit_id'], unique=False)

    op.create_table('auto_number',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('block_id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.String(length=40), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('record_id', sa.String(length=36), nullable=True),
    sa.Column('void_reason', sa.Text(), nullable=True),
    sa.Column('voided_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['block_id'], ['auto_number_block.id'], name=op.f('fk_auto_number_block_id_auto_number_block')),
    sa.ForeignKeyConstraint(['device_id'], ['device.id'], name=op.f('fk_auto_number_device_id_device')),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_auto_number_municipality_id_municipality')),
    sa.ForeignKeyConstraint(['record_id'], ['field_record.id'], name=op.f('fk_auto_number_record_id_field_record')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_auto_number')),
    sa.UniqueConstraint('municipality_id', 'number', name=op.f('uq_auto_number_municipality_id'))
    )
    with op.batch_alter_table('auto_number', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_auto_number_block_id'), ['block_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_auto_number_device_id'), ['device_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_auto_number_municipality_id'), ['municipality_id'], unique=False)

    op.create_table('field_record_conflict',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('record_id', sa.String(length=36), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('body_hash', sa.String(length=64), nullable=False),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('signature', sa.String(length=100), nullable=False),
    sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('reviewed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('review_note', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['device_id'], ['device.id'], name=op.f('fk_field_record_conflict_device_id_device')),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_field_record_conflict_municipality_id_municipality')),
    sa.ForeignKeyConstraint(['record_id'], ['field_record.id'], name=op.f('fk_field_record_conflict_record_id_field_record')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_field_record_conflict')),
    sa.UniqueConstraint('record_id', 'body_hash', name=op.f('uq_field_record_conflict_record_id'))
    )
    with op.batch_alter_table('field_record_conflict', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_field_record_conflict_device_id'), ['device_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_field_record_conflict_municipality_id'), ['municipality_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_field_record_conflict_record_id'), ['record_id'], unique=False)

    op.create_table('record_photo',
    sa.Column('record_id', sa.String(length=36), nullable=False),
    sa.Column('sha256', sa.String(length=64), nullable=False),
    sa.ForeignKeyConstraint(['record_id'], ['field_record.id'], name=op.f('fk_record_photo_record_id_field_record')),
    sa.PrimaryKeyConstraint('record_id', 'sha256', name=op.f('pk_record_photo'))
    )
    with op.batch_alter_table('record_photo', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_record_photo_sha256'), ['sha256'], unique=False)



def downgrade():
    with op.batch_alter_table('record_photo', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_record_photo_sha256'))

    op.drop_table('record_photo')
    with op.batch_alter_table('field_record_conflict', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_field_record_conflict_record_id'))
        batch_op.drop_index(batch_op.f('ix_field_record_conflict_municipality_id'))
        batch_op.drop_index(batch_op.f('ix_field_record_conflict_device_id'))

    op.drop_table('field_record_conflict')
    with op.batch_alter_table('auto_number', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_auto_number_municipality_id'))
        batch_op.drop_index(batch_op.f('ix_auto_number_device_id'))
        batch_op.drop_index(batch_op.f('ix_auto_number_block_id'))

    op.drop_table('auto_number')
    with op.batch_alter_table('applied_penalty', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_applied_penalty_permit_id'))
        batch_op.drop_index(batch_op.f('ix_applied_penalty_operator_id'))
        batch_op.drop_index(batch_op.f('ix_applied_penalty_municipality_id'))

    op.drop_table('applied_penalty')
    with op.batch_alter_table('field_record', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_field_record_user_id'))
        batch_op.drop_index(batch_op.f('ix_field_record_target_id'))
        batch_op.drop_index(batch_op.f('ix_field_record_received_at'))
        batch_op.drop_index(batch_op.f('ix_field_record_public_token_hash'))
        batch_op.drop_index(batch_op.f('ix_field_record_operator_id'))
        batch_op.drop_index(batch_op.f('ix_field_record_municipality_id'))
        batch_op.drop_index(batch_op.f('ix_field_record_inspection_id'))
        batch_op.drop_index('ix_field_record_device_seq')
        batch_op.drop_index(batch_op.f('ix_field_record_device_id'))
        batch_op.drop_index(batch_op.f('ix_field_record_auto_number'))

    op.drop_table('field_record')
    with op.batch_alter_table('evidence_photo', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_evidence_photo_municipality_id'))
        batch_op.drop_index(batch_op.f('ix_evidence_photo_device_id'))

    op.drop_table('evidence_photo')
    with op.batch_alter_table('auto_number_block', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_auto_number_block_municipality_id'))
        batch_op.drop_index(batch_op.f('ix_auto_number_block_device_id'))

    op.drop_table('auto_number_block')
    op.drop_table('field_data_state')
    with op.batch_alter_table('field_data_entity', schema=None) as batch_op:
        batch_op.drop_index('ix_field_data_entity_delta')

    op.drop_table('field_data_entity')
    op.drop_table('auto_number_series')
