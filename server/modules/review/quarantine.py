"""Back office: the records the sync push refused for their content (fieldsync/quarantine.py),
listed with their reasons, in the staff user's municipality only (another's is 404)."""
from flask import abort, render_template

from ...core.routes import RouteTable
from ...extensions import db
from ..registry.scope import municipality, staff_view
from ..fieldsync.models import RejectedRecord
from . import details

routes = RouteTable()

LIST_LIMIT = 200
# The fields a refusal names, in words (the rest are shown by their name in the record).
FIELD_LABELS = {
    "body": "Corpo do registro", "signature": "Assinatura", "id": "Identificador",
    "body.clock.device_at": "Relógio do aparelho", "body.clock.gps_at": "Hora do GPS",
    "body.inspected_on": "Data da vistoria", "body.return_on": "Data de retorno",
    "body.device_id": "Aparelho", "body.operator_id": "Operador", "body.number": "Número do auto",
    "body.public_token": "Link público do auto", "body.signatures": "Assinaturas",
}


def field_label(name):
    return FIELD_LABELS.get(name, name)


def _rejected_or_404(rid):
    row = db.session.get(RejectedRecord, rid)
    if row is None or row.municipality_id != municipality().id:
        abort(404)
    return row


@routes.get("/recusados")
@staff_view
def rejected_list():
    mid = municipality().id
    rows = (RejectedRecord.query.filter_by(municipality_id=mid)
            .order_by(RejectedRecord.received_at.desc(), RejectedRecord.id.desc()).limit(LIST_LIMIT).all())
    total = RejectedRecord.query.filter_by(municipality_id=mid).count()
    return render_template("review/rejected_list.html", rows=rows, total=total, limit=LIST_LIMIT,
                           field_label=field_label)


@routes.get("/recusados/<int(max=2147483647):rid>")
@staff_view
def rejected_page(rid):
    row = _rejected_or_404(rid)
    return render_template("review/rejected.html", row=row, field_label=field_label,
                           pretty=details.pretty(row.body))
