"""What the sync push announces to the features above it, which fieldsync may not import
(.importlinter, "feature packages depend downwards only"): autos opens a case per accepted auto,
the dashboard counts the accepted records. The app's assembly connects them (server/subscriptions.py).

Both are sent synchronously inside the push's transaction, where the push used to call those
features itself: a receiver writes through db.session and never commits, so what it writes is
committed with the records or rolled back with them (an exception in a receiver fails the push,
and a deadlock retries the whole batch, receivers included).

autos_accepted(device, autos=[{"id", "number"}])
    the autos just inserted, after their numbers were claimed and before the batch's vistorias
    are filed (push.ON_ACCEPT runs the kinds in that order).
records_accepted(device, records=[accepted row, its "body" as sent], permit_pontos={number: ponto})
    every record just inserted, last before the commit: the dashboard's daily rollup rows are
    shared by every push of the day, and their row locks are held from there to the commit.
"""
from blinker import Namespace

_signals = Namespace()
autos_accepted = _signals.signal("sync-autos-accepted")
records_accepted = _signals.signal("sync-records-accepted")


def announce(signal, device, **data):
    """Send `signal` to its receivers; none at all means the app was assembled without them, and
    the push would silently lose what they keep (a case, the figures): refused instead."""
    if not signal.receivers:
        raise RuntimeError(f"Nobody receives {signal.name}: server/subscriptions.py connects it at create_app.")
    signal.send(device, **data)
