"""Issuer keys: kept encrypted in the database, revocation erases the private half in the
transaction that records it (issue 8, issue 22), and the public, cacheable key list an outside party verifies
crachás with."""
from datetime import datetime, timezone
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from server.core.errors import ApiError
from server.extensions import db
from server.modules.credentials import keys as keystore
from server.modules.credentials import operations as ops
from server.modules.credentials.codec import split_payload
from server.modules.credentials.models import IssuerKey, StatusListEntry
from server.modules.credentials.schemas import KeyIndexSchema, PublicKeysSchema
from server.modules.credentials.signing import b64url_decode, load_public
from server.modules.registry.models import Municipality, Permit
from server.core.audit import AuditLog


def _muni(slug="paranatinga"):
    return Municipality.query.filter_by(slug=slug).one()


def _key_state(kid=1):
    key = IssuerKey.query.filter_by(municipality_id=_muni().id, kid=kid).one()
    revocations = StatusListEntry.query.filter_by(kind="key", ref=str(kid), status="revoked").count()
    audits = AuditLog.query.filter_by(action="key_revoke").count()
    return key.status, revocations, audits, key.private_key_pem


def _issue_one():
    permit = Permit.query.filter_by(municipality_id=_muni().id, status="ativo").order_by(Permit.id).first()
    return ops.issue_credential(permit)


def test_private_keys_are_stored_encrypted_in_the_database(app, demo):
    with app.app_context():
        ops.create_key(_muni())
        pem = _key_state()[3]
        assert pem.startswith("-----BEGIN ENCRYPTED PRIVATE KEY-----")
        with pytest.raises(TypeError):  # needs the passphrase
            serialization.load_pem_private_key(pem.encode(), password=None)
        assert not list(Path(app.instance_path, "keys").rglob("*.pem"))  # no key file any more


def test_a_server_with_another_passphrase_cannot_sign(app, demo, monkeypatch):
    with app.app_context():
        ops.create_key(_muni())
        monkeypatch.setenv(keystore.ENV_PASSPHRASE, "outra frase")
        with pytest.raises(ApiError) as err:
            _issue_one()
        assert err.value.code == "key_passphrase_mismatch" and "MOTOFISCAL_KEY_PASSPHRASE" in err.value.message


def test_revocation_erases_the_private_key_and_commits(app, demo):
    with app.app_context():
        ops.create_key(_muni())
        ops.revoke_key(_muni(), 1, "notebook furtado")
        db.session.commit()  # as the command or request that revokes it
    with app.app_context():
        assert _key_state() == ("revoked", 1, 1, None)
        with pytest.raises(ApiError) as err:
            _issue_one()
        assert err.value.code == "no_active_key"


def test_a_failed_revocation_commit_changes_nothing(app, demo):
    with app.app_context():
        ops.create_key(_muni())
        db.session.commit()
        pem = _key_state()[3]

        def fail_commit(session):
            raise OperationalError("COMMIT", {}, Exception("database went away"))

        event.listen(db.session, "before_commit", fail_commit, once=True)
        try:
            with pytest.raises(OperationalError):
                ops.revoke_key(_muni(), 1, "notebook furtado")
                db.session.commit()  # the boundary's commit (command or request) fails
        finally:
            if event.contains(db.session, "before_commit", fail_commit):
                event.remove(db.session, "before_commit", fail_commit)
        db.session.rollback()
    with app.app_context():
        assert _key_state() == ("active", 0, 0, pem)
        assert _issue_one().issuer_key.kid == 1  # the key still signs


# --- public keys --------------------------------------------------------------------------------

def test_public_keys_are_published_with_history_and_cache_headers(app, demo, client):
    with app.app_context():
        ops.create_key(_muni())
        payload = _issue_one().payload
        ops.rotate_key(_muni())
        ops.create_key(_muni("sapezal"))
        ops.revoke_key(_muni(), 1, "notebook furtado")
        db.session.commit()
    response = client.get("/api/v1/keys/paranatinga")  # no token
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "public, max-age=600"
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    data = response.json
    assert PublicKeysSchema().validate(data) == {}  # the documented shape
    assert data["municipality"] == {"ibge_code": 5106307, "slug": "paranatinga", "name": "Paranatinga", "uf": "MT"}
    assert data["algorithm"] == "Ed25519"
    assert [(k["kid"], k["status"]) for k in data["keys"]] == [(1, "revoked"), (2, "active")]
    assert data["keys"][0]["valid_until"] is not None and data["keys"][1]["valid_until"] is None
    assert all(k["valid_from"].endswith("Z") for k in data["keys"])
    assert "revoked_reason" not in data["keys"][0]  # internal text stays in the back office

    # What an outside party does (docs/credentials.md): the crachá's key id -> public key.
    body_bytes, body, signature = split_payload(payload)
    key = next(k for k in data["keys"] if k["kid"] == body.kid)
    load_public(b64url_decode(key["public_key"])).verify(signature, body_bytes)  # raises if forged

    # The IBGE code in the payload finds the same document, and the index maps codes to slugs.
    assert client.get(f"/api/v1/keys/{body.ibge_code}").json == data
    assert KeyIndexSchema().validate(client.get("/api/v1/keys").json) == {}
    index = client.get("/api/v1/keys").json["municipalities"]
    assert {m["ibge_code"]: m["keys_url"] for m in index}[5106307] == "/api/v1/keys/paranatinga"

    etag = response.headers["ETag"]
    again = client.get("/api/v1/keys/paranatinga", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    with app.app_context():
        ops.rotate_key(_muni())
        db.session.commit()
    changed = client.get("/api/v1/keys/paranatinga", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag and len(changed.json["keys"]) == 3


@pytest.mark.parametrize("ref", ["nowhere", "0000000", "9999999", "51063070", "%C3%A9", "-1"])
def test_public_keys_of_an_unknown_municipality_are_404(app, demo, client, ref):
    response = client.get(f"/api/v1/keys/{ref}")
    assert response.status_code == 404 and response.json["error"]["code"] == "not_found"


def test_trust_data_lists_every_key_ever_used(app, demo):
    """With fresh data an unknown key id is INVÁLIDO, so devices must know every past key."""
    with app.app_context():
        ops.create_key(_muni())
        ops.rotate_key(_muni())
        ops.rotate_key(_muni())  # kid 1 signed nothing and is retired: still listed
        data = ops.trust_data(_muni())
        assert [(k["kid"], k["status"]) for k in data["keys"]] == [(1, "retired"), (2, "retired"), (3, "active")]
        assert datetime.now(timezone.utc) >= datetime.fromisoformat(data["generated_at"].replace("Z", "+00:00"))
