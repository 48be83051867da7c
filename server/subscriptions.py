"""Who acts on which lower feature's announcements: connected in one place when the app is built.

A feature lower in the order (docs/ARCHITECTURE.md, "Package dependencies") that must have a
higher one act — the sync push, whose accepted autos open cases and whose records feed the
dashboard, the calendar whose new closure moves issuance's ISSQN due dates — announces it with a
blinker signal sent inside its transaction, and names nobody;
one that must have a higher one contribute (the field data's tariff) asks through a signal the
same way. The receivers are connected here. Connecting is idempotent (blinker keys a receiver by its
identity), so every create_app may call this.
"""


def connect_subscribers():
    from .modules.autos.operations import open_cases_of_push
    from .modules.calendar.signals import closure_added
    from .modules.dashboard.operations import count_push
    from .modules.fieldsync.signals import autos_accepted, field_data_sections, records_accepted
    from .modules.issuance.operations import move_issqn_due_dates
    from .modules.tariffs.operations import field_data_section

    # weak=False: held here for the process's life, whoever else keeps a reference.
    autos_accepted.connect(open_cases_of_push, weak=False)
    records_accepted.connect(count_push, weak=False)
    field_data_sections.connect(field_data_section, weak=False)
    closure_added.connect(move_issqn_due_dates, weak=False)
