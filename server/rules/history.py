"""The rule-engine history (SPEC §5) built from the back office's penalty rows — the rows the
field data sends to phones (fieldsync.field_data.penalty_rows) and that the server reads from
fieldsync.AppliedPenalty. Twin of pwa/js/rules/history.js; shared vectors (`field_penalties`)
make both give the same history.

A row belongs to the inspected person when it is the same operator OR the same permit (a permit
passes from holder to holder, and the laws count the "permissionário"). Every matching row is
sent with its state, annulled ones too: only the engine decides what counts (SPEC §5 keeps
applied entries whose `applied_on` <= D), so an annulled penalty can never count by a slip of a
filter here. `date` is the day the infraction was committed (`committed_on`); rows written before
that column existed carry their `applied_on` there (migration 0018 backfills it)."""


def history_for(penalties, subject, known=None):
    """-> [history entry] for `subject` ({"operator_id", "permit_id"}) from penalty rows
    ({"infraction_id", "committed_on", "applied_on", "penalty", "cancelled", "operator_id",
    "permit_id", "auto_record_id"}), oldest first; rows whose infraction is not in `known` (a set of ids, when
    given) are left out, as the composed rules could not read them."""
    subject = subject or {}
    operator_id, permit_id = subject.get("operator_id"), subject.get("permit_id")
    if operator_id is None and permit_id is None:
        return []
    out = []
    for p in penalties or ():
        mine = ((operator_id is not None and p.get("operator_id") == operator_id)
                or (permit_id is not None and p.get("permit_id") == permit_id))
        if not mine or (known is not None and p.get("infraction_id") not in known):
            continue
        entry = {"infraction": p.get("infraction_id"), "date": p.get("committed_on") or p.get("applied_on"),
                 "applied_on": p.get("applied_on"), "state": "annulled" if p.get("cancelled") else "applied"}
        if p.get("penalty"):
            entry["penalty"] = p["penalty"]
        if p.get("auto_record_id"):
            entry["auto"] = p["auto_record_id"]  # fines of one autuação may count once (SPEC §5)
        out.append(entry)
    out.sort(key=lambda e: (e["date"] or "", e["applied_on"] or ""))
    return out
