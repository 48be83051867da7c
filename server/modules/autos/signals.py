"""auto_case_changed(case, old=..., new=...): sent after every state change of an AutoCase, in
the same transaction (listeners add their rows to the session; the operation commits). Receivers
(autos annuls a void auto's penalties, then the dashboard recounts it) are connected in
server/subscriptions.py."""
from blinker import Namespace

_signals = Namespace()
auto_case_changed = _signals.signal("auto-case-changed")
