"""core/sql_lists.in_list: the same rows as an IN list, on SQLite and PostgreSQL, one SQL text per
statement whatever the list, and statements that differ only in column or name never share a
cached compilation."""
from sqlalchemy import bindparam, select
from sqlalchemy.dialects import postgresql, sqlite

from server.core.sql_lists import in_list
from server.extensions import db
from server.modules.registry.models import Operator


def test_selects_the_listed_rows_on_this_database(app, demo):
    with app.app_context():
        _check_rows()


def _check_rows():
    ops = Operator.query.order_by(Operator.id).limit(3).all()
    assert len(ops) == 3
    mid = ops[0].municipality_id
    same = [o for o in ops if o.municipality_id == mid]
    by_id = select(Operator.id).where(Operator.municipality_id == bindparam("mid"), in_list(Operator.id, "ids")) \
        .order_by(Operator.id)
    by_name = select(Operator.id).where(in_list(Operator.name, "names")).order_by(Operator.id)
    conn = db.session.connection()
    assert conn.execute(by_id, {"mid": mid, "ids": [o.id for o in same]}).scalars().all() == [o.id for o in same]
    assert conn.execute(by_id, {"mid": mid, "ids": [same[-1].id, 2**31 - 1]}).scalars().all() == [same[-1].id]
    assert conn.execute(by_id, {"mid": mid, "ids": []}).scalars().all() == []
    assert conn.execute(by_name, {"names": [ops[1].name, ops[2].name]}).scalars().all() == \
        sorted(o.id for o in Operator.query.filter(Operator.name.in_([ops[1].name, ops[2].name])))
    assert conn.execute(by_name, {"names": ["Ninguém com este nome"]}).scalars().all() == []


def test_one_text_on_postgresql_and_distinct_cache_keys():
    statement = select(Operator.id).where(in_list(Operator.id, "ids"))
    pg = str(statement.compile(dialect=postgresql.dialect()))
    assert "= ANY (CAST(%(ids)s AS INTEGER[]))" in pg or "= ANY (%(ids)s::INTEGER[])" in pg, pg
    assert "IN (__[POSTCOMPILE_ids])" in str(statement.compile(dialect=sqlite.dialect()))
    other_column = select(Operator.id).where(in_list(Operator.municipality_id, "ids"))
    other_name = select(Operator.id).where(in_list(Operator.id, "other"))
    keys = {s._generate_cache_key().key for s in (statement, other_column, other_name)}
    assert len(keys) == 3
    twin = lambda: select(Operator.id).where(in_list(Operator.id, "ids"))  # noqa: E731
    assert twin()._generate_cache_key().key == twin()._generate_cache_key().key  # the cache is used
