"""An amendment carried end to end on the server (issue 38), with the TEST FIXTURE
tests/fixtures/amendments/ (a fictitious Lei 999/2026 amending Paranatinga's Lei 311/2007 from
01/03/2026, never shipped): published beside the shipped packs (config RULES_EXTRA_PACKS_DIR), it
is served to phones ahead of its date; an auto dated the day before keeps the old rule and one
dated on the day gets the new one, in the review's re-evaluation and in the notificação, which
cites the amending act; the municipality's configured deadline follows the decree's date."""
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

from autos_process_helpers import _auto_fields, ensure_key, first_operator_and_permit
from fieldsync_device import FakeDevice, sha256_hex
from helpers import api_token

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "amendments"
CUIABA = timezone(timedelta(hours=-4))
BEFORE = datetime(2026, 2, 28, 10, 0, tzinfo=CUIABA)
AFTER = datetime(2026, 3, 1, 10, 0, tzinfo=CUIABA)
OLD = {"law": "L311", "art": "50", "inciso": "II", "alinea": "a"}
NEW = dict(OLD, amended_by={"law": "L999", "art": "2"})


def _publish_and_configure(app, runner):
    app.config["RULES_EXTRA_PACKS_DIR"] = str(FIXTURE)
    out = runner.invoke(args=["rules", "configure", "--municipality", "paranatinga", "--kind", "deadlines",
                              "--key", "paranatinga.prazo_recurso", "--value", "10", "--valid-from", "2026-03-01",
                              "--source", "Decreto nº 50/2026"])
    assert out.exit_code == 0, out.output


def _phone(app, client):
    """The fiscal's phone, enrolled before the amendment's date (its clock is judged against that)."""
    from server.extensions import db
    from server.modules.accounts.models import Device
    phone = FakeDevice(client, "fiscal.paranatinga")
    with app.app_context():
        db.session.get(Device, phone.device_id).registered_at = datetime(2026, 1, 5, 12, tzinfo=timezone.utc)
        db.session.commit()
    return phone


def _stop(app, phone, when, answers, infraction):
    """Inspection + auto signed at `when` (the phone's clock), pushed now."""
    operator_id, permit_number, _ = first_operator_and_permit(app, "paranatinga")
    inspection = phone.body("inspection", device_at=when, operator_id=operator_id, permit_number=permit_number,
                            answers=answers)
    items = [phone.record(inspection)]
    items.append(phone.record(phone.body(
        "auto", device_at=when, inspection_id=inspection["id"], number=phone.reserve(1)[0], operator_id=operator_id,
        permit_number=permit_number, plate="QBX1A23", place="Av. Brasil, 100",
        auto_fields=_auto_fields(app, "paranatinga", permit_number), infractions=[infraction],
        signatures={"fiscal": sha256_hex("f"), "operator": None, "operator_refused": True},
        defence={"deadline_days": 3, "instance": "Secretário"},
        public_token=f"tok{when.day:02d}{'x' * 40}")))
    response = phone.push(items)
    assert response.status_code == 200, response.json
    return inspection["id"], items[1]["id"]


def test_the_phone_receives_the_amendment_ahead_of_its_date(app, client, demo, runner):
    _publish_and_configure(app, runner)
    rules = client.get("/api/v1/rules/paranatinga", headers=api_token(client, "fiscal.paranatinga")).json
    amendment = next(p for p in rules["packs"] if p.get("amends") == "paranatinga-lei-311-2007")
    assert amendment["laws"]["L999"]["effective_from"] == "2026-03-01"
    assert rules["config"]["deadlines"]["paranatinga.prazo_recurso"] == [
        {"valid_from": "2026-03-01", "days": 10, "act": "Decreto nº 50/2026"}]
    # Without the folder, the shipped law alone: nothing of the fixture ever ships.
    app.config["RULES_EXTRA_PACKS_DIR"] = None
    rules = client.get("/api/v1/rules/paranatinga", headers=api_token(client, "fiscal.paranatinga")).json
    assert not any(p.get("amends") for p in rules["packs"])


