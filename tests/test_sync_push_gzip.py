"""A push whose body is gzip-compressed (Content-Encoding: gzip), as the field app sends it
(issue 40, item 3): stored exactly as the same push sent plain, under the same limits once
inflated; a body that does not inflate, or inflates past the limit, is refused naming the cause."""
import gzip
import json

from fieldsync_device import FakeDevice


def _gz(data):
    return gzip.compress(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode(), 9)


def _post(client, device, body, **headers):
    return client.post("/api/v1/sync/push", data=body,
                       headers={**device.headers, "Content-Type": "application/json", **headers})


def test_a_gzip_push_is_stored_like_a_plain_one(client, demo):
    device = FakeDevice(client, "fiscal.sapezal")
    records = [device.inspection() for _ in range(3)]
    plain = json.dumps({"records": records}).encode()
    body = _gz({"records": records})
    assert len(body) < len(plain)
    answer = _post(client, device, body, **{"Content-Encoding": "gzip"})
    assert answer.status_code == 200, answer.json
    assert [r["status"] for r in answer.json["results"]] == ["accepted"] * 3
    # The same records again, plain: the server holds exactly these (same id + same content).
    again = device.push(records)
    assert [r["status"] for r in again.json["results"]] == ["duplicate"] * 3


def test_bodies_that_do_not_inflate_within_the_limit_are_refused(app, client, demo):
    device = FakeDevice(client, "fiscal.sapezal")
    bad = _post(client, device, b"\x1f\x8b not gzip", **{"Content-Encoding": "gzip"})
    assert bad.status_code == 400 and bad.json["error"]["code"] == "invalid_encoding"
    cut = _post(client, device, _gz({"records": []})[:-6], **{"Content-Encoding": "gzip"})
    assert cut.status_code == 400 and cut.json["error"]["code"] == "invalid_encoding"
    other = _post(client, device, b"{}", **{"Content-Encoding": "br"})
    assert other.status_code == 415 and "gzip" in other.json["error"]["message"]
    # A small gzip that inflates past MAX_CONTENT_LENGTH (here 16 MB) stops at the limit.
    limit = app.config["MAX_CONTENT_LENGTH"]
    bomb = gzip.compress(b'{"records":["' + b"x" * (limit + 1) + b'"]}', 9)
    assert len(bomb) < limit // 100
    refused = _post(client, device, bomb, **{"Content-Encoding": "gzip"})
    assert refused.status_code == 413 and "descomprimido" in refused.json["error"]["message"]
