"""Issue 20, the contract equals the server: verbs advertised are those served, a photo hash is
read alike by PUT and HEAD, and the dashboard never files a record in an implausible month."""
from datetime import datetime, timedelta, timezone

import pytest

from fieldsync_device import FakeDevice, sha256_hex
from helpers import api_token


def test_options_of_rules_evaluate_advertises_only_what_is_served(client, demo):
    allow = {m.strip() for m in client.options("/api/v1/rules/evaluate").headers["Allow"].split(",")}
    assert "POST" in allow and "GET" not in allow
    headers = api_token(client, "backoffice.sapezal")
    refused = client.get("/api/v1/rules/evaluate", headers=headers)
    assert refused.status_code == 405 and "GET" not in refused.headers["Allow"]
    assert client.get("/api/v1/rules/sapezal", headers=headers).status_code == 200


def test_an_upper_case_photo_hash_is_refused_alike_by_put_and_head(client, demo):
    phone = FakeDevice(client, "fiscal.sapezal")
    data = b"\xff\xd8 not a photo"
    upper = sha256_hex(data).upper()
    head = client.head(f"/api/v1/sync/photos/{upper}", headers=phone.headers)
    put = client.put(f"/api/v1/sync/photos/{upper}", headers={**phone.headers, "Content-Type": "image/jpeg"}, data=data)
    assert put.status_code == 422 and "sha256" in put.json["error"]["fields"]
    assert head.status_code == put.status_code


@pytest.mark.parametrize("device_at", [datetime(1970, 1, 1, 0, 0, 7, tzinfo=timezone.utc),
                                       datetime(2099, 12, 31, 23, 0, tzinfo=timezone.utc)])
def test_the_dashboard_files_an_implausible_clock_on_the_day_received(app, client, demo, device_at):
    from server.core.clock import to_local
    from server.modules.dashboard.models import FieldStat
    from server.modules.fieldsync.models import FieldRecord
    phone = FakeDevice(client, "fiscal.sapezal")
    result = phone.push([phone.inspection(device_at=device_at)]).json["results"][0]
    assert result["status"] == "accepted" and result["flags"]  # clock_behind / clock_ahead
    with app.app_context():
        received = FieldRecord.query.one().received_at
        stat = FieldStat.query.one()
        assert stat.day == to_local(received).date()
        assert stat.month == to_local(received).strftime("%Y-%m")
        assert abs(to_local(received).date() - stat.day) < timedelta(days=1)


def test_a_dashboard_period_in_year_0001_is_refused_by_name(client, demo):
    from helpers import login
    login(client, "backoffice.sapezal")
    page = client.get("/bo/?periodo=outro&de=0001-01-01&ate=0001-12-31")
    assert page.status_code == 200
    assert "Período: Data fora do intervalo aceito" in page.get_data(as_text=True)
