"""CalendarClosure: one day the municipality's office is closed, with the act that closed it."""
from ...extensions import db
from ..registry.models import utcnow

# Kinds of closure (labels in CLOSURE_KINDS_PT). All of them stop a deadline from ending on that
# day (CC art. 132 § 1º; Lei 9.784/1999 art. 66 § 1º: "dia em que não houver expediente").
CLOSURE_KINDS_PT = {
    "feriado_religioso": "Feriado religioso municipal (Lei 9.093/1995, art. 2º)",
    "feriado_municipal": "Feriado civil municipal (Lei 9.093/1995, art. 1º, III)",
    "ponto_facultativo": "Ponto facultativo decretado (ex.: Carnaval)",
    "fechamento": "Repartição fechada (sem expediente)",
}


class CalendarClosure(db.Model):
    __table_args__ = (db.UniqueConstraint("municipality_id", "day"),)
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    day = db.Column(db.Date, nullable=False)
    kind = db.Column(db.String(20), nullable=False)
    name_pt = db.Column(db.String(120), nullable=False)
    act = db.Column(db.String(200), nullable=False)  # the law, decree or portaria that closed the day
    created_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    def as_dict(self):
        """The shape the legal calendar (both engines) reads."""
        return {"date": self.day.isoformat(), "kind": self.kind, "name_pt": self.name_pt, "act": self.act}
