"""An existing permit recorded as it is (issue 36): the registry import never refuses a permit the
municipality already gave because it misses a requirement the law sets for issuing one (Sapezal
Lei 125/1999, art. 5º: "no máximo 3 anos de uso"). It records the permit with each requirement it
misses and the transition that applies:
- "lei": the law's own adaptation period, running on the import day (SPEC §5 "Adaptation periods");
- "ato": a prazo de adequação the municipality recorded by an act (number and last day);
- "sem_prazo": no period defined — the roadside verdict says so instead of proposing an infraction.
Issuing a new permit still applies the law in full (permits.rule_checks)."""
from ...extensions import db
from .models import utcnow

KINDS = ("lei", "ato", "sem_prazo")


class PermitTransition(db.Model):
    id = db.Column(db.Integer, primary_key=True)
    municipality_id = db.Column(db.Integer, db.ForeignKey("municipality.id"), nullable=False, index=True)
    permit_id = db.Column(db.Integer, db.ForeignKey("permit.id"), nullable=False, index=True)
    requirement_id = db.Column(db.String(120), nullable=False)
    label = db.Column(db.String(300), nullable=False)      # the requirement, pt-BR
    citation = db.Column(db.String(200), nullable=False)   # "Lei 125/1999, art. 5º"
    kind = db.Column(db.String(10), nullable=False)        # KINDS
    act = db.Column(db.String(200))                        # "lei": the period's label; "ato": the act
    until = db.Column(db.Date)                             # last day of the period (None: sem prazo)
    source = db.Column(db.String(200), nullable=False)     # "Importação do cadastro existente (arquivo.xlsx)"
    recorded_at = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)

    permit = db.relationship("Permit", backref=db.backref("transitions", lazy="select",
                                                          order_by="PermitTransition.id"))

    __table_args__ = (db.UniqueConstraint("permit_id", "requirement_id", name="uq_permit_transition_requirement"),)

    @property
    def text(self):
        return transition_text(self.kind, self.act, self.until)


def _br(day):
    return day.strftime("%d/%m/%Y")


def transition_text(kind, act, until):
    """How the permit page, the import report and the phone word a transition."""
    if kind == "ato":
        return f"prazo de adequação até {_br(until)} ({act})" if until else f"prazo de adequação ({act})"
    if kind == "lei":
        return f"prazo de adequação da lei{f' até {_br(until)}' if until else ''} ({act})"
    return "sem prazo definido"


def in_force(transition, today):
    return transition.until is None or today <= transition.until


def with_transitions(result, transitions, day):
    """The engine's evaluation following a permit's transitions in force on `day` (the twin of
    pwa/js/fiscal/transitions.js withTransitions): each covered failed requirement gets
    `transition` (the sentence) and no infractions; an infraction only covered ones triggered is
    dropped. `transitions`: [PermitTransition]."""
    active = {t.requirement_id: t for t in transitions if in_force(t, day)}
    if not active or not result:
        return result
    covered, failed = set(), []
    for entry in result.get("failed") or []:
        t = active.get(entry.get("requirement"))
        if t is None:
            failed.append(entry)
            continue
        covered.add(entry["requirement"])
        failed.append({**entry, "infractions": [], "transition": t.text})
    infractions = []
    for inf in result.get("infractions") or []:
        triggered = inf.get("triggered_by") or []
        left = [r for r in triggered if r not in covered]
        if triggered and not left:
            continue
        infractions.append(inf if len(left) == len(triggered) else {**inf, "triggered_by": left})
    return {**result, "failed": failed, "infractions": infractions}
