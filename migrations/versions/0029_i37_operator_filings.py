"""operator_filings: defence and appeal filed from the operator's app (issue 37).

auto_appeal gains its protocol (number per municipality, receipt time), where it came from
(counter or app), the phone's id and content hash (a resend is the same filing; other content is a
conflict), its attachments and the phone's clock when drafted; filing_attachment holds the
attachments by hash (tenant table: row-level security as 0025). auto_penalty gains the payment that
settled the fine. Existing filings keep no protocol (they were typed at the counter before).

Revision ID: 0029_i37_operator_filings
Revises: 0028_i40_dashboard_months
"""
from alembic import op
import sqlalchemy as sa

from server.core import rls_sql

revision = '0029_i37_operator_filings'
down_revision = '0028_i40_dashboard_months'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'filing_attachment',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('municipality_id', sa.Integer(), nullable=False),
        sa.Column('sha256', sa.String(length=64), nullable=False),
        sa.Column('content_type', sa.String(length=40), nullable=False),
        sa.Column('size', sa.Integer(), nullable=False),
        sa.Column('uploaded_by_id', sa.Integer(), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'],
                                name=op.f('fk_filing_attachment_municipality_id_municipality')),
        sa.ForeignKeyConstraint(['uploaded_by_id'], ['user.id'], name=op.f('fk_filing_attachment_uploaded_by_id_user')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_filing_attachment')),
        sa.UniqueConstraint('municipality_id', 'sha256', name=op.f('uq_filing_attachment_municipality_id')),
    )
    with op.batch_alter_table('filing_attachment', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_filing_attachment_municipality_id'), ['municipality_id'], unique=False)
    with op.batch_alter_table('auto_appeal', schema=None) as batch_op:
        batch_op.add_column(sa.Column('protocol_seq', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('protocol', sa.String(length=20), nullable=True))
        batch_op.add_column(sa.Column('received_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('source', sa.String(length=10), nullable=False, server_default='balcao'))
        batch_op.add_column(sa.Column('client_id', sa.String(length=36), nullable=True))
        batch_op.add_column(sa.Column('content_hash', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('attachments', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('drafted_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('filed_by_id', sa.Integer(), nullable=True))
        batch_op.create_unique_constraint(batch_op.f('uq_auto_appeal_client_id'), ['client_id'])
        batch_op.create_unique_constraint(batch_op.f('uq_auto_appeal_municipality_id'), ['municipality_id', 'protocol_seq'])
        batch_op.create_foreign_key(batch_op.f('fk_auto_appeal_filed_by_id_user'), 'user', ['filed_by_id'], ['id'])
    with op.batch_alter_table('auto_appeal', schema=None) as batch_op:
        batch_op.alter_column('source', server_default=None)
    with op.batch_alter_table('auto_penalty', schema=None) as batch_op:
        batch_op.add_column(sa.Column('paid_payment_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_auto_penalty_paid_payment_id_auto_payment'), 'auto_payment',
                                    ['paid_payment_id'], ['id'])
    if op.get_bind().dialect.name == 'postgresql':
        for statement in rls_sql.enable('filing_attachment', rls_sql.tenant_condition()):
            op.execute(statement)


def downgrade():
    with op.batch_alter_table('auto_penalty', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_auto_penalty_paid_payment_id_auto_payment'), type_='foreignkey')
        batch_op.drop_column('paid_payment_id')
    with op.batch_alter_table('auto_appeal', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_auto_appeal_filed_by_id_user'), type_='foreignkey')
        batch_op.drop_constraint(batch_op.f('uq_auto_appeal_municipality_id'), type_='unique')
        batch_op.drop_constraint(batch_op.f('uq_auto_appeal_client_id'), type_='unique')
        for column in ('filed_by_id', 'drafted_at', 'attachments', 'content_hash', 'client_id', 'source',
                       'received_at', 'protocol', 'protocol_seq'):
            batch_op.drop_column(column)
    op.drop_table('filing_attachment')
