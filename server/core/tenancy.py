"""Tenancy as a property of the data: every row that carries a `municipality_id` belongs to that
municipality, and every read that follows an id — from a URL, a form, or a foreign key of a row
already in scope — stays in the scope of the row it came from (docs/ARCHITECTURE.md, "Tenancy").

`owned(model, ident, mid)` is the one way to follow such an id: the row, or None when it is
missing or another municipality's (so callers answer 404 or "not found in this municipality",
never the neighbour's data). Rows without a municipality of their own (a record's photos, a
case's versions, a permit's drivers) are reached through the scoped parent only.
"""
from .. import extensions

MAX_ID = 2**31 - 1  # integer ids are 32-bit on every database we run on


def _valid_ident(ident):
    if isinstance(ident, bool) or ident is None:
        return False
    if isinstance(ident, int):
        return 0 < ident <= MAX_ID
    return isinstance(ident, str) and 0 < len(ident) <= 64


def owned(model, ident, municipality_id):
    """The `model` row `ident` when it belongs to `municipality_id`; else None (missing, out of
    range, or another municipality's)."""
    if municipality_id is None or not _valid_ident(ident):
        return None
    obj = extensions.db.session.get(model, ident)
    if obj is None or obj.municipality_id != municipality_id:
        return None
    return obj


def owned_or_404(model, ident, municipality_id):
    from .errors import ApiError
    obj = owned(model, ident, municipality_id)
    if obj is None:
        raise ApiError(404, "not_found")
    return obj


def in_scope(model, municipality_id):
    """A query of `model` limited to one municipality."""
    return model.query.filter(model.municipality_id == municipality_id)


def tenant_tables(metadata=None):
    """Every table that carries a municipality (what row-level security and the cross-tenant
    test cover), in dependency order."""
    metadata = metadata or extensions.db.metadata
    return [t for t in metadata.sorted_tables if "municipality_id" in t.c]
