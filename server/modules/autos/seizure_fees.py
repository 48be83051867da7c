"""What a seizure owes: each charge's amount on a day (removal once; storage per day up to the
release, or up to `today` while the moto is held), what was paid against it and the balance.
Pure arithmetic over rows already read; the writes are in payments.py."""


def storage_days(seized_on, until, day_count):
    """Days of storage between the seizure and `until` (the release, or today), as the act counts
    them: "dia_ou_fracao" counts every calendar day in the pátio, both ends included;
    "pernoite" counts the nights (a release on the seizure day owes none)."""
    nights = max((until - seized_on).days, 0)
    return nights + 1 if day_count == "dia_ou_fracao" else nights


def charge_line(charge, seizure, payments, today):
    """{charge, days, due_cents, paid_cents, balance_cents, until, final} for one charge."""
    until = seizure.released_on or today
    if charge.kind == "estadia":
        days = storage_days(seizure.seized_on, until, charge.day_count)
        due = days * charge.unit_cents
    else:
        days, due = None, charge.unit_cents
    paid = sum(p.amount_cents for p in payments if p.charge_id == charge.id)
    return {"charge": charge, "days": days, "due_cents": due, "paid_cents": paid,
            "balance_cents": due - paid, "until": until, "final": seizure.released_on is not None}


def statement(seizure, charges, payments, today):
    """Every charge of one seizure with its lines and totals."""
    lines = [charge_line(c, seizure, payments, today) for c in charges if c.seizure_id == seizure.id]
    mine = [p for p in payments if p.seizure_id == seizure.id]
    return {"lines": lines, "payments": mine,
            "due_cents": sum(line["due_cents"] for line in lines),
            "paid_cents": sum(line["paid_cents"] for line in lines),
            "balance_cents": sum(line["balance_cents"] for line in lines)}
