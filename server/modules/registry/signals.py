"""Signals other features listen to (credentials append permit changes to the status list), their
receivers connected in server/subscriptions.py."""
from ...core.signals import Namespace  # receivers called in the order connected

_signals = Namespace()

# Sent inside the transaction that changes a permit's status: sender=permit, old=..., new=...
permit_status_changed = _signals.signal("permit-status-changed")
