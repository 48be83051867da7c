"""notices_collection: notices to operators and the collection of fines by PIX (issue 37).

notice_contact (where an operator is told, their adhesion to electronic service, the opt-out of
optional notices), notice (every message, one per event and channel) and notice_attempt (each try
with the provider's answer); pix_charge (a txid per applied fine), statement_import and
statement_line (bank statements, each line once per account and bank id). All tenant tables:
row-level security as 0025.

Revision ID: 0030_i37_notices_collection
Revises: 0029_i37_operator_filings
"""
from alembic import op
import sqlalchemy as sa

from server.core import rls_sql

TENANT_TABLES = ('notice_contact', 'notice', 'notice_attempt', 'pix_charge', 'statement_import', 'statement_line')


# revision identifiers, used by Alembic.
revision = '0030_i37_notices_collection'
down_revision = '0029_i37_operator_filings'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('notice_contact',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('operator_id', sa.Integer(), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=True),
    sa.Column('mobile', sa.String(length=20), nullable=True),
    sa.Column('sms', sa.Boolean(), nullable=False),
    sa.Column('whatsapp', sa.Boolean(), nullable=False),
    sa.Column('adhered_on', sa.Date(), nullable=True),
    sa.Column('adhesion_ref', sa.String(length=200), nullable=True),
    sa.Column('optional_opt_out', sa.Boolean(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_notice_contact_municipality_id_municipality')),
    sa.ForeignKeyConstraint(['operator_id'], ['operator.id'], name=op.f('fk_notice_contact_operator_id_operator')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_notice_contact')),
    sa.UniqueConstraint('operator_id', name=op.f('uq_notice_contact_operator_id'))
    )
    with op.batch_alter_table('notice_contact', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_notice_contact_municipality_id'), ['municipality_id'], unique=False)

    op.create_table('statement_import',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('filename', sa.String(length=200), nullable=False),
    sa.Column('sha256', sa.String(length=64), nullable=False),
    sa.Column('file_format', sa.String(length=8), nullable=False),
    sa.Column('account', sa.String(length=80), nullable=True),
    sa.Column('imported_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('imported_by_id', sa.Integer(), nullable=True),
    sa.Column('lines_total', sa.Integer(), nullable=False),
    sa.Column('lines_new', sa.Integer(), nullable=False),
    sa.Column('lines_matched', sa.Integer(), nullable=False),
    sa.Column('lines_pending', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['imported_by_id'], ['user.id'], name=op.f('fk_statement_import_imported_by_id_user')),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_statement_import_municipality_id_municipality')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_statement_import')),
    sa.UniqueConstraint('municipality_id', 'sha256', name=op.f('uq_statement_import_municipality_id'))
    )
    with op.batch_alter_table('statement_import', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_statement_import_municipality_id'), ['municipality_id'], unique=False)

    op.create_table('notice',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('operator_id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=True),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('nature', sa.String(length=10), nullable=False),
    sa.Column('nature_basis', sa.String(length=300), nullable=True),
    sa.Column('optional', sa.Boolean(), nullable=False),
    sa.Column('dedupe_key', sa.String(length=120), nullable=False),
    sa.Column('channel', sa.String(length=10), nullable=False),
    sa.Column('address', sa.String(length=254), nullable=True),
    sa.Column('subject', sa.String(length=200), nullable=False),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('link', sa.String(length=500), nullable=True),
    sa.Column('attachment', sa.String(length=60), nullable=True),
    sa.Column('state', sa.String(length=10), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('provider', sa.String(length=60), nullable=True),
    sa.Column('provider_answer', sa.String(length=500), nullable=True),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('read_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['case_id'], ['auto_case.id'], name=op.f('fk_notice_case_id_auto_case')),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_notice_municipality_id_municipality')),
    sa.ForeignKeyConstraint(['operator_id'], ['operator.id'], name=op.f('fk_notice_operator_id_operator')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_notice')),
    sa.UniqueConstraint('municipality_id', 'dedupe_key', 'channel', name=op.f('uq_notice_municipality_id'))
    )
    with op.batch_alter_table('notice', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_notice_case_id'), ['case_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_notice_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_notice_municipality_id'), ['municipality_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_notice_operator_id'), ['operator_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_notice_state'), ['state'], unique=False)

    op.create_table('notice_attempt',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('notice_id', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ok', sa.Boolean(), nullable=False),
    sa.Column('provider', sa.String(length=60), nullable=False),
    sa.Column('answer', sa.String(length=500), nullable=False),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_notice_attempt_municipality_id_municipality')),
    sa.ForeignKeyConstraint(['notice_id'], ['notice.id'], name=op.f('fk_notice_attempt_notice_id_notice')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_notice_attempt'))
    )
    with op.batch_alter_table('notice_attempt', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_notice_attempt_municipality_id'), ['municipality_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_notice_attempt_notice_id'), ['notice_id'], unique=False)

    op.create_table('pix_charge',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('penalty_id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('txid', sa.String(length=25), nullable=False),
    sa.Column('amount_cents', sa.BigInteger(), nullable=False),
    sa.Column('applied_on', sa.Date(), nullable=False),
    sa.Column('dam_number', sa.String(length=40), nullable=True),
    sa.Column('state', sa.String(length=12), nullable=False),
    sa.Column('paid_on', sa.Date(), nullable=True),
    sa.Column('payment_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['case_id'], ['auto_case.id'], name=op.f('fk_pix_charge_case_id_auto_case')),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_pix_charge_municipality_id_municipality')),
    sa.ForeignKeyConstraint(['payment_id'], ['auto_payment.id'], name=op.f('fk_pix_charge_payment_id_auto_payment')),
    sa.ForeignKeyConstraint(['penalty_id'], ['auto_penalty.id'], name=op.f('fk_pix_charge_penalty_id_auto_penalty')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_pix_charge')),
    sa.UniqueConstraint('penalty_id', name=op.f('uq_pix_charge_penalty_id')),
    sa.UniqueConstraint('txid', name=op.f('uq_pix_charge_txid'))
    )
    with op.batch_alter_table('pix_charge', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_pix_charge_case_id'), ['case_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_pix_charge_municipality_id'), ['municipality_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_pix_charge_state'), ['state'], unique=False)

    op.create_table('statement_line',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('municipality_id', sa.Integer(), nullable=False),
    sa.Column('import_id', sa.Integer(), nullable=False),
    sa.Column('account', sa.String(length=80), nullable=False),
    sa.Column('bank_id', sa.String(length=120), nullable=False),
    sa.Column('posted_on', sa.Date(), nullable=False),
    sa.Column('amount_cents', sa.BigInteger(), nullable=False),
    sa.Column('description', sa.String(length=500), nullable=False),
    sa.Column('txid', sa.String(length=25), nullable=True),
    sa.Column('state', sa.String(length=12), nullable=False),
    sa.Column('reason', sa.String(length=300), nullable=True),
    sa.Column('charge_id', sa.Integer(), nullable=True),
    sa.Column('payment_id', sa.Integer(), nullable=True),
    sa.Column('resolved_by_id', sa.Integer(), nullable=True),
    sa.Column('resolved_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['charge_id'], ['pix_charge.id'], name=op.f('fk_statement_line_charge_id_pix_charge')),
    sa.ForeignKeyConstraint(['import_id'], ['statement_import.id'], name=op.f('fk_statement_line_import_id_statement_import')),
    sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'], name=op.f('fk_statement_line_municipality_id_municipality')),
    sa.ForeignKeyConstraint(['payment_id'], ['auto_payment.id'], name=op.f('fk_statement_line_payment_id_auto_payment')),
    sa.ForeignKeyConstraint(['resolved_by_id'], ['user.id'], name=op.f('fk_statement_line_resolved_by_id_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_statement_line')),
    sa.UniqueConstraint('municipality_id', 'account', 'bank_id', name=op.f('uq_statement_line_municipality_id'))
    )
    with op.batch_alter_table('statement_line', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_statement_line_import_id'), ['import_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_statement_line_municipality_id'), ['municipality_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_statement_line_state'), ['state'], unique=False)
    if op.get_bind().dialect.name == 'postgresql':
        for table in TENANT_TABLES:
            for statement in rls_sql.enable(table, rls_sql.tenant_condition()):
                op.execute(statement)


def downgrade():
    with op.batch_alter_table('statement_line', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_statement_line_state'))
        batch_op.drop_index(batch_op.f('ix_statement_line_municipality_id'))
        batch_op.drop_index(batch_op.f('ix_statement_line_import_id'))

    op.drop_table('statement_line')
    with op.batch_alter_table('pix_charge', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_pix_charge_state'))
        batch_op.drop_index(batch_op.f('ix_pix_charge_municipality_id'))
        batch_op.drop_index(batch_op.f('ix_pix_charge_case_id'))

    op.drop_table('pix_charge')
    with op.batch_alter_table('notice_attempt', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_notice_attempt_notice_id'))
        batch_op.drop_index(batch_op.f('ix_notice_attempt_municipality_id'))

    op.drop_table('notice_attempt')
    with op.batch_alter_table('notice', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_notice_state'))
        batch_op.drop_index(batch_op.f('ix_notice_operator_id'))
        batch_op.drop_index(batch_op.f('ix_notice_municipality_id'))
        batch_op.drop_index(batch_op.f('ix_notice_created_at'))
        batch_op.drop_index(batch_op.f('ix_notice_case_id'))

    op.drop_table('notice')
    with op.batch_alter_table('statement_import', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_statement_import_municipality_id'))

    op.drop_table('statement_import')
    with op.batch_alter_table('notice_contact', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_notice_contact_municipality_id'))

    op.drop_table('notice_contact')
