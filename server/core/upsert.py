"""`dialect_insert(connection, table)`: an INSERT that can say ON CONFLICT on both databases we run
on (PostgreSQL in production, SQLite in tests and demos). SQLAlchemy's generic insert has no
`on_conflict_do_nothing`/`on_conflict_do_update`; each dialect's own insert has them."""
from sqlalchemy.dialects import postgresql, sqlite


def dialect_insert(connection, table):
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    return dialect.insert(table)