def test_autos_before_and_after_the_date_keep_their_wording_in_review_and_notificacao(app, client, demo, runner):
    from server.extensions import db
    from server.modules.autos.models import AutoCase
    from server.modules.autos.notification_content import build_content
    from server.modules.autos.operations import decide
    from server.modules.fieldsync.models import FieldRecord
    from server.modules.registry.models import Municipality
    from server.modules.review.reevaluation import server_evaluation

    _publish_and_configure(app, runner)
    ensure_key(app, "paranatinga")
    phone = _phone(app, client)
    # The day before: a missing mata-cachorro (Group II, a) at the old 36 UFIR; the chain guard
    # the amendment adds is not a requirement yet.
    old_inspection, old_auto = _stop(app, phone, BEFORE, {"equipment.mata_cachorro": False, "equipment.chain_guard": False},
                                     {"id": "par.inf.g2_a", "citation": OLD, "amount": {"value": 36, "unit": "UFIR"},
                                      "amount_brl": 38.31, "decision": "confirmed", "removal_reason": None})
    # The day of force: the added item (chain guard) fails, fined at the new 40 UFIR.
    new_inspection, new_auto = _stop(app, phone, AFTER, {"equipment.mata_cachorro": True, "equipment.chain_guard": False},
                                     {"id": "par.inf.g2_a", "citation": NEW, "amount": {"value": 40, "unit": "UFIR"},
                                      "amount_brl": 42.56, "decision": "confirmed", "removal_reason": None})
    with app.app_context():
        muni = Municipality.query.filter_by(slug="paranatinga").one()
        results = {}
        for name, record_id in (("old", old_inspection), ("new", new_inspection)):
            record = db.session.get(FieldRecord, record_id)
            assert not set(record.flags or []) & {"clock_ahead", "clock_behind"}
            out = server_evaluation(muni, record, json.loads(record.body))
            assert out["error"] is None
            results[name] = {i["id"]: i for i in out["result"]["infractions"]}
        old, new = results["old"]["par.inf.g2_a"], results["new"]["par.inf.g2_a"]
        assert (old["amount"]["value"], old["amount"]["brl_cents"], old["citation"].get("amended_by")) == (36, 3831, None)
        assert (new["amount"]["value"], new["amount"]["brl_cents"], new["citation"]["amended_by"]) == (
            40, 4256, {"law": "L999", "art": "2"})
        assert old["triggered_by"] == ["par.req.mata_cachorro"] and new["triggered_by"] == ["par.req.protetor_corrente"]

        contents = {}
        for name, record_id in (("old", old_auto), ("new", new_auto)):
            case = AutoCase.query.filter_by(record_id=record_id).one()
            decide(case, "auto_homologate", "Fatos confirmados pelas fotos do fiscal.")
            contents[name] = build_content(case, 1, AFTER.date() + timedelta(days=5))
    old_inf, new_inf = contents["old"]["infractions"][0], contents["new"]["infractions"][0]
    assert old_inf["citation"] == "Lei 311/2007, art. 50, II, alínea “a”"
    assert new_inf["citation"] == "Lei 311/2007, art. 50, II, alínea “a” (redação dada pela Lei 999/2026, art. 2º)"
    # The appeal: 3 days of the law before the date; from it, the days the decree configured
    # from that date, cited by the decree.
    old_step, new_step = contents["old"]["instances"][0], contents["new"]["instances"][0]
    assert old_step["days"] == 3 and "Lei 311/2007, art. 48" in old_step["deadline"]
    assert new_step["days"] == 10 and "fixado por Decreto nº 50/2026" in new_step["deadline"]
    assert "redação dada pela Lei 999/2026, art. 4º" in new_step["deadline"]


