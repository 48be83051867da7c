"""Migration 0024: issuer keys move from instance/keys/ files into the database. A crachá signed
before the upgrade verifies after it, and the moved key signs on (SQLite, and PostgreSQL when
MOTOFISCAL_TEST_DATABASE_URL is set: test_migrations.fresh_db gives each test its own schema)."""
from datetime import date, datetime, timezone

from cryptography.hazmat.primitives import serialization
from flask_migrate import upgrade
from sqlalchemy import text

from server.extensions import db
from server.modules.credentials import signing
from server.modules.credentials.codec import Body, encode_body, make_url_payload
from test_migrations import MIGRATIONS, fresh_db  # noqa: F401  (the fixture)

BEFORE = "0022_amounts_unpriced"
PASSPHRASE = "frase-de-teste-0024"
STAMP = "2024-01-01 00:00:00"


def _registry_at_0022(conn):
    conn.execute(text("INSERT INTO municipality (id, slug, ibge_code, name, uf, regimes, settings, created_at) "
                      f"VALUES (1, 'sapezal', '5107875', 'Sapezal', 'MT', '[]', '{{}}', '{STAMP}')"))
    conn.execute(text("INSERT INTO ponto (id, municipality_id, name, capacity) VALUES (1, 1, 'Centro', 3)"))
    conn.execute(text(
        "INSERT INTO vehicle (id, municipality_id, plate, renavam, chassis, make, model, year_manufacture, engine_cc, "
        "plate_category, plate_colour, created_at, updated_at) VALUES (1, 1, 'ABC1D23', '12345678900', "
        f"'9C2ABCDEFGH123456', 'Honda', 'CG 160', 2020, 162, 'aluguel', 'vermelha', '{STAMP}', '{STAMP}')"))
    conn.execute(text(
        "INSERT INTO permit (id, municipality_id, number, kind, vehicle_id, ponto_id, issued_on, valid_from, "
        "valid_until, status, status_changed_at, issqn_status, created_at, updated_at) VALUES (1, 1, '001/2024', "
        f"'alvara', 1, 1, '2024-01-01', '2024-01-01', '2099-12-31', 'ativo', '{STAMP}', 'em_dia', '{STAMP}', '{STAMP}')"))


def _key_file_and_crachá(app, conn):
    """What the code before 0024 did: an encrypted PEM file, its row, a crachá signed with it."""
    private = signing.generate()
    pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.BestAvailableEncryption(PASSPHRASE.encode()))
    folder = app.instance_path + "/keys/sapezal"
    import os
    os.makedirs(folder, mode=0o700)
    with open(f"{folder}/1.pem", "wb") as handle:
        handle.write(pem)
    conn.execute(text("INSERT INTO issuer_key (id, municipality_id, kid, public_key, private_key_file, status, "
                      f"created_at) VALUES (1, 1, 1, :pub, 'sapezal/1.pem', 'active', '{STAMP}')"),
                 {"pub": signing.b64url(signing.public_raw(private))})
    body = encode_body(Body(kid=1, ibge_code=5107875, serial=1, expires_on=date(2099, 12, 31),
                            permit_number="001/2024"))
    payload = make_url_payload(body, signing.sign(private, body), app.config["PUBLIC_BASE_URL"])
    conn.execute(text("INSERT INTO credential (id, municipality_id, serial, permit_id, issuer_key_id, permit_number, "
                      "issued_at, expires_on, payload, status) VALUES (1, 1, 1, 1, 1, '001/2024', "
                      f"'{STAMP}', '2099-12-31', :payload, 'active')"), {"payload": payload})
    return payload


def test_a_crachá_signed_before_0024_verifies_after_and_the_key_signs_on(fresh_db):  # noqa: F811
    from server.modules.credentials import operations as ops
    from server.modules.credentials.models import Credential, IssuerKey
    from server.modules.credentials.verifier import prepare_trust, verify
    from server.modules.registry.models import Municipality, Permit
    from server.modules.credentials.codec import split_payload

    fresh_db.config["KEY_PASSPHRASE"] = PASSPHRASE
    with fresh_db.app_context():
        upgrade(directory=MIGRATIONS, revision=BEFORE)
        with db.engine.begin() as conn:
            _registry_at_0022(conn)
            payload = _key_file_and_crachá(fresh_db, conn)
        upgrade(directory=MIGRATIONS)

        muni = db.session.get(Municipality, 1)
        key = IssuerKey.query.one()
        assert key.status == "active" and key.private_key_pem.startswith("-----BEGIN ENCRYPTED PRIVATE KEY-----")
        body = split_payload(payload)[1]
        trust = prepare_trust(ops.trust_for_payload(muni, body))
        assert verify(payload, trust, datetime.now(timezone.utc))["verdict"] == "VÁLIDO"
        # The moved key still signs: a reissue is signed with kid 1 and verifies too.
        new = ops.issue_credential(db.session.get(Permit, 1))
        assert new.issuer_key.kid == 1 and new.serial == 2
        trust = prepare_trust(ops.trust_for_payload(muni, split_payload(new.payload)[1]))
        assert verify(new.payload, trust, datetime.now(timezone.utc))["verdict"] == "VÁLIDO"
        assert db.session.get(Credential, 1).status == "superseded"  # the reissue replaced the first crachá
