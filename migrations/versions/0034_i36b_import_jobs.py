"""import_job: the registry import as background jobs behind a balancer (issue 36, item 4). The
upload is kept in the database (every app server reads it: the instance folder of one server
answered 404 on the other), checking and importing run in `flask jobs worker` (or a thread under
`make run`), claimed with SELECT … FOR UPDATE SKIP LOCKED on PostgreSQL, with progress and the
stored report. Row-level security as for every tenant table. No data to move: uploads waiting in
instance/imports/ are abandoned (a clerk uploads again).

Revision ID: 0034_i36b_import_jobs
Revises: 0033_i36b_permit_transitions
"""
from alembic import op
import sqlalchemy as sa

from server.core import rls_sql

revision = '0034_i36b_import_jobs'
down_revision = '0033_i36b_permit_transitions'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'import_job',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('municipality_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=True),
        sa.Column('action', sa.String(length=10), nullable=False),
        sa.Column('state', sa.String(length=10), nullable=False),
        sa.Column('file_name', sa.String(length=200), nullable=False),
        sa.Column('kind', sa.String(length=5), nullable=False),
        sa.Column('sha256', sa.String(length=64), nullable=False),
        sa.Column('body', sa.LargeBinary(), nullable=False),
        sa.Column('options', sa.JSON(), nullable=False),
        sa.Column('rows_done', sa.Integer(), nullable=False),
        sa.Column('result', sa.JSON(), nullable=True),
        sa.Column('message', sa.String(length=500), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('heartbeat_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'],
                                name=op.f('fk_import_job_municipality_id_municipality')),
        sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_import_job_user_id_user')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_import_job')))
    with op.batch_alter_table('import_job', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_import_job_municipality_id'), ['municipality_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_import_job_state'), ['state'], unique=False)
    if op.get_bind().dialect.name == 'postgresql':
        for statement in rls_sql.enable('import_job', rls_sql.tenant_condition()):
            op.execute(statement)


def downgrade():
    if op.get_bind().dialect.name == 'postgresql':
        for statement in rls_sql.disable('import_job'):
            op.execute(statement)
    with op.batch_alter_table('import_job', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_import_job_state'))
        batch_op.drop_index(batch_op.f('ix_import_job_municipality_id'))
    op.drop_table('import_job')