def test_review_page_cites_the_wording_each_auto_applied(app, client, demo, runner):
    from helpers import login

    from server.modules.autos.models import AutoCase

    _publish_and_configure(app, runner)
    ensure_key(app, "paranatinga")
    phone = _phone(app, client)
    _, new_auto = _stop(app, phone, AFTER, {"equipment.chain_guard": False},
                        {"id": "par.inf.g2_a", "citation": NEW, "amount": {"value": 40, "unit": "UFIR"},
                         "amount_brl": 42.56, "decision": "confirmed", "removal_reason": None})
    with app.app_context():
        assert AutoCase.query.filter_by(record_id=new_auto).one() is not None
    login(client, "backoffice.paranatinga")
    page = client.get(f"/bo/revisao/registros/{new_auto}").get_data(as_text=True)
    assert "Lei 311/2007, art. 50, II, alínea “a” (redação dada pela Lei 999/2026, art. 2º)" in page


def test_the_configuration_page_saves_a_dated_deadline_with_its_act(app, client, demo):
    from helpers import csrf_token, login

    from server.modules.registry.models import Municipality

    app.config["RULES_EXTRA_PACKS_DIR"] = str(FIXTURE)
    login(client, "backoffice.paranatinga")
    token = csrf_token(client, "/bo/regras/configuracao")
    bad = client.post("/bo/regras/configuracao", data={"csrf_token": token, "kind": "deadlines",
                                                        "key": "paranatinga.prazo_recurso", "value": "10",
                                                        "valid_from": "01/03/2026", "source": "Decreto nº 50/2026"})
    assert bad.status_code == 422 and "Data inválida" in bad.get_data(as_text=True)
    for value, day, act in (("10", "2026-03-01", "Decreto nº 50/2026"), ("12", "2027-01-01", "Decreto nº 7/2027")):
        ok = client.post("/bo/regras/configuracao", data={"csrf_token": token, "kind": "deadlines",
                                                           "key": "paranatinga.prazo_recurso", "value": value,
                                                           "valid_from": day, "source": act})
        assert ok.status_code == 302
    with app.app_context():
        rows = Municipality.query.filter_by(slug="paranatinga").one().settings["rules"]["deadlines"]["paranatinga.prazo_recurso"]
    assert rows == [{"valid_from": "2026-03-01", "days": 10, "act": "Decreto nº 50/2026"},
                    {"valid_from": "2027-01-01", "days": 12, "act": "Decreto nº 7/2027"}]
    page = client.get("/bo/regras/configuracao").get_data(as_text=True)
    assert "10 dias desde 01/03/2026 — Decreto nº 50/2026; 12 dias desde 01/01/2027 — Decreto nº 7/2027" in page


def test_the_catalogue_shows_each_wording_with_its_period(app, client, demo):
    from helpers import login

    app.config["RULES_EXTRA_PACKS_DIR"] = str(FIXTURE)
    login(client, "backoffice.paranatinga")
    page = client.get("/bo/regras/").get_data(as_text=True)
    assert "redação em vigor de 01/10/2007 até 28/02/2026:</span><br>36 UFIR" in page
    assert "redação em vigor de 01/03/2026:</span><br>40 UFIR" in page
    assert "Lei 311/2007, art. 8º, V, alínea “f” (incluído pela Lei 999/2026, art. 3º)" in page


def test_the_operator_s_public_copy_titles_each_infraction_in_the_wording_of_its_day(app, client, demo, runner):
    from server.modules.autos.public_auto import public_auto

    _publish_and_configure(app, runner)
    ensure_key(app, "paranatinga")
    phone = _phone(app, client)
    _stop(app, phone, AFTER, {"equipment.chain_guard": False},
          {"id": "par.inf.g2_a", "citation": NEW, "amount": {"value": 40, "unit": "UFIR"}, "amount_brl": 42.56,
           "decision": "confirmed", "removal_reason": None, "label_pt": None})
    with app.app_context():
        page = public_auto(f"tok01{'x' * 40}")
    item = page["infractions"][0]
    assert item["citation"] == "Lei 311/2007, art. 50, II, alínea “a” (redação dada pela Lei 999/2026, art. 2º)"
    assert item["label"].startswith("Grupo II, a)")
