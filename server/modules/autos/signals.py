"""auto_case_changed(case, old=..., new=...): sent after every state change of an AutoCase, in
the same transaction (listeners add their rows to the session; the operation commits)."""
from blinker import Namespace

_signals = Namespace()
auto_case_changed = _signals.signal("auto-case-changed")
