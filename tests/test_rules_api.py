"""Rules over HTTP and CLI: composed packs with ETag, evaluation, errors naming the fact."""
import json
from datetime import date
from decimal import Decimal

from helpers import api_token


def test_composed_rules_etag_and_304(client, demo):
    headers = api_token(client, "fiscal.sapezal")
    first = client.get("/api/v1/rules/sapezal", headers=headers)
    assert first.status_code == 200
    body = first.json
    assert body["municipality"] == "sapezal"
    etag = first.headers["ETag"]
    assert etag.startswith('"') and len(etag) > 10
    again = client.get("/api/v1/rules/sapezal", headers={**headers, "If-None-Match": etag})
    assert again.status_code == 304


def test_composed_rules_go_compressed_with_an_etag_per_encoding(client, demo):
    """The phone downloads the packs on 3G: gzip or Brotli when it accepts them, the same JSON
    inside, an ETag of its own per encoding (a cache must never answer one with the other), and
    a 304 for the encoding it holds."""
    import gzip

    import brotli
    headers = api_token(client, "fiscal.sapezal")
    plain = client.get("/api/v1/rules/sapezal", headers={**headers, "Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers
    seen = {plain.headers["ETag"]}
    for encoding, decode in (("gzip", gzip.decompress), ("br", brotli.decompress)):
        answer = client.get("/api/v1/rules/sapezal", headers={**headers, "Accept-Encoding": encoding})
        assert answer.headers["Content-Encoding"] == encoding
        assert "Accept-Encoding" in answer.headers["Vary"]
        assert answer.headers["Cache-Control"] == "no-cache"
        assert len(answer.data) * 3 < len(plain.data)
        assert json.loads(decode(answer.data)) == plain.json
        seen.add(answer.headers["ETag"])
        again = client.get("/api/v1/rules/sapezal", headers={
            **headers, "Accept-Encoding": encoding, "If-None-Match": answer.headers["ETag"]})
        assert again.status_code == 304
    assert len(seen) == 3


def test_rules_need_auth_and_own_municipality(client, demo):
    assert client.get("/api/v1/rules/sapezal").status_code == 401
    headers = api_token(client, "fiscal.sapezal")
    response = client.get("/api/v1/rules/paranatinga", headers=headers)
    assert response.status_code == 404
    assert response.json["error"]["code"] == "not_found"


def test_municipal_unit_value_changes_config_and_etag(client, demo, app):
    from server.extensions import db
    from server.modules.registry.models import Municipality, UnitValue
    headers = api_token(client, "fiscal.nortelandia")
    before = client.get("/api/v1/rules/nortelandia", headers=headers)
    with app.app_context():
        muni = Municipality.query.filter_by(slug="nortelandia").one()
        db.session.add(UnitValue(municipality_id=muni.id, unit="UFM", valid_from=date(2024, 1, 1),
                                 value_brl=Decimal("4.5000"), source="Decreto municipal de teste"))
        db.session.commit()
    after = client.get("/api/v1/rules/nortelandia", headers=headers)
    assert after.headers["ETag"] != before.headers["ETag"]
    ufm = after.json["config"]["unit_values"]["UFM"]
    assert {"valid_from": "2024-01-01", "brl": 4.5, "source": "Decreto municipal de teste"} in ufm


def test_evaluate_unknown_fact_is_400_naming_it(client, demo):
    headers = api_token(client, "fiscal.paranatinga")
    response = client.post("/api/v1/rules/evaluate", headers=headers, json={
        "municipality": "paranatinga", "date": "2024-05-10", "facts": {"no.such_fact": True}})
    assert response.status_code == 400
    assert response.json["error"]["fact"] == "no.such_fact"
    assert "facts.no.such_fact" in response.json["error"]["fields"]


def test_evaluate_missing_fields_named(client, demo):
    headers = api_token(client, "fiscal.paranatinga")
    response = client.post("/api/v1/rules/evaluate", headers=headers, json={"facts": []})
    assert response.status_code == 422
    assert set(response.json["error"]["fields"]) == {"municipality", "date", "facts"}


def test_evaluate_empty_facts_leaves_everything_undecided(client, demo):
    headers = api_token(client, "fiscal.paranatinga")
    response = client.post("/api/v1/rules/evaluate", headers=headers, json={
        "municipality": "paranatinga", "date": "2024-05-10", "facts": {}})
    assert response.status_code == 200
    result = response.json
    assert result["failed"] == [] and result["infractions"] == []
    assert result["date"] == "2024-05-10"


def test_cli_evaluate_and_check(runner, demo, tmp_path):
    facts = tmp_path / "facts.json"
    facts.write_text(json.dumps({}))
    result = runner.invoke(args=["rules", "evaluate", "--municipality", "sapezal", "--date",
                                 "2024-05-10", "--facts", str(facts)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["municipality"] == "sapezal"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"no.such_fact": 1}))
    result = runner.invoke(args=["rules", "evaluate", "--municipality", "sapezal", "--date",
                                 "2024-05-10", "--facts", str(bad)])
    assert result.exit_code == 2
    assert json.loads(result.output)["error"]["fact"] == "no.such_fact"
    result = runner.invoke(args=["rules", "evaluate", "--municipality", "atlantida", "--date",
                                 "2024-05-10", "--facts", str(facts)])
    assert result.exit_code != 0 and "atlantida" in result.output


def test_cli_rules_check_passes_on_the_repository_and_names_file_path_reason_on_a_bad_pack(tmp_path):
    import shutil
    from pathlib import Path

    from click.testing import CliRunner

    from server.modules.rules.cli import rules_cli

    root = Path(__file__).resolve().parent.parent
    runner = CliRunner()
    good = runner.invoke(rules_cli, ["check", "--root", str(root)])
    assert good.exit_code == 0, good.output
    copy = tmp_path / "repo"
    shutil.copytree(root / "shared_rules", copy / "shared_rules")
    pack_file = copy / "shared_rules" / "packs" / "sapezal-lei-125-1999.json"
    pack = json.loads(pack_file.read_text(encoding="utf-8"))
    pack["requirements"][0]["holds"] = {">=": [{"var": "vehicle.engine_cc"}, "125"]}  # number vs string
    pack["requirements"][1]["citation"]["art"] = "999"  # no such article in the law
    pack_file.write_text(json.dumps(pack, ensure_ascii=False), encoding="utf-8")
    bad = runner.invoke(rules_cli, ["check", "--root", str(copy)])
    assert bad.exit_code == 1
    assert "sapezal-lei-125-1999.json: /requirements/0/holds" in bad.output
    assert "type_error" in bad.output
    assert "/requirements/1/citation" in bad.output
