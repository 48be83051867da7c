"""What fieldsync asks of the features above it, which it may not import (.importlinter,
"feature packages depend downwards only"): the sync push announces what it accepted (autos opens
a case per auto, the dashboard counts the records), and the field-data download asks for the
sections other features add to it (tariffs: the table in force). The app's assembly connects the
receivers (server/subscriptions.py); they are sent through core/signals.py (at least one receiver).

The push's two are sent synchronously inside its transaction, where the push used to call
those features itself: a receiver writes through db.session and never commits, so what it writes is
committed with the records or rolled back with them (an exception in a receiver fails the push,
and a deadlock retries the whole batch, receivers included).

autos_accepted(device, autos=[{"id", "number"}])
    the autos just inserted, after their numbers were claimed and before the batch's vistorias
    are filed (push.ON_ACCEPT runs the kinds in that order).
records_accepted(device, records=[accepted row, its "body" as sent], permit_pontos={number: ponto})
    every record just inserted, last before the commit: the dashboard's daily rollup rows are
    shared by every push of the day, and their row locks are held from there to the commit.
field_data_sections(municipality) → {key: value}
    each receiver's keys of the field-data answer (field_data.py), asked where the answer puts them.
"""
from ...core.signals import Namespace  # receivers called in the order connected

_signals = Namespace()
autos_accepted = _signals.signal("sync-autos-accepted")
records_accepted = _signals.signal("sync-records-accepted")
field_data_sections = _signals.signal("field-data-sections")
