"""tenancy_rls: PostgreSQL row-level security on every table that carries a municipality, and on
the child tables that reach one only through a parent (issue 20, "a second wall";
server/core/rls_sql.py, docs/operations.md "Row-level security"). SQLite: nothing.

The lists are this revision's tables, frozen here; a later migration adding a tenant table adds
its policy the same way (tests/test_rls.py fails for a tenant table without one).

Revision ID: 0025_tenancy_rls
Revises: 0024_issuer_keys_shared
"""
from alembic import op

from server.core import rls_sql

revision = '0025_tenancy_rls'
down_revision = '0024_issuer_keys_shared'
branch_labels = None
depends_on = None

TENANT_TABLES = (
    'auto_number_series', 'calendar_closure', 'company', 'edital', 'field_data_entity', 'field_data_state',
    'field_stat_item_day', 'issuer_key', 'ponto', 'population_figure', 'status_list_entry', 'tariff_table',
    'unit_value', 'vehicle', 'issqn_charge', 'operator', 'permit', 'candidate', 'credential', 'device',
    'document_check', 'field_stat_day', 'insurance_policy', 'vistoria', 'auto_number_block', 'evidence_photo',
    'field_record', 'field_record_rejected', 'vehicle_substitution', 'applied_penalty', 'auto_case',
    'auto_number', 'cancel_request_decision', 'field_record_conflict', 'field_stat', 'field_stat_item',
    'auto_appeal', 'auto_notification', 'auto_payment', 'auto_penalty', 'seizure', 'seizure_charge',
    'seizure_fee_payment')
NULLABLE_TENANT_TABLES = ('user', 'audit_log')  # NULL = the platform's own rows
# table → (foreign key column, parent table)
CHILD_TABLES = {
    'permit_driver': ('permit_id', 'permit'),
    'permit_status_change': ('permit_id', 'permit'),
    'record_photo': ('record_id', 'field_record'),
    'auto_case_version': ('case_id', 'auto_case'),
    'first_access_code': ('user_id', 'user'),
    'user_session': ('user_id', 'user'),
    'api_token': ('user_id', 'user'),
}


def _statements():
    for table in TENANT_TABLES:
        yield from rls_sql.enable(table, rls_sql.tenant_condition())
    for table in NULLABLE_TENANT_TABLES:
        yield from rls_sql.enable(table, rls_sql.tenant_condition(nullable=True))
    for table, (column, parent) in CHILD_TABLES.items():
        yield from rls_sql.enable(table, rls_sql.child_condition(table, column, parent))


def upgrade():
    if op.get_bind().dialect.name != 'postgresql':
        return
    for statement in _statements():
        op.execute(statement)


def downgrade():
    if op.get_bind().dialect.name != 'postgresql':
        return
    for table in (*TENANT_TABLES, *NULLABLE_TENANT_TABLES, *CHILD_TABLES):
        for statement in rls_sql.disable(table):
            op.execute(statement)
