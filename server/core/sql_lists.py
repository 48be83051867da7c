"""`in_list(column, "name")`: "column is one of the list passed as parameter `name`", built once.

SQLAlchemy's expanding IN (`column.in_(bindparam(name, expanding=True))`) renders a new SQL text
for every list length on every execution: the statement is re-rendered in Python, psycopg
converts the new text again, and PostgreSQL parses and plans it again (it can never become a
prepared statement). On PostgreSQL this renders `column = ANY(CAST(:name AS type[]))` instead:
one text for every list, so the hot statements of the sync push are compiled once, converted
once and, after a few runs, prepared by psycopg. Elsewhere (SQLite) it is the expanding IN.
"""
from sqlalchemy import any_, bindparam
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.expression import ColumnElement
from sqlalchemy.sql.visitors import InternalTraversal
from sqlalchemy.types import Boolean


class InList(ColumnElement):
    """A boolean: `column` equals one of the values of the list parameter `name`."""
    inherit_cache = True
    type = Boolean()
    # Part of the statement's cache key: two InLists differing in column or name compile apart.
    _traverse_internals = [("column", InternalTraversal.dp_clauseelement),
                           ("name", InternalTraversal.dp_string)]

    def __init__(self, column, name):
        self.column = column
        self.name = name


def in_list(column, name):
    return InList(column, name)


@compiles(InList)
def _expanding_in(element, compiler, **kw):
    return compiler.process(element.column.in_(bindparam(element.name, expanding=True)), **kw)


@compiles(InList, "postgresql")
def _any_array(element, compiler, **kw):
    # The element type is the column's: an empty list or a list of ints then has a type too.
    array = bindparam(element.name, type_=ARRAY(element.column.type))
    return compiler.process(element.column == any_(array), **kw)
