"""The operator's first-access code page: redirect after POST, so a refresh shows the same code
(and does not kill it); the code is not readable in the session cookie; the page gives the full
app address and a QR that opens the first-access screen with the municipality and code."""
import re
import time

import zxingcpp
from PIL import Image

from helpers import csrf_token
from server.modules.accounts.models import FirstAccessCode, User
from server.modules.registry.models import Municipality, Operator


def _operator_id(app, slug="sapezal"):
    with app.app_context():
        muni = Municipality.query.filter_by(slug=slug).one()
        return Operator.query.filter_by(municipality_id=muni.id).order_by(Operator.id).first().id


def _code(html):
    match = re.search(r'class="access-code"[^>]*>([A-Z0-9-]+)<', html)
    return match.group(1) if match else None


def _qr_text(app, html):
    """Rasterize the page's inline SVG QR and decode it (zxing-cpp)."""
    svg = re.search(r'<svg class="qr".*?</svg>', html, re.S).group(0)
    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))
    scale = 8
    image = Image.new("L", (size * scale, size * scale), 255)
    pixels = image.load()
    for x, y in re.findall(r"M(\d+) (\d+)h1v1h-1z", svg):
        for dx in range(scale):
            for dy in range(scale):
                pixels[int(x) * scale + dx, int(y) * scale + dy] = 0
    results = zxingcpp.read_barcodes(image)
    assert results, "QR not decodable"
    return results[0].text


def test_refresh_shows_the_same_code_and_it_still_activates(app, client, demo, login_as):
    operator_id = _operator_id(app)
    login_as("backoffice.sapezal")
    url = f"/bo/usuarios/operador/{operator_id}/codigo"
    posted = client.post(url, data={"csrf_token": csrf_token(client, "/bo/")})
    assert posted.status_code == 303 and posted.headers["Location"].endswith(url)
    first = client.get(url).get_data(as_text=True)
    code = _code(first)
    assert code
    refreshed = client.get(url).get_data(as_text=True)  # F5 on the page the clerk is reading
    assert _code(refreshed) == code
    with app.app_context():
        user = User.query.filter_by(operator_id=operator_id).one()
        assert FirstAccessCode.query.filter_by(user_id=user.id).count() == 1  # no new code made
    # The session cookie does not carry the code in clear.
    cookie = client.get_cookie("session").value
    assert code not in cookie and code.replace("-", "") not in cookie
    # Full address and a QR that opens the first-access screen with municipality and code.
    assert "http://localhost/app/" in first
    assert _qr_text(app, first) == f"http://localhost/app/#/operador/entrar?m=sapezal&c={code}"
    activated = client.post("/api/v1/operator/activate", json={"municipality": "sapezal", "code": code})
    assert activated.status_code == 200


def test_code_is_not_shown_for_another_operator_nor_after_it_expires(app, client, demo, login_as,
                                                                     monkeypatch):
    operator_id = _operator_id(app)
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        other_id = (Operator.query.filter_by(municipality_id=muni.id)
                    .filter(Operator.id != operator_id).order_by(Operator.id).first().id)
    login_as("backoffice.sapezal")
    client.post(f"/bo/usuarios/operador/{operator_id}/codigo", data={"csrf_token": csrf_token(client, "/bo/")})
    other = client.get(f"/bo/usuarios/operador/{other_id}/codigo").get_data(as_text=True)
    assert _code(other) is None and "Gerar novo código" in other
    later = time.time() + 11 * 60
    monkeypatch.setattr(time, "time", lambda: later)
    expired = client.get(f"/bo/usuarios/operador/{operator_id}/codigo").get_data(as_text=True)
    assert _code(expired) is None and "já não pode ser mostrado" in expired


def test_another_municipality_operator_code_page_is_404(app, client, demo, login_as):
    login_as("backoffice.sapezal")
    assert client.get(f"/bo/usuarios/operador/{_operator_id(app, 'paranatinga')}/codigo").status_code == 404
