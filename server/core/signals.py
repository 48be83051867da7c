"""Sending a feature's blinker signals when the receivers must exist.

A lower feature announces (or asks) what a higher one must act on through a signal, and the app's
assembly connects the receivers (server/subscriptions.py, docs/ARCHITECTURE.md "Package
dependencies"). Sent synchronously, inside the sender's transaction: a receiver writes through
db.session and never commits.
"""


def require_receivers(signal):
    # None at all means the app was assembled without them: what they keep (a case, the figures,
    # a moved due date) or say (a section of the phones' data) would be silently missing. Refused.
    if not signal.receivers:
        raise RuntimeError(f"Nobody receives {signal.name}: server/subscriptions.py connects it at create_app.")


def announce(signal, sender, **data):
    """Send `signal` to its receivers (at least one)."""
    require_receivers(signal)
    signal.send(sender, **data)


def gather(signal, sender):
    """The receivers' {key: value} merged, in the order they were connected (at least one)."""
    require_receivers(signal)
    out = {}
    for _receiver, section in signal.send(sender):
        out.update(section)
    return out
