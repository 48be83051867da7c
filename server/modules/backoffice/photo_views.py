"""Operator photo: upload (multipart + CSRF) and display, scoped to the municipality; the curso de
reabilitação that ends an inabilitação."""
from flask import abort, flash, redirect, request, url_for

from ...core.auth import STAFF_ROLES, get_scoped_or_404, login_required
from ...core.errors import ApiError
from ...core.routes import RouteTable
from ...extensions import db
from ..autos.disqualification import record_rehabilitation
from ..registry.models import Operator
from ..registry.photos import operator_photo_response, store_operator_photo

routes = RouteTable()


@routes.post("/bo/operadores/<int(max=2147483647):ident>/foto")
@login_required(*STAFF_ROLES)
def operator_photo_upload(ident):
    operator = get_scoped_or_404(Operator, ident)
    upload = request.files.get("photo")
    try:
        store_operator_photo(operator, upload.read() if upload else b"")
    except ApiError as err:
        flash(" ".join(err.fields.get("photo", [err.message])))
    else:
        flash("Foto atualizada. Reemita o crachá para imprimir a nova foto.")
    return redirect(url_for("backoffice.operator_detail", ident=operator.id))


@routes.get("/bo/operadores/<int(max=2147483647):ident>/foto")
@login_required(*STAFF_ROLES)
def operator_photo(ident):
    operator = get_scoped_or_404(Operator, ident)
    response = operator_photo_response(operator, "private, max-age=3600")
    if response is None:
        abort(404)
    return response


@routes.post("/bo/operadores/<int(max=2147483647):ident>/reabilitacao")
@login_required(*STAFF_ROLES)
def operator_rehabilitation(ident):
    """Record the curso de reabilitação that ends an inabilitação (issue 19, point 7)."""
    operator = get_scoped_or_404(Operator, ident)
    try:
        record_rehabilitation(operator, request.form.get("course_on"), request.form.get("reference"))
    except ApiError as err:
        db.session.rollback()  # the redirect below commits: drop what the refused course staged
        flash(" ".join(msg for msgs in err.fields.values() for msg in msgs) or err.message)
    else:
        flash("Curso de reabilitação registrado. O condutor deixa de constar como inabilitado.")
    return redirect(url_for("backoffice.operator_detail", ident=operator.id))
