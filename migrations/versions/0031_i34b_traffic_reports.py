"""traffic_reports: one authority per document (issue 34, item 2). A CTB/SNT infraction (pack
`jurisdiction: "snt"`, CTB art. 244) is no municipal auto's unless the municipality recorded the
act that integrates it into the SNT: it goes to a communication to the traffic authority, with its
own number per municipality and year (traffic_report, traffic_report_series), whose sending and
acknowledgement the back office records.

Data: the communications of the records already held are opened as the push opens new ones
(server/modules/traffic/derive.py: an inspection's CTB decisions, or an older phone's auto that
confirmed one), numbered in the order the records were received, each "a comunicar"; and the
dashboard's counts forget the CTB infractions of the municipalities not integrated into the SNT
(field_stat_item and its daily and monthly rollups: they never carried an amount, so no sum
changes).
Row-level security on both new tables (PostgreSQL), as 0025_tenancy_rls put it on the others.

Revision ID: 0031_i34b_traffic_reports
Revises: 0030_i37_notices_collection
"""
import json
from datetime import datetime, timezone

from alembic import op
import sqlalchemy as sa

from server.core import rls_sql

revision = '0031_i34b_traffic_reports'
down_revision = '0030_i37_notices_collection'
branch_labels = None
depends_on = None

TABLES = ('traffic_report_series', 'traffic_report')


