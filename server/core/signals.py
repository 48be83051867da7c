"""Sending a feature's blinker signals when the receivers must exist.

A lower feature announces (or asks) what a higher one must act on through a signal, and the app's
assembly connects the receivers (server/subscriptions.py, docs/ARCHITECTURE.md "Package
dependencies"). Sent synchronously, inside the sender's transaction: a receiver writes through
db.session and never commits.

Receivers are called in the order server/subscriptions.py connected them (`Namespace` below):
blinker keeps them in a `set`, whose order follows the receivers' memory addresses, so it could
differ from one process to the next — the dashboard's rollup locks, taken last on purpose, would
then be taken in another order by another worker.
"""
from blinker import NamedSignal, Namespace as _BlinkerNamespace


class OrderedSet(dict):
    """The part of `set` blinker uses, remembering insertion order (a dict's keys)."""

    def __init__(self, items=()):
        super().__init__((item, None) for item in items)

    def add(self, item):
        self[item] = None

    def discard(self, item):
        self.pop(item, None)

    def copy(self):
        return OrderedSet(self)

    def __or__(self, other):
        return OrderedSet([*self, *other])


class OrderedSignal(NamedSignal):
    set_class = OrderedSet


class Namespace(_BlinkerNamespace):
    """blinker's Namespace whose signals call their receivers in the order they were connected."""

    def signal(self, name, doc=None):
        if name not in self:
            self[name] = OrderedSignal(name, doc)
        return self[name]


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
