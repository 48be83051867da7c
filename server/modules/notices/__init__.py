"""Notices to the operator (issue 37): each step of the process sent to the contacts on record, by
e-mail (SMTP) and, behind a documented provider interface, SMS or WhatsApp; every send recorded."""
