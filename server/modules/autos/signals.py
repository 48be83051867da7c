"""Signals of the autos' process, each sent in the transaction of its change (listeners add their
rows to the session; the boundary commits them, server/core/transaction.py). Receivers are
connected in server/subscriptions.py.

auto_case_changed(case, old=..., new=...): after every state change of an AutoCase (autos annuls a
void auto's penalties, then the dashboard recounts it).

The operator is told of each step (issue 37: notices, collection): sent through core.signals.announce,
so an app assembled without the receivers fails rather than leave an operator untold.
  notification_issued(case, note=...)        the notificação de autuação was issued
  appeal_filed(case, appeal=...)             a defence or appeal was protocolled (counter or app)
  appeal_decided(case, appeal=...)           its decision was recorded
  penalty_changed(case, penalty=..., old=..., new=...)   a penalty's state changed (aplicada, anulada…)

operator_auto_sections(user): asked (core.signals.gather) by GET /api/v1/operator/autos; each
receiver answers {section name: {auto record id: value}} (collection: "payment", notices:
"notices"), which the operator's phone keeps for reading offline.
Receivers are called in the order they were connected (core.signals.Namespace).
"""
from ...core.signals import Namespace  # receivers called in the order connected

_signals = Namespace()
auto_case_changed = _signals.signal("auto-case-changed")
notification_issued = _signals.signal("auto-notification-issued")
appeal_filed = _signals.signal("auto-appeal-filed")
appeal_decided = _signals.signal("auto-appeal-decided")
penalty_changed = _signals.signal("auto-penalty-changed")
operator_auto_sections = _signals.signal("operator-auto-sections")
