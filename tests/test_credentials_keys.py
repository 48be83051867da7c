"""Issuer keys: revocation changes the database and the key file together (issue 8), and the
public, cacheable key list an outside party verifies crachás with."""
from datetime import datetime, timezone
from pathlib import Path

import pytest
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
    return key.status, revocations, audits, Path(keystore.keys_dir()) / key.private_key_file


def _issue_one():
    permit = Permit.query.filter_by(municipality_id=_muni().id, status="ativo").order_by(Permit.id).first()
    return ops.issue_credential(permit)


def test_revocation_deletes_the_key_file_and_commits(app, demo):
    with app.app_context():
        ops.create_key(_muni())
        ops.revoke_key(_muni(), 1, "notebook furtado")
        status, revocations, audits, path = _key_state()
        assert (status, revocations, audits) == ("revoked", 1, 1)
        assert not path.exists() and not list(path.parent.glob("*.revoking"))


def test_key_file_failure_leaves_the_database_unchanged(app, demo):
    with app.app_context():
        ops.create_key(_muni())
        _, _, _, path = _key_state()
        # The parking name is taken by a non-empty folder: the rename fails (even for root).
        blocker = path.with_name(path.name + keystore.PARKED_SUFFIX)
        blocker.mkdir()
        (blocker / "x").write_text("x")
        with pytest.raises(ApiError) as err:
            ops.revoke_key(_muni(), 1, "notebook furtado")
        assert err.value.code == "key_file_error" and "nada foi alterado" in err.value.message
    with app.app_context():
        status, revocations, audits, path = _key_state()
        assert (status, revocations, audits) == ("active", 0, 0)
        assert path.is_file()
        assert _issue_one().issuer_key.kid == 1  # the key still signs


def test_database_failure_puts_the_key_file_back(app, demo):
    with app.app_context():
        ops.create_key(_muni())
        _, _, _, path = _key_state()
        original = path.read_bytes()
        seen = {}

        def fail_commit(session):
            seen["parked"] = not path.exists()  # the file was already out of use at commit time
            raise OperationalError("COMMIT", {}, Exception("database went away"))

        event.listen(db.session, "before_commit", fail_commit, once=True)
        try:
            with pytest.raises(OperationalError):
                ops.revoke_key(_muni(), 1, "notebook furtado")
        finally:
            if event.contains(db.session, "before_commit", fail_commit):
                event.remove(db.session, "before_commit", fail_commit)
        assert seen == {"parked": True}
    with app.app_context():
        status, revocations, audits, path = _key_state()
        assert (status, revocations, audits) == ("active", 0, 0)
        assert path.read_bytes() == original and not list(path.parent.glob("*.revoking"))
        assert _issue_one().issuer_key.kid == 1


def test_a_revocation_killed_before_its_commit_leaves_the_key_usable(app, demo):
    """Process killed between parking the file and the commit: the database still says active,
    so the next signature brings the file back."""
    with app.app_context():
        ops.create_key(_muni())
        _, _, _, path = _key_state()
        keystore.park_private_key(IssuerKey.query.filter_by(kid=1).first().private_key_file)
        assert not path.exists()
        assert _issue_one().issuer_key.kid == 1
        assert path.is_file()


# --- public keys --------------------------------------------------------------------------------

def test_public_keys_are_published_with_history_and_cache_headers(app, demo, client):
    with app.app_context():
        ops.create_key(_muni())
        payload = _issue_one().payload
        ops.rotate_key(_muni())
        ops.create_key(_muni("sapezal"))
        ops.revoke_key(_muni(), 1, "notebook furtado")
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


def test_a_signer_restoring_the_file_during_the_revocation_does_not_keep_it(app, demo):
    """Another process loads the key between park and commit (the database still said active):
    it restores the file; once the revocation commits, that file goes too."""
    with app.app_context():
        ops.create_key(_muni())
        _, _, _, path = _key_state()
        relative = IssuerKey.query.filter_by(kid=1).first().private_key_file

        def concurrent_signer(session):
            keystore.load_private_key(relative)  # what issue_credential does elsewhere

        event.listen(db.session, "before_commit", concurrent_signer, once=True)
        ops.revoke_key(_muni(), 1, "notebook furtado")
        assert not path.exists() and not list(path.parent.glob("*.revoking"))
        assert _key_state()[0] == "revoked"
