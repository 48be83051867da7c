"""Showing an operator's first-access code after the POST that made it (post/redirect/get).

The database keeps only the code's hash, so the page that shows the code gets it from the
clerk's session for a few minutes. The session is a signed cookie, readable by its holder: the
code goes in encrypted (Fernet, key derived from SECRET_KEY), bound to the operator, with an
expiry. Logging out clears it.
"""
import base64
import hashlib
import time
from urllib.parse import quote

import qrcode
from cryptography.fernet import Fernet, InvalidToken
from flask import current_app, session, url_for
from markupsafe import Markup

SHOW_MINUTES = 10
_KEY = "first_access_code"


def _fernet():
    secret = str(current_app.config["SECRET_KEY"]).encode()
    return Fernet(base64.urlsafe_b64encode(hashlib.sha256(b"first-access-code:" + secret).digest()))


def remember_code(operator_id, code):
    until = int(time.time()) + SHOW_MINUTES * 60
    session[_KEY] = _fernet().encrypt(f"{operator_id}|{until}|{code}".encode()).decode()


def recall_code(operator_id):
    """The code made for this operator in this session, if it is still within SHOW_MINUTES."""
    token = session.get(_KEY)
    if not token:
        return None
    try:
        owner, until, code = _fernet().decrypt(token.encode()).decode().split("|", 2)
    except (InvalidToken, ValueError):
        session.pop(_KEY, None)
        return None
    if int(until) < time.time():
        session.pop(_KEY, None)
        return None
    return code if owner == str(operator_id) else None


def app_link(slug, code=None):
    """The field app's full address, and the link that opens its first-access screen with the
    municipality (and the code) filled in (pwa/js/ui/operator-login.js reads m and c)."""
    app = url_for("fieldapp.index", _external=True)
    query = f"m={quote(slug)}" + (f"&c={quote(code)}" if code else "")
    return {"app": app, "activate": f"{app}#/operador/entrar?{query}"}


def qr_svg(text, scale=6):
    """A QR code as inline SVG (no inline style, so the strict CSP allows it)."""
    qr = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=4)
    qr.add_data(text)
    qr.make(fit=True)
    matrix = qr.get_matrix()
    size = len(matrix)
    path = "".join(f"M{x} {y}h1v1h-1z" for y, row in enumerate(matrix) for x, dark in enumerate(row) if dark)
    return Markup(
        f'<svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" '
        f'width="{size * scale}" height="{size * scale}" role="img" shape-rendering="crispEdges" '
        f'aria-label="QR code que abre o aplicativo no primeiro acesso">'
        f'<rect width="{size}" height="{size}" fill="#fff"/><path d="{path}" fill="#000"/></svg>')
