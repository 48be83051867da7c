"""What every back-office template sees: the municipality, its vocabulary, the audit labels and
the pt-BR filters. Recorded here (core/routes.py) and registered by blueprint.py; the hooks are
app-wide, so the pages of other features' blueprints see them too."""
from flask import current_app, g

from ...core import ptbr
from ...core.audit_labels import action_label, entity_label, field_label
from ...core.auth import STAFF_ROLES, current_municipality_id, is_global_admin
from ...core.clock import to_local
from ...core.routes import RouteTable
from ...extensions import db
from ..registry.models import Municipality
from ..registry.vocabulary import vocabulary
from .exports import export_args

routes = RouteTable()


@routes.app_context_processor
def _inject():
    mid = current_municipality_id() if g.get("user") else None
    muni = db.session.get(Municipality, mid) if mid else None
    return {
        "current_municipality": muni,
        # The municipality's own words for its permit and holder (registry.vocabulary).
        "vocab": vocabulary(muni),
        "action_label": action_label,
        "entity_label": entity_label,
        "field_label": field_label,
        "is_global_admin": is_global_admin() if g.get("user") else False,
        "is_staff": g.get("user") is not None and g.user.role in STAFF_ROLES,
        # Screens of other features appear in the nav only when their blueprint is registered.
        "has_endpoint": lambda endpoint: endpoint in current_app.view_functions,
    }


@routes.app_template_filter("localtime")
def _localtime(value, fmt="%d/%m/%Y %H:%M"):
    """A stored UTC timestamp in the municipality's time zone (config TIMEZONE)."""
    if value is None:
        return "—"
    return to_local(value).strftime(fmt)


routes.add_app_template_global(export_args, "export_args")  # "Exportar CSV" (exports.py, _export.html)
routes.add_app_template_filter(ptbr.brl, "brl")
routes.add_app_template_filter(ptbr.brl_cents, "brl_cents")
routes.add_app_template_filter(ptbr.date_br, "date_br")
routes.add_app_template_filter(ptbr.plate, "plate")
routes.add_app_template_filter(ptbr.plural, "plural")  # {{ n }} {{ n|plural("item", "itens") }}
