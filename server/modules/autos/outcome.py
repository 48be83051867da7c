"""Where the penalty of one infraction of an auto stands on a given day — a pure function of the
law's instances (instances.py), the service date, the appeals and their decisions.

- Nothing runs before the operator is notified (deadlines start at the service date).
- A deadline (instances.due: the legal calendar, so never ending on a day without office hours)
  that passes with no timely filing makes the penalty applied the next day.
- A timely filing awaiting decision keeps it pending; `suspensa` when the law gives the appeal
  suspensive effect (Nortelândia art. 16 § 2º).
- Indeferido at the last instance applies it on the decision date. Indeferido with a further
  instance: if that next appeal has no suspensive effect (Paranatinga art. 48, the law is
  silent), the penalty is applied at once and a later deferido annuls it; if it has, the
  penalty waits for that deadline or decision.
- The next instance's period runs from the ciência of the decision (`decision_known_on`: its
  notificação, AR or publication, recorded by the clerk; Paranatinga art. 48 "a contar do
  recebimento da notificação … observando o mesmo prazo"), never from the decision's own date.
  While the ciência is unknown that period has not started: no due date, a filing is timely,
  and a penalty that waits for it stays pending — as the first instance waits for `served_on`.
- Deferido (for the whole auto, or for this infraction) annuls it. A late filing (intempestiva)
  is recorded and shown, never stops a deadline; a deferido on it is still honoured (the
  administration may review its own act).
"""
from dataclasses import dataclass
from datetime import date, timedelta

from .instances import due


@dataclass
class Outcome:
    state: str  # pendente | suspensa | aplicada | anulada
    reason: str
    applied_on: date | None = None
    level: int | None = None  # the instance whose deadline or decision is current
    due_on: date | None = None


def _br(d):
    return d.strftime("%d/%m/%Y")


def _wins(appeal, infraction_id):
    return appeal.decision == "deferido" and appeal.decision_infraction_id in (None, "", infraction_id)


def outcome(steps, served_on, appeals, today, infraction_id, cal) -> Outcome:
    for a in appeals:
        if a.late and a.decision and _wins(a, infraction_id):
            return Outcome("anulada", f"Deferido em {_br(a.decided_on)} ({a.instance_pt}): {a.decision_text}", level=a.level)
    if served_on is None:
        return Outcome("pendente", "Aguardando a notificação do autuado: os prazos correm da ciência.")
    if not steps:
        return Outcome("pendente", "A lei não prevê prazo de defesa ou recurso: decida manualmente.")
    start, applied, known_from = served_on, None, None
    for step in steps:
        due_on = due(cal, start, step) if start else None
        timely = sorted((a for a in appeals if a.level == step["level"] and not a.late),
                        key=lambda a: (a.filed_on, a.id or 0))
        filing = timely[0] if timely else None
        if filing is None:
            if applied:
                return applied
            if start is None:
                return Outcome("pendente", f"Aguardando o registro da ciência da decisão de {known_from.instance_pt}: "
                               f"o prazo de {step['kind']} ({step['citation_pt']}) corre dela.", level=step["level"])
            if due_on is None:
                return Outcome("pendente", f"{step['label_pt']}: prazo não definido em lei — configure-o em "
                               "Prazos e autoridades. Nada é aplicado até lá.", level=step["level"])
            if today > due_on:
                return Outcome("aplicada", f"Prazo de {step['kind']} ({step['citation_pt']}) esgotado em "
                               f"{_br(due_on)} sem manifestação.", due_on + timedelta(days=1), step["level"], due_on)
            return Outcome("pendente", f"Prazo de {step['kind']} até {_br(due_on)} ({step['citation_pt']}).",
                           level=step["level"], due_on=due_on)
        if filing.decision is None:
            if applied:
                return applied
            if step["suspensive"]:
                return Outcome("suspensa", f"Recurso de {_br(filing.filed_on)} com efeito suspensivo "
                               f"({step['citation_pt']}): a penalidade não se aplica até a decisão.",
                               level=step["level"], due_on=due_on)
            return Outcome("pendente", f"{step['kind'].capitalize()} de {_br(filing.filed_on)} aguardando decisão "
                           f"({step['instance_pt'] or 'autoridade julgadora'}).", level=step["level"], due_on=due_on)
        if _wins(filing, infraction_id):
            return Outcome("anulada", f"Deferido em {_br(filing.decided_on)} ({filing.instance_pt}): "
                           f"{filing.decision_text}", level=step["level"])
        following = next((s for s in steps if s["level"] == step["level"] + 1), None)
        decided = f"Indeferido em {_br(filing.decided_on)} ({filing.instance_pt})"
        if following is None:
            return applied or Outcome("aplicada", decided + ".", filing.decided_on, step["level"])
        if not following["suspensive"] and applied is None:
            applied = Outcome("aplicada", decided + f"; o recurso a {following['instance_pt']} não tem efeito "
                              "suspensivo na lei.", filing.decided_on, step["level"])
        start, known_from = filing.decision_known_on, filing
    return applied or Outcome("pendente", "Aguardando decisão.")


def current_step(steps, served_on, appeals, cal):
    """(step, due date) a new filing belongs to: the first instance whose timely filing has not
    been decided against the operator. None when every instance is used up."""
    start = served_on
    for step in steps:
        timely = sorted((a for a in appeals if a.level == step["level"] and not a.late),
                        key=lambda a: (a.filed_on, a.id or 0))
        filing = timely[0] if timely else None
        if filing is None or filing.decision != "indeferido":
            return step, (due(cal, start, step) if start else None)
        start = filing.decision_known_on  # the ciência of the decision (None: not yet running)
    return None, None
