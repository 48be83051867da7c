"""A crachá follows its permit's status everywhere: back office, status list, public page; and a
damaged or forged code says so on the public page (issue 10)."""
from urllib.parse import quote, urlsplit

import pytest

from helpers import api_token, login
from server.extensions import db
from server.modules.credentials import operations as ops
from server.modules.credentials.base32 import b32decode, b32encode
from server.modules.credentials.codec import make_payload, split_payload
from server.modules.registry.models import Municipality, Permit
from server.modules.permits.operations import change_permit_status

DAMAGED = "O código do QR está danificado ou foi falsificado"


def _issue(app):
    with app.app_context():
        muni = Municipality.query.filter_by(slug="paranatinga").one()
        ops.create_key(muni)
        permit = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first()
        credential = ops.issue_credential(permit)
        db.session.commit()  # as the request or command that issues it
        return permit.id, credential.id, credential.serial, credential.payload


def _change(app, permit_id, action):
    with app.app_context():
        change_permit_status(db.session.get(Permit, permit_id), action, "Teste")
        db.session.commit()


@pytest.mark.parametrize("action,label,verdict", [
    ("suspend", "Sem validade: permissão suspensa", "SUSPENSO"),
    ("cassar", "Sem validade: permissão cassada", "CASSADO")])
def test_crachá_follows_its_permit_everywhere(app, demo, client, action, label, verdict):
    permit_id, credential_id, serial, payload = _issue(app)
    login(client, "backoffice.paranatinga")
    page = client.get(f"/bo/permissoes/{permit_id}").get_data(as_text=True)
    assert ">Ativo</span>" in page and "Imprimir crachá (PDF)" in page

    _change(app, permit_id, action)

    # Back office: no "Ativo", no print buttons, and the print files are refused.
    page = client.get(f"/bo/permissoes/{permit_id}").get_data(as_text=True)
    crachá = page[page.index('id="cracha-title"'):]
    assert label in crachá and ">Ativo</span>" not in crachá
    assert "Imprimir crachá" not in crachá and "cracha.png" not in crachá and "adesivos.pdf" not in crachá
    for name in ("cracha.png", "cracha.pdf", "adesivos.pdf"):
        response = client.get(f"/bo/credentials/{credential_id}/{name}")
        assert response.status_code == 409 and label in response.get_data(as_text=True)

    # Status list: the crachá's own entry carries the permit's status.
    fiscal = api_token(client, "fiscal.paranatinga")
    entries = client.get("/api/v1/trust/paranatinga", headers=fiscal).json["entries"]
    latest = {(e["kind"], e["ref"]): e["status"] for e in entries}
    assert latest[("credential", str(serial))] == {"suspend": "suspenso", "cassar": "cassado"}[action]

    # Public page: the verdict and the crachá's status are the permit's.
    public = client.get(urlsplit(payload).path).get_data(as_text=True)
    assert f'<span class="n">{verdict}</span>' in public and label in public
    assert "Crachá válido até" not in public and "Validade impressa no crachá" in public


def test_reinstated_permit_gives_the_crachá_back(app, demo, client):
    permit_id, credential_id, serial, payload = _issue(app)
    _change(app, permit_id, "suspend")
    _change(app, permit_id, "reinstate")
    login(client, "backoffice.paranatinga")
    assert client.get(f"/bo/credentials/{credential_id}/cracha.png").status_code == 200
    public = client.get(urlsplit(payload).path).get_data(as_text=True)
    assert '<span class="n">VÁLIDO</span>' in public and "Crachá válido até" in public


def _flip(payload, byte, bit=0):
    """The same crachá with one bit of its body changed (a damaged print, or an edit)."""
    prefix, code = payload.split("/V/")
    raw = bytearray(b32decode(code))
    raw[byte] ^= 1 << bit
    return "/V/" + b32encode(bytes(raw))


@pytest.mark.parametrize("byte,bit,detail", [
    (0, 1, "Versão de crachá não suportada."),  # format version
    (1, 7, None),  # key id: unknown with fresh server data
    (4, 0, "Nenhum município que usa o Motofiscal emitiu este código."),  # IBGE 5106307 -> 5106306
    (2, 7, "Conteúdo corrompido."),  # IBGE code over 9,999,999
    (11, 5, "Conteúdo corrompido ou incompleto."),  # permit number length
])
def test_damaged_header_says_damaged_or_forged(app, demo, client, byte, bit, detail):
    _, _, _, payload = _issue(app)
    html = client.get(_flip(payload, byte, bit)).get_data(as_text=True)
    assert '<span class="n">INVÁLIDO</span>' in html
    assert "não é um crachá de um município atendido" not in html.lower()
    if byte == 1:
        assert "crachá falsificado" in html
    else:
        assert DAMAGED in html and detail in html


@pytest.mark.parametrize("path", ["/V/NOT-BASE32", "/V/", "/V/AAAA/extra", "/v/garbage", "/v/MF1:abc"])
def test_garbage_codes_say_damaged_or_forged(app, demo, client, path):
    response = client.get(path)
    assert response.status_code == 200 and DAMAGED in response.get_data(as_text=True)


def test_both_formats_and_a_lower_cased_code_reach_the_same_page(app, demo, client):
    _, _, _, payload = _issue(app)
    body_bytes, _, signature = split_payload(payload)
    legacy = make_payload(body_bytes, signature)  # the first format of the same signed body
    code = urlsplit(payload).path[len("/V/"):]
    for path in (urlsplit(payload).path, "/v/" + code.lower(), "/v/" + quote(legacy, safe="")):
        html = client.get(path).get_data(as_text=True)
        assert '<span class="n">VÁLIDO</span>' in html, path
