"""Back office: the evidence photo size the phones use (photo_size.py), with its trade-off."""
from flask import g, redirect, render_template, request, url_for

from ...core.auth import STAFF_ROLES, login_required, require_municipality_id
from ...core.errors import ApiError
from ...core.routes import RouteTable
from ...extensions import db
from ..registry.models import Municipality
from . import photo_size as ps

routes = RouteTable()


@routes.route("/bo/fotos-de-evidencia", methods=["GET", "POST"])
@login_required(*STAFF_ROLES)
def photo_settings():
    municipality = db.session.get(Municipality, require_municipality_id())
    errors, status = {}, 200
    if request.method == "POST":
        try:
            ps.save_photo_size(municipality, request.form, g.user)
            return redirect(url_for("fieldsync.photo_settings", salvo=1), 303)
        except ApiError as exc:
            db.session.rollback()
            if exc.status != 422:
                raise
            errors, status = exc.fields or {}, 422
    current = ps.photo_size(municipality)
    options = [{"long_edge": edge, "quality": quality, "kb": ps.estimate_kb(edge, quality),
                "seconds": ps.seconds_on_3g(ps.estimate_kb(edge, quality))}
               for edge in ps.LONG_EDGES for quality in ps.QUALITIES]
    return render_template("fieldsync/photo_settings.html", current=current, errors=errors, options=options,
                           long_edges=ps.LONG_EDGES, qualities=ps.QUALITIES, default=ps.DEFAULT,
                           measured_kb=ps.MEASURED_KB, uplink=ps.UPLINK_KBIT_S,
                           saved=request.args.get("salvo") == "1"), status