def upgrade():
    op.create_table(
        'traffic_report_series',
        sa.Column('municipality_id', sa.Integer(), nullable=False),
        sa.Column('year', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('last_seq', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'],
                                name=op.f('fk_traffic_report_series_municipality_id_municipality')),
        sa.PrimaryKeyConstraint('municipality_id', 'year', name=op.f('pk_traffic_report_series')))
    op.create_table(
        'traffic_report',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('municipality_id', sa.Integer(), nullable=False),
        sa.Column('year', sa.Integer(), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('stop_id', sa.String(length=36), nullable=False),
        sa.Column('record_id', sa.String(length=36), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=True),
        sa.Column('operator_id', sa.Integer(), nullable=True),
        sa.Column('observed_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('plate', sa.String(length=10), nullable=True),
        sa.Column('permit_number', sa.String(length=40), nullable=True),
        sa.Column('gps_lat', sa.Float(), nullable=True),
        sa.Column('gps_lon', sa.Float(), nullable=True),
        sa.Column('items', sa.JSON(), nullable=False),
        sa.Column('state', sa.String(length=12), nullable=False),
        sa.Column('sent_on', sa.Date(), nullable=True),
        sa.Column('sent_reference', sa.String(length=200), nullable=True),
        sa.Column('sent_by_id', sa.Integer(), nullable=True),
        sa.Column('acknowledged_on', sa.Date(), nullable=True),
        sa.Column('acknowledged_reference', sa.String(length=200), nullable=True),
        sa.Column('acknowledged_by_id', sa.Integer(), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['municipality_id'], ['municipality.id'],
                                name=op.f('fk_traffic_report_municipality_id_municipality')),
        sa.ForeignKeyConstraint(['record_id'], ['field_record.id'], name=op.f('fk_traffic_report_record_id_field_record')),
        sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_traffic_report_user_id_user')),
        sa.ForeignKeyConstraint(['operator_id'], ['operator.id'], name=op.f('fk_traffic_report_operator_id_operator')),
        sa.ForeignKeyConstraint(['sent_by_id'], ['user.id'], name=op.f('fk_traffic_report_sent_by_id_user')),
        sa.ForeignKeyConstraint(['acknowledged_by_id'], ['user.id'],
                                name=op.f('fk_traffic_report_acknowledged_by_id_user')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_traffic_report')),
        sa.UniqueConstraint('municipality_id', 'stop_id', name='uq_traffic_report_stop'),
        sa.UniqueConstraint('municipality_id', 'year', 'seq', name='uq_traffic_report_number'))
    with op.batch_alter_table('traffic_report', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_traffic_report_municipality_id'), ['municipality_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_traffic_report_record_id'), ['record_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_traffic_report_operator_id'), ['operator_id'], unique=False)
        batch_op.create_index('ix_traffic_report_period', ['municipality_id', 'observed_at'], unique=False)
    bind = op.get_bind()
    if bind.dialect.name == 'postgresql':
        for table in TABLES:
            for statement in rls_sql.enable(table, rls_sql.tenant_condition()):
                op.execute(statement)
        # Row-level security binds the owner too: the data below crosses municipalities on purpose.
        op.execute(f"SELECT set_config('{rls_sql.SETTING_CROSSING}', 'on', true)")
    integrated = _integrated(bind)
    _open_reports(bind, integrated)
    _forget_dashboard_counts(bind, integrated)


def _integrated(bind):
    """Municipality ids that recorded the act integrating them into the SNT."""
    out = set()
    for mid, settings in bind.execute(sa.text("SELECT id, settings FROM municipality")).fetchall():
        if isinstance(settings, str):
            try:
                settings = json.loads(settings)
            except ValueError:
                settings = {}
        act = ((settings or {}).get("autos") or {}).get("traffic_authority_act")
        if isinstance(act, str) and act.strip():
            out.add(mid)
    return out


def _aware(value):
    if isinstance(value, str):
        value = datetime.fromisoformat(value.replace("Z", "+00:00").replace(" ", "T"))
    return value if value is None or value.tzinfo else value.replace(tzinfo=timezone.utc)


def _open_reports(bind, integrated):
    from server.core.clock import to_local
    from server.modules.traffic.derive import gps_of, observed_items, stop_id, text
    from server.rules.jurisdiction import traffic_infraction_ids

    ids = traffic_infraction_ids()
    if not ids:
        return
    like = " OR ".join(f"body LIKE :p{n}" for n in range(len(ids)))
    rows = bind.execute(sa.text(
        "SELECT id, municipality_id, kind, user_id, operator_id, device_at, received_at, body FROM field_record "
        f"WHERE kind IN ('inspection', 'auto') AND ({like}) ORDER BY received_at, id"),
        {f"p{n}": f"%{code}%" for n, code in enumerate(sorted(ids))}).fetchall()
    stops, order = {}, []
    for rid, mid, kind, user_id, operator_id, device_at, received_at, body_text in rows:
        try:
            body = json.loads(body_text)
        except ValueError:
            continue
        if not isinstance(body, dict):
            continue
        items = observed_items(body, kind, ids, mid in integrated)
        key = (mid, stop_id(body, kind, rid))
        if not items or (key in stops and kind != "inspection"):
            continue
        if key not in stops:
            order.append(key)
        stops[key] = (rid, mid, kind, user_id, operator_id, _aware(device_at), _aware(received_at), body, items)
    series = {}
    reports = []
    for key in order:
        rid, mid, kind, user_id, operator_id, device_at, received_at, body, items = stops[key]
        year = to_local(received_at).year
        seq = series[(mid, year)] = series.get((mid, year), 0) + 1
        lat, lon = gps_of(body)
        reports.append({"municipality_id": mid, "year": year, "seq": seq, "stop_id": key[1], "record_id": rid,
                        "user_id": user_id, "operator_id": operator_id, "observed_at": device_at or received_at,
                        "plate": text(body.get("plate"), 10), "permit_number": text(body.get("permit_number"), 40),
                        "gps_lat": lat, "gps_lon": lon, "items": json.dumps(items, ensure_ascii=False),
                        "state": "a_comunicar", "created_at": received_at})
    if reports:
        bind.execute(sa.text(
            "INSERT INTO traffic_report (municipality_id, year, seq, stop_id, record_id, user_id, operator_id, "
            "observed_at, plate, permit_number, gps_lat, gps_lon, items, state, created_at) VALUES (:municipality_id, "
            ":year, :seq, :stop_id, :record_id, :user_id, :operator_id, :observed_at, :plate, :permit_number, "
            ":gps_lat, :gps_lon, :items, :state, :created_at)"), reports)
        bind.execute(sa.text("INSERT INTO traffic_report_series (municipality_id, year, last_seq) "
                             "VALUES (:mid, :year, :last)"),
                     [{"mid": mid, "year": year, "last": last} for (mid, year), last in series.items()])


def _forget_dashboard_counts(bind, integrated):
    from server.rules.jurisdiction import traffic_infraction_ids

    codes = sorted(traffic_infraction_ids())
    if not codes:
        return
    keep = sorted(integrated) or [-1]
    # and the monthly rollup of 0028_i40_dashboard_months, kept like the daily one
    for table in ('field_stat_item', 'field_stat_item_day', 'field_stat_item_month'):
        bind.execute(sa.text(f"DELETE FROM {table} WHERE kind = 'infraction' AND code IN :codes "
                             "AND municipality_id NOT IN :keep")
                     .bindparams(sa.bindparam("codes", expanding=True), sa.bindparam("keep", expanding=True)),
                     {"codes": codes, "keep": keep})


def downgrade():
    # The dashboard's CTB counts are not put back: nothing reads them as municipal figures.
    if op.get_bind().dialect.name == 'postgresql':
        for table in TABLES:
            for statement in rls_sql.disable(table):
                op.execute(statement)
    with op.batch_alter_table('traffic_report', schema=None) as batch_op:
        batch_op.drop_index('ix_traffic_report_period')
        batch_op.drop_index(batch_op.f('ix_traffic_report_operator_id'))
        batch_op.drop_index(batch_op.f('ix_traffic_report_record_id'))
        batch_op.drop_index(batch_op.f('ix_traffic_report_municipality_id'))
    op.drop_table('traffic_report')
    op.drop_table('traffic_report_series')
