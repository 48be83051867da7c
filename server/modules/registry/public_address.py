"""The public address of a municipality's documents: the host printed in its crachás' QR
(HTTPS://HOST/V/…), its notificações' QR (/N/…) and the links of the notices sent to its
operators. Its "Endereço público" (Municipality.settings["public_base_url"], asked when the
municipality is created and editable on the first-day screen) when set, else the server's
PUBLIC_BASE_URL. The host is never signed (docs/credentials.md), so changing it invalidates no
printed document: each keeps the address it was issued with, which must keep routing here."""
from flask import current_app

SETTING = "public_base_url"


def own_public_base_url(municipality) -> str | None:
    """The municipality's own address, or None when it uses the server's."""
    value = (municipality.settings or {}).get(SETTING) if municipality is not None else None
    return value.rstrip("/") if isinstance(value, str) and value.strip() else None


def public_base_url(municipality) -> str:
    return own_public_base_url(municipality) or current_app.config["PUBLIC_BASE_URL"].rstrip("/")
