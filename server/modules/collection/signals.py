"""charge_paid(charge, payment=...): a fine's charge was settled (a reconciled statement line or a
clerk's link), in that transaction. notices tells the operator (server/subscriptions.py)."""
from ...core.signals import Namespace  # receivers called in the order connected

_signals = Namespace()
charge_paid = _signals.signal("collection-charge-paid")
