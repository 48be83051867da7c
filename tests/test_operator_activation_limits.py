"""Issue 20: operator activation cannot be blocked for a whole municipality. Random codes sent
from many addresses (each within its own limit) used to fill the municipality's bucket and make
every operator's first access answer 429, a valid code included."""
import math
import re

from server.modules.operator_portal import operations
from ratelimit_backends import ratelimit_config  # noqa: F401  (each test on memory:// and on Redis)

PROXY = "10.0.0.1"


def _activate(client, code, xff, municipality="sapezal"):
    return client.post("/api/v1/operator/activate", json={"municipality": municipality, "code": code},
                       headers={"X-Forwarded-For": xff}, environ_base={"REMOTE_ADDR": PROXY})


def test_a_valid_code_still_works_while_random_codes_are_being_sent(client, app, demo):
    from server.extensions import db
    from server.modules.registry.models import Municipality, Permit
    app.config["TRUSTED_PROXIES"] = 1
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        operator = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first().main_driver
        code = operations.create_operator_access(operator)
        db.session.commit()
    # 120 random codes from 40 addresses (3 each: under every per-address limit).
    guesses = [_activate(client, operations.new_code(), f"198.51.100.{i % 40}").status_code for i in range(120)]
    assert guesses == [422] * 120
    response = _activate(client, code, "203.0.113.50")
    assert response.status_code == 200, response.json
    assert response.json["token"]


def test_codes_carry_at_least_70_bits(app):
    code = operations.new_code()
    assert re.fullmatch(r"[346789ABCDEFGHJKMNPQRTUVWXY]{4}(-[346789ABCDEFGHJKMNPQRTUVWXY]{4}){3}", code)
    symbols = len(set(operations.CODE_ALPHABET))
    assert len(operations.normalize_code(code)) * math.log2(symbols) >= 70
    assert len({operations.new_code() for _ in range(200)}) == 200


def test_someone_who_knows_a_valid_code_cannot_keep_its_owner_at_429(client, app, demo):
    """Issue 39: the code sent with another municipality, or in a malformed request, from many
    addresses, counts nothing against the owner's (municipality, code): the owner activates."""
    from server.extensions import db
    from server.modules.registry.models import Municipality, Permit
    app.config["TRUSTED_PROXIES"] = 1
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        operator = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first().main_driver
        code = operations.create_operator_access(operator)
        db.session.commit()
    wrong_town = [_activate(client, code, f"198.51.100.{i % 20}", municipality="paranatinga").status_code
                  for i in range(60)]
    malformed = [client.post("/api/v1/operator/activate", json={"municipality": "sapezal", "code": code, "x": i},
                             headers={"X-Forwarded-For": f"192.0.2.{i % 20}"}, environ_base={"REMOTE_ADDR": PROXY}
                             ).status_code for i in range(60)]
    # The wrong pair fills its own bucket (30 a minute from everywhere); the owner's stays empty.
    assert set(wrong_town) == {422, 429} and set(malformed) == {422}
    response = _activate(client, code, "203.0.113.50")
    assert response.status_code == 200, response.json


def test_one_client_guessing_is_still_held_back(client, app, demo):
    app.config["TRUSTED_PROXIES"] = 1
    answers = [_activate(client, operations.new_code(), "198.51.100.7").status_code for _ in range(40)]
    assert answers[0] == 422 and answers[-1] == 429
