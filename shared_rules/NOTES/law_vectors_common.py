"""Authoring aid for shared_rules/vectors/law-*.json (not used by the product or the tests).

It only expands a hand-written compliant baseline of facts into each case, so that a case
lists just the facts it changes. Every `expected` value below is typed by hand from the law
text (article cited in each case name); nothing is computed by an evaluator. BRL cents were
worked out by hand as value x 1.0641 x 100, rounded half up (e.g. 36 UFIR -> 3831).
Run: python3 shared_rules/NOTES/law_vectors_<slug>.py (rewrites the vector file).
"""
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
DATE = "2025-06-10"
HUGE = "__number_1e400__"   # written as the JSON literal 1e400 (parses to Infinity in both languages)

BASELINE = {
    "operator.birth_date": "1990-01-15", "operator.cnh_first_issue_date": "2015-03-01",
    "operator.cnh_category_ok": True, "operator.course_approved": True,
    "operator.resident_since": "2010-01-01", "operator.resident_in_municipality": True,
    "operator.criminal_certificate_ok": True, "operator.personal_documents_ok": True,
    "operator.linked_to_company": True, "operator.issqn_registered": True,
    "operator.issqn_up_to_date": True, "operator.electoral_ok": True,
    "operator.no_other_job_declaration": True, "operator.health_certificate_ok": True,
    "operator.military_ok": True, "operator.licences_count": 1, "operator.inss_autonomo": True,
    "operator.psych_report_ok": True, "operator.insurance_life_ok": True,
    "permit.exists": True, "permit.status": "ativo", "permit.valid_until": "2026-03-31",
    "permit.issued_on": "2025-03-20", "permit.term_valid_until": "2026-12-31",
    "permit.holder_is_company": True,
    "vehicle.engine_cc": 150, "vehicle.manufacture_year": 2023, "vehicle.registered_to_holder": True,
    "vehicle.plated_in_municipality": True, "vehicle.inspection_valid_until": "2025-12-31",
    "vehicle.equipment_inspection_date": "2025-03-01",
    "insurance.valid_until": "2026-01-31", "insurance.coverage_ok": True, "insurance.renewal_filed": False,
    "vehicle.red_plate": True, "vehicle.tank_stripe": True, "vehicle.tank_stripe_spec_ok": True,
    "vehicle.condition_ok": True, "vehicle.documents_valid": True, "vehicle.headlight_on": True,
    "vehicle.within_weight_capacity": True, "vehicle.ponto_permit_displayed": True,
    "equipment.mata_cachorro": True, "equipment.mata_cachorro_rear": True,
    "equipment.antenna_corta_pipa": True, "equipment.antenna_count": 2, "equipment.antenna_height_cm": 65,
    "equipment.grab_handle": True, "equipment.passenger_footrests": True, "equipment.exhaust_protector": True,
    "equipment.mirrors_count": 2, "equipment.foot_protector_cm": 12, "equipment.passenger_backrest": True,
    "equipment.helmets_on_board": 2, "equipment.toucas": True, "equipment.brakes_ok": True,
    "driver.helmet": True, "driver.helmet_visor": True, "driver.helmet_inmetro": True,
    "driver.helmet_yellow": True, "driver.helmet_marked": True, "driver.vest": True,
    "driver.vest_retroreflective": True, "driver.vest_phosphorescent": True,
    "driver.vest_identifies_company": True, "driver.vest_shows_ponto_permit": True,
    "driver.vest_shows_number_name": True, "driver.gloves": True, "driver.uniform": True,
    "driver.attire_ok": True, "driver.footwear_ok": True, "driver.carries_cnh": True,
    "driver.carries_id_docs": True, "driver.carries_badge": True, "driver.carries_vehicle_docs": True,
    "driver.carries_fare_table": True, "driver.intoxicated": False, "driver.armed": False,
    "driver.object_in_hands": False,
    "context.speed_measured": True, "conduct.speed_kmh": 25, "context.speed_limit_kmh": 40, "context.urban": True,
    "conduct.unsafe_driving": False, "conduct.wrong_way": False, "conduct.ignored_signs": False,
    "conduct.rude": False, "conduct.refused_passenger": False, "conduct.detour": False,
    "conduct.soliciting": False, "conduct.ignored_ponto_order": False,
    "conduct.obstructed_inspection": False, "conduct.fare_not_informed": False,
    "conduct.not_using_equipment": False,
    "parking.at_official_stop": False, "parking.distance_to_stop_m": 80,
    "pickup.distance_to_taxi_stand_m": 150, "service.goods_delivery": False,
    "passenger.present": True, "passenger.count": 1, "passenger.age_years": 30,
    "passenger.child_on_lap": False, "passenger.helmet": True, "passenger.helmet_visor": True,
    "passenger.intoxicated": False, "passenger.advanced_pregnancy": False,
    "passenger.baggage_kind": "mochila", "passenger.baggage_kg": 2, "passenger.hands_occupied": False,
    "context.raining": False,
    # added with the legal review (issue 7)
    "vehicle.two_wheels": True, "parking.parked": True, "pickup.at_official_stop": False,
    "permit.taxpayer_number_recorded": True, "equipment.antennas_both_sides": True,
    "passenger.helmet_yellow": True, "passenger.helmet_marked": True,
    # issue 11: Paranatinga art. 11 XXII / art. 50 VI c (fare charged against the decree's table)
    "conduct.fare_off_table": False,
}


def declared(pack_files):
    names = set()
    for f in pack_files:
        names |= set(json.loads((ROOT / "packs" / f).read_text(encoding="utf-8")).get("facts", {}))
    return names


def F(req, infs=()):
    return {"requirement": req, "infractions": list(infs)}


def UFIR(value, cents):
    return {"basis": "fixed", "unit": "UFIR", "value": value, "brl_cents": cents}


class Builder:
    def __init__(self, slug, pack_files, name, description):
        self.slug, self.names = slug, declared(["federal-base.json"] + pack_files)
        self.doc = {"spec_version": "1.0.0", "name": name, "description": description,
                    "defaults": {"municipality": slug, "date": DATE}, "cases": []}

    def case(self, name, set=None, drop=(), expected=None, date=None, history=None,
             config_overrides=None, covers=None, calendar=None):
        facts = {k: v for k, v in BASELINE.items() if k in self.names and k not in drop}
        for k, v in (set or {}).items():
            if not k.startswith("$"):
                assert k in self.names, (name, k)
            facts[k] = v
        c = {"name": name, "facts": facts, "expected": expected}
        if date:
            c["date"] = date
        if history is not None:
            c["history"] = history
        if config_overrides:
            c["config_overrides"] = config_overrides
        if covers:
            c["covers"] = covers
        if calendar is not None:
            c["calendar"] = calendar  # closures the municipality recorded (SPEC §10)
        self.doc["cases"].append(c)

    def write(self, file_name):
        p = ROOT / "vectors" / file_name
        text = json.dumps(self.doc, ensure_ascii=False, indent=1) + "\n"
        # A number literal beyond the double range must reach both evaluators as written.
        text = text.replace('"' + HUGE + '"', "1e400")
        p.write_text(text, encoding="utf-8")
        print(p, len(self.doc["cases"]))
