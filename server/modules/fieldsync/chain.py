"""The device's hash chain around a push: each record names the hash of the device's previous one
(prev_hash, by seq). Judged here, never refused (checks.chain_flags): a gap or a break is a flag
the back office sees, and a gap closes when the missing record arrives later."""
from sqlalchemy import bindparam, select

from ...core.sql_lists import in_list
from ...extensions import db
from .checks import chain_flags
from .models import FieldRecord

_records = FieldRecord.__table__
_CHAIN = select(_records.c.id, _records.c.seq, _records.c.body_hash, _records.c.prev_hash, _records.c.flags).where(
    _records.c.device_id == bindparam("device_id"), in_list(_records.c.seq, "seqs"))


class DeviceChain:
    """The device's records around the batch's seqs, loaded once: {seq: {id: (body_hash, prev_hash, flags)}}.
    The batch's own records are added as they are judged, so a record's predecessor may be in
    the same batch."""

    def __init__(self, device, seqs):
        wanted = {s + d for s in seqs for d in (-1, 0, 1)}
        self.by_seq, self.known = {}, set()
        rows = db.session.connection().execute(_CHAIN, {"device_id": device.id, "seqs": sorted(wanted)})
        for rid, seq, digest, prev, flags in rows:
            self.add(rid, seq, digest, prev, flags)

    def add(self, rid, seq, digest, prev, flags):
        if rid in self.known:  # a replay or a conflicting body: the stored record stays the link
            return
        self.known.add(rid)
        self.by_seq.setdefault(seq, {})[rid] = (digest, prev, list(flags or []))

    def flags(self, rid, seq, prev_hash):
        predecessors = {digest for digest, _p, _f in self.by_seq.get(seq - 1, {}).values()}
        others = [r for r in self.by_seq.get(seq, {}) if r != rid]
        return chain_flags(seq, prev_hash, predecessors, bool(others))

    def settled_successors(self, seq, digest):
        """Successors flagged chain_gap, with their flags now that their predecessor is here."""
        for rid, (s_digest, prev, flags) in self.by_seq.get(seq + 1, {}).items():
            if "chain_gap" in flags:
                new = [f for f in flags if f != "chain_gap"] + ([] if prev == digest else ["broken_chain"])
                self.by_seq[seq + 1][rid] = (s_digest, prev, new)
                yield rid, new
