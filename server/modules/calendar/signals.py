"""What the calendar announces to the features above it, which it may not import (.importlinter,
"feature packages depend downwards only"); server/subscriptions.py connects the receivers.

closure_added(municipality, closed_day=date)
    a closure was recorded and flushed (audited), before the commit: issuance moves the unpaid
    ISSQN charges due that day to the next business day (CTN art. 210 § único) in the same
    transaction. Sent through core.signals.announce: nobody connected fails the closure.
"""
from ...core.signals import Namespace  # receivers called in the order connected

_signals = Namespace()
closure_added = _signals.signal("calendar-closure-added")
