"""Who acts on which lower feature's announcements: connected in one place when the app is built.

A feature lower in the order (docs/ARCHITECTURE.md, "Package dependencies") that must have a
higher one act — the sync push, whose accepted autos open cases and whose records feed the
dashboard, the calendar whose new closure moves issuance's ISSQN due dates — announces it with a
blinker signal sent inside its transaction, and names nobody;
one that must have a higher one contribute (the field data's tariff) asks through a signal the
same way; a case's state change (auto_case_changed) and a permit's status change
(permit_status_changed) are announced the same way. The receivers are connected here, all of
them, so every app — tests' included — has the same ones. Connecting is idempotent (blinker keys a receiver by its
identity), so every create_app may call this.
"""


def connect_subscribers():
    from .modules.autos.operations import open_cases_of_push
    from .modules.autos.penalties import case_voided
    from .modules.autos.process_operations import move_appeal_dues
    from .modules.autos.process_settings import field_data_section as traffic_authority_section
    from .modules.autos.signals import auto_case_changed
    from .modules.calendar.signals import closure_added
    from .modules.credentials.operations import on_permit_status_changed
    from .modules.dashboard.operations import case_changed, count_push
    from .modules.fieldsync.signals import autos_accepted, field_data_sections, records_accepted
    from .modules.issuance.operations import move_issqn_due_dates
    from .modules.permits.operations import move_grace_ends
    from .modules.selection.operations import move_motorcycle_dues
    from .modules.registry.signals import permit_status_changed
    from .modules.tariffs.operations import field_data_section
    from .modules.autos.signals import (appeal_decided, appeal_filed, notification_issued, operator_auto_sections,
                                        penalty_changed)
    from .modules.collection import charges as collection
    from .modules.collection.signals import charge_paid
    from .modules.notices import operations as notices
    from .modules.traffic.operations import open_reports_of_push

    # weak=False: held here for the process's life, whoever else keeps a reference.
    autos_accepted.connect(open_cases_of_push, weak=False)
    # The communications to the traffic authority before the dashboard, whose rollup rows must be
    # locked last (fieldsync/push.py).
    records_accepted.connect(open_reports_of_push, weak=False)
    records_accepted.connect(count_push, weak=False)
    field_data_sections.connect(field_data_section, weak=False)
    field_data_sections.connect(traffic_authority_section, weak=False)
    closure_added.connect(move_issqn_due_dates, weak=False)
    # Stored ends that hang on the calendar (issue 35): recomputed, audited, in the same transaction.
    closure_added.connect(move_grace_ends, weak=False)
    closure_added.connect(move_motorcycle_dues, weak=False)
    closure_added.connect(move_appeal_dues, weak=False)
    # The order they had when each module connected itself at import: autos first, then the dashboard.
    auto_case_changed.connect(case_voided, weak=False)
    auto_case_changed.connect(case_changed, weak=False)
    permit_status_changed.connect(on_permit_status_changed, weak=False)
    # The operator is told of each step (issue 37); the fine's charge is opened before its notice.
    notification_issued.connect(notices.on_notification_issued, weak=False)
    appeal_filed.connect(notices.on_appeal_filed, weak=False)
    appeal_decided.connect(notices.on_appeal_decided, weak=False)
    penalty_changed.connect(collection.on_penalty_changed, weak=False)
    penalty_changed.connect(notices.on_penalty_changed, weak=False)
    charge_paid.connect(notices.on_charge_paid, weak=False)
    operator_auto_sections.connect(collection.operator_sections, weak=False)
    operator_auto_sections.connect(notices.operator_sections, weak=False)
