"""Hand-written vectors for Nortelândia Lei 030/1998 (see law_vectors_common.py)."""
from law_vectors_common import Builder, F

b = Builder("nortelandia", ["nortelandia-lei-030-1998.json"], "law-nortelandia",
            "Nortelândia, Lei nº 030/1998: requisitos, teto de multa em UFM (art. 16), reincidência, recurso.")
CAP = {"basis": "cap", "unit": "UFM", "value": None, "max": 10, "max_brl_cents": None}
DL_BASE = [{"id": "nl.prazo.recurso", "kind": "recurso", "days": 10, "starts": "intimacao", "suspensive": True, "due": None},
           {"id": "nl.prazo.regularizacao", "kind": "regularizacao", "days": None, "due": None}]
U_DL = {"kind": "deadline", "id": "nl.prazo.regularizacao", "reason": "unconfigured_deadline", "config_key": "nortelandia.prazo_regularizacao"}
def UV(inf): return {"kind": "infraction", "id": inf, "reason": "unit_value_missing", "unit": "UFM"}
def one(req_short, name, set, extra_failed=(), drop=(), **kw):
    """A single municipal failure proposing nl.inf.<short> with the 10-UFM cap."""
    inf = "nl.inf." + req_short
    failed = list(extra_failed) + [F("nl.req." + req_short, [inf])]
    b.case(name, set=set, drop=drop, expected={
        "failed": failed,
        "infractions": ([{"id": "fed.inf.ctb244_ix"}] if extra_failed else []) +
                       [{"id": inf, "triggered_by": ["nl.req." + req_short], "penalty": {"kind": "multa"}, "amount": CAP,
                         "recidivism": {"rule": "nl.reincidencia", "applied": False, "prior_count": 0}}],
        "undecided": [UV(inf), U_DL]}, **kw)

b.case("Baseline compliant: nothing fails; appeal 10 days to the Prefeito (art. 16 § 2º); art. 7º deadline unconfigured",
       expected={"failed": [], "infractions": [], "escalations": [], "deadlines": DL_BASE, "undecided": [U_DL]})
one("faixa_moto_taxi", "art. 1º § ú: no 'MOTO-TÁXI' over a yellow stripe on the tank", {"vehicle.tank_stripe": False})
b.case("art. 2º: exactly 125 cc passes", set={"vehicle.engine_cc": 125}, expected={"failed": [], "infractions": []})
b.case("art. 2º, default reading 'nominal' (issue 7): a CG 125 registered at 124.9 cc is a '125' → passes", set={"vehicle.engine_cc": 124.9},
       expected={"failed": [], "infractions": []})
one("cilindrada_minima", "art. 2º, reading 'nominal': 122 cc (class 120) fails (erratum: 'potência' read as displacement)", {"vehicle.engine_cc": 122})
one("cilindrada_minima", "art. 2º, municipality reads 'medida': 124.9 cc fails", {"vehicle.engine_cc": 124.9},
    config_overrides={"options": {"nortelandia.cc_125_reading": "medida"}})
one("duas_rodas", "art. 1º (issue 7): a tricycle is not a two-wheeled motorcycle", {"vehicle.two_wheels": False})
UV5 = {"UFM": [{"valid_from": "2025-01-01", "brl": 5.5}]}
b.case("art. 16 II (issue 7): a decree value above the 10-UFM cap is never output → value null, cap kept, undecided",
       set={"driver.gloves": False},
       config_overrides={"unit_values": UV5, "decree_amounts": {"nortelandia.multa.luvas": [{"valid_from": "2025-01-01", "unit": "UFM", "value": 12}]}},
       expected={"infractions": [{"id": "nl.inf.luvas", "amount": {"basis": "cap", "unit": "UFM", "value": None, "max": 10, "brl_cents": None,
                                                                "max_brl_cents": 5500, "decree": None}}],
                 "undecided": [{"kind": "infraction", "id": "nl.inf.luvas", "reason": "decree_above_cap", "config_key": "nortelandia.multa.luvas"}, U_DL]})
b.case("art. 16 II (issue 7): a decree value in R$ is not read as UFM → value null, undecided",
       set={"driver.gloves": False},
       config_overrides={"unit_values": UV5, "decree_amounts": {"nortelandia.multa.luvas": [{"valid_from": "2025-01-01", "unit": "BRL", "value": 5}]}},
       expected={"infractions": [{"id": "nl.inf.luvas", "amount": {"unit": "UFM", "value": None, "max": 10, "brl_cents": None}}],
                 "undecided": [{"kind": "infraction", "id": "nl.inf.luvas", "reason": "decree_unit_mismatch", "config_key": "nortelandia.multa.luvas"}, U_DL]})
b.case("art. 16 II: exactly 10 UFM by decree is within the cap", set={"driver.gloves": False},
       config_overrides={"unit_values": UV5, "decree_amounts": {"nortelandia.multa.luvas": [{"valid_from": "2025-01-01", "unit": "UFM", "value": 10}]}},
       expected={"infractions": [{"id": "nl.inf.luvas", "amount": {"value": 10, "max": 10, "brl_cents": 5500}}], "undecided": [U_DL]})
b.case("art. 2º with UFM configured: cap 10 UFM at R$ 5,50 = R$ 55,00", set={"vehicle.engine_cc": 100},
       config_overrides={"unit_values": {"UFM": [{"valid_from": "2025-01-01", "brl": 5.5, "source": "teste"}]}},
       expected={"failed": [F("nl.req.cilindrada_minima", ["nl.inf.cilindrada_minima"])],
                 "infractions": [{"id": "nl.inf.cilindrada_minima", "amount": {"basis": "cap", "unit": "UFM", "value": None, "max": 10,
                                  "brl_cents": None, "max_brl_cents": 5500, "unit_value_brl": 5.5, "unit_value_from": "2025-01-01"}}],
                 "undecided": [U_DL]})
b.case("art. 16 II + municipal table: 3 UFM fixed by decree within the 10-UFM cap", set={"driver.gloves": False},
       config_overrides={"unit_values": {"UFM": [{"valid_from": "2025-01-01", "brl": 5.5}]},
                         "decree_amounts": {"nortelandia.multa.luvas": [{"valid_from": "2025-01-01", "unit": "UFM", "value": 3, "decree": "Decreto nº 10/2025"}]}},
       expected={"failed": [F("nl.req.luvas", ["nl.inf.luvas"])],
                 "infractions": [{"id": "nl.inf.luvas", "amount": {"basis": "cap", "unit": "UFM", "value": 3, "max": 10, "brl_cents": 1650,
                                  "max_brl_cents": 5500, "decree": "Decreto nº 10/2025"}}], "undecided": [U_DL]})
b.case("art. 2º: vehicle in poor condition", set={"vehicle.condition_ok": False},
       expected={"failed": [F("nl.req.estado_conservacao", ["nl.inf.estado_conservacao"])], "infractions": [{"id": "nl.inf.estado_conservacao"}]})
b.case("art. 2º + Res. 943 art. 2º: no red plate fails the federal and the municipal entry (one answer, two rules)",
       set={"vehicle.red_plate": False},
       expected={"failed": [F("fed.req.categoria_aluguel", ["fed.inf.ctb244_ix"]), F("nl.req.categoria_aluguel", ["nl.inf.categoria_aluguel"])],
                 "infractions": [{"id": "fed.inf.ctb244_ix", "jurisdiction": "snt", "amount": None, "triggered_by": ["fed.req.categoria_aluguel"],
                                  "measures": [{"kind": "retencao"}]},
                                 {"id": "nl.inf.categoria_aluguel", "jurisdiction": "municipal", "amount": CAP}],
                 "undecided": [UV("nl.inf.categoria_aluguel"), U_DL]})
b.case("art. 2º: motorcycle not in the company's name", set={"vehicle.registered_to_holder": False},
       expected={"failed": [F("nl.req.registro_empresa", ["nl.inf.registro_empresa"])], "infractions": [{"id": "nl.inf.registro_empresa"}]})
b.case("art. 2º + art. 6º (issue 19): a permit held by a natural person with the motorcycle in that person's name does not pass art. 2º silently — both fail, one fine (art. 6º displaces art. 2º: the same fact)",
       set={"permit.holder_is_company": False, "vehicle.registered_to_holder": True},
       expected={"failed": [F("nl.req.registro_empresa", []), F("nl.req.autorizada_empresa", ["nl.inf.autorizada_empresa"])],
                 "infractions": [{"id": "nl.inf.autorizada_empresa"}],
                 "displaced": [{"id": "nl.inf.registro_empresa", "by": "nl.inf.autorizada_empresa"}]})
b.case("art. 2º (issue 19): holder unknown and the motorcycle in the holder's name → art. 2º undecided, never passed",
       drop=("permit.holder_is_company",), set={"vehicle.registered_to_holder": True},
       expected={"failed": [], "infractions": [],
                 "undecided": [{"kind": "requirement", "id": "nl.req.registro_empresa", "reason": "missing_fact", "facts": ["permit.holder_is_company"]},
                               {"kind": "requirement", "id": "nl.req.autorizada_empresa", "reason": "missing_fact", "facts": ["permit.holder_is_company"]}, U_DL]})
b.case("art. 2º § ú: vistoria valid through today passes", set={"vehicle.inspection_valid_until": "2025-06-10"}, expected={"failed": []})
b.case("art. 2º § ú: vistoria expired yesterday fails", set={"vehicle.inspection_valid_until": "2025-06-09"},
       expected={"failed": [F("nl.req.vistoria_previa", ["nl.inf.vistoria_previa"])], "infractions": [{"id": "nl.inf.vistoria_previa"}]})
b.case("art. 2º § ú + Res. 943 art. 3º I: no mata-cachorro", set={"equipment.mata_cachorro": False},
       expected={"failed": [F("fed.req.protetor_motor_pernas", ["fed.inf.ctb244_ix"]), F("nl.req.mata_cachorro", ["nl.inf.mata_cachorro"])],
                 "infractions": [{"id": "fed.inf.ctb244_ix"}, {"id": "nl.inf.mata_cachorro"}]})
one("um_passageiro", "art. 3º: two passengers", {"passenger.count": 2})
b.case("art. 3º: passenger aged exactly 7 is allowed ('menores de 07 anos')", set={"passenger.age_years": 7}, expected={"failed": []})
one("idade_minima_passageiro", "art. 3º: passenger aged 6 is forbidden", {"passenger.age_years": 6})
b.case("art. 3º: no passenger carried → passenger rules not applicable even with a 5-year-old recorded",
       set={"passenger.present": False, "passenger.age_years": 5, "passenger.child_on_lap": True}, expected={"failed": [], "infractions": []})
one("passageiro_colo", "art. 3º: passenger on the lap", {"passenger.child_on_lap": True})
one("volumes", "art. 3º § 1º: medium/large suitcase", {"passenger.baggage_kind": "volume_medio_grande"})
b.case("art. 3º § 1º: small parcel is not forbidden", set={"passenger.baggage_kind": "pequeno_volume"}, expected={"failed": []})
one("ponto_onibus_taxi", "art. 5º § ú: parked on an official bus/taxi stop", {"parking.at_official_stop": True})
b.case("art. 5º § ú: parked exactly 50 m away is allowed", set={"parking.distance_to_stop_m": 50}, expected={"failed": []})
b.case("art. 5º caput + § ú (issue 7): not parked (picking up a passenger 10 m from a bus stop) → the parking rule does not apply",
       set={"parking.parked": False, "parking.distance_to_stop_m": 10},
       expected={"failed": []})
one("ponto_onibus_taxi", "art. 5º § ú: parked 49 m away fails", {"parking.distance_to_stop_m": 49})
b.case("art. 6º: permit held by a natural person (art. 2º fails with it, one fine: issue 19)", set={"permit.holder_is_company": False},
       expected={"failed": [F("nl.req.registro_empresa", []), F("nl.req.autorizada_empresa", ["nl.inf.autorizada_empresa"])],
                 "infractions": [{"id": "nl.inf.autorizada_empresa"}]})
b.case("art. 6º: no alvará — validity and status rules not applicable", set={"permit.exists": False},
       expected={"failed": [F("nl.req.alvara_existente", ["nl.inf.alvara_existente"])], "infractions": [{"id": "nl.inf.alvara_existente"}]})
b.case("art. 6º: alvará valid through today passes", set={"permit.valid_until": "2025-06-10"}, expected={"failed": []})
one("alvara_validade", "art. 6º: alvará expired yesterday", {"permit.valid_until": "2025-06-09"})
one("alvara_ativo", "art. 7º: alvará suspended", {"permit.status": "suspenso"})
one("apoio_pes", "art. 9º I: no passenger footrests", {"equipment.passenger_footrests": False})
b.case("art. 9º II + Res. 943 art. 3º III: no metal grab handle", set={"equipment.grab_handle": False},
       expected={"failed": [F("fed.req.dispositivo_passageiro", ["fed.inf.ctb244_ix"]), F("nl.req.alca_metalica", ["nl.inf.alca_metalica"])],
                 "infractions": [{"id": "fed.inf.ctb244_ix"}, {"id": "nl.inf.alca_metalica"}]})
one("protetor_escapamento", "art. 9º III: no exhaust insulation", {"equipment.exhaust_protector": False})
one("dois_capacetes", "art. 10 I: only one helmet available", {"equipment.helmets_on_board": 1})
one("dois_capacetes", "art. 10 I: helmet without visor or goggles", {"driver.helmet_visor": False})
one("toucas", "art. 10 II: no toucas for passengers", {"equipment.toucas": False})
one("luvas", "art. 10 III: no gloves", {"driver.gloves": False})
one("colete", "art. 10 IV: vest without company name and code", {"driver.vest_identifies_company": False})
one("colete", "art. 10 IV: vest not phosphorescent", {"driver.vest_phosphorescent": False})
b.case("art. 10 IV + Lei 12.009 art. 2º IV: no vest at all fails both", set={"driver.vest": False},
       expected={"failed": [F("fed.req.colete_retrorrefletivo", ["fed.inf.ctb244_ix"]), F("nl.req.colete", ["nl.inf.colete"])]})
b.case("Lei 12.009 art. 2º IV only: vest without retroreflective strips (Nortelândia asks phosphorescent paint, not reflective)",
       set={"driver.vest_retroreflective": False},
       expected={"failed": [F("fed.req.colete_retrorrefletivo", ["fed.inf.ctb244_ix"])], "infractions": [{"id": "fed.inf.ctb244_ix"}], "undecided": [U_DL]})
one("vinculo_empresa", "art. 10 V: operator not bound to an authorized company", {"operator.linked_to_company": False})
one("seguro_vida", "art. 11 § ú: life insurance below minimums (erratum: 'prêmio' read as coverage)", {"operator.insurance_life_ok": False})
one("habilitacao", "art. 12 I: no specific licence", {"operator.cnh_category_ok": False})
b.case("art. 12 II: resident for exactly 1 year passes", set={"operator.resident_since": "2024-06-10"}, expected={"failed": []})
one("residencia_1_ano", "art. 12 II: resident for 1 year minus 1 day fails", {"operator.resident_since": "2024-06-11"})
one("certidao_negativa", "art. 12 III: no negative certificates", {"operator.criminal_certificate_ok": False})
one("documentos_pessoais", "art. 12 IV: personal documents missing", {"operator.personal_documents_ok": False})
one("direcao_segura", "art. 13 I: unsafe driving", {"conduct.unsafe_driving": True})
one("alcool", "art. 13 II: signs of alcohol", {"driver.intoxicated": True})
one("arma", "art. 13 III: armed", {"driver.armed": True})
one("urbanidade", "art. 13 IV: rude to the passenger", {"conduct.rude": True})
one("uniforme", "art. 13 V: not in uniform", {"driver.uniform": False})
one("contramao", "art. 13 VI: wrong way", {"conduct.wrong_way": True})
one("sinalizacao", "art. 13 VII: ignored a sign", {"conduct.ignored_signs": True})
b.case("art. 13 VIII: exactly at the limit passes", set={"conduct.speed_kmh": 40, "context.speed_limit_kmh": 40}, expected={"failed": []})
one("velocidade", "art. 13 VIII: 1 km/h above the limit fails", {"conduct.speed_kmh": 41, "context.speed_limit_kmh": 40})
one("equipamentos_seguranca", "art. 13 IX: driver without helmet", {"driver.helmet": False})
b.case("art. 13 VIII: speed not measured → requirement undecided, nothing proposed", drop=("conduct.speed_kmh",),
       expected={"failed": [], "infractions": [],
                 "undecided": [{"kind": "requirement", "id": "nl.req.velocidade", "reason": "missing_fact", "facts": ["conduct.speed_kmh"]}, U_DL]})
b.case("art. 13 VIII: speed answered 'não se aplica' (not measured) → not applicable", set={"conduct.speed_kmh": "na"},
       expected={"failed": [], "undecided": [U_DL]})
# issue 34: the speed questions are asked only when the fiscal measured it (declared reading, LEGAL.md)
b.case("art. 13 VIII: speed not measured at this stop (context.speed_measured false) → not applicable, nothing undecided",
       set={"context.speed_measured": False}, drop=("conduct.speed_kmh", "context.speed_limit_kmh"),
       expected={"failed": [], "infractions": [], "undecided": [U_DL]})
b.case("art. 15: fiscal selects 'trajeto imposto' (selectable infraction)", set={"$selected": ["nl.inf.trajeto"]},
       expected={"failed": [], "infractions": [{"id": "nl.inf.trajeto", "triggered_by": ["$selected"], "amount": CAP}]})
# recidivism (art. 16 II): cap 10 → 100 UFM; the law sets no window
H = [{"infraction": "nl.inf.luvas", "date": "2025-01-10"}]
b.case("art. 16 II: prior same infraction but recidivism window not configured → recidivism undecided, cap stays 10",
       set={"driver.gloves": False}, history=H,
       expected={"infractions": [{"id": "nl.inf.luvas", "amount": CAP,
                                  "recidivism": {"rule": "nl.reincidencia", "applied": None}}],
                 "undecided": [UV("nl.inf.luvas"), {"kind": "infraction", "id": "nl.inf.luvas", "reason": "unconfigured_window",
                                                    "config_key": "nortelandia.recidivism_window"}, U_DL]})
W1 = {"periods": {"nortelandia.recidivism_window": {"years": 1}}}
b.case("art. 16 II: window configured as 1 year, prior 5 months ago → cap raised to 100 UFM", set={"driver.gloves": False}, history=H,
       config_overrides=W1,
       expected={"infractions": [{"id": "nl.inf.luvas", "amount": {"basis": "cap", "unit": "UFM", "max": 100, "value": None},
                                  "recidivism": {"applied": True, "prior_count": 1, "window_from": "2024-06-10", "window_to": "2025-06-10"}}],
                 "undecided": [UV("nl.inf.luvas"), U_DL]})
b.case("art. 16 II: prior exactly at the start of a 1-year window counts", set={"driver.gloves": False},
       history=[{"infraction": "nl.inf.luvas", "date": "2024-06-10"}], config_overrides=W1,
       expected={"infractions": [{"id": "nl.inf.luvas", "amount": {"max": 100}, "recidivism": {"applied": True, "prior_count": 1}}]})
b.case("art. 16 II: prior one day before a 1-year window does not count", set={"driver.gloves": False},
       history=[{"infraction": "nl.inf.luvas", "date": "2024-06-09"}], config_overrides=W1,
       expected={"infractions": [{"id": "nl.inf.luvas", "amount": {"max": 10}, "recidivism": {"applied": False, "prior_count": 0}}]})
b.case("art. 16 II: a different earlier infraction is not specific recidivism", set={"driver.gloves": False},
       history=[{"infraction": "nl.inf.toucas", "date": "2025-03-01"}], config_overrides=W1,
       expected={"infractions": [{"id": "nl.inf.luvas", "amount": {"max": 10}, "recidivism": {"applied": False, "prior_count": 0}}]})
b.case("art. 18: the day before the law's date nothing applies (federal rules are later too)", date="1998-08-20",
       set={"driver.gloves": False, "operator.resident_since": "1990-01-01"}, expected={"failed": [], "infractions": [], "deadlines": []})
b.case("art. 17-18 (issue 19): on 1998-08-21 the law applies, but inside the 60 days to adapt a missing duty is a notice, not an infraction; the period is listed", date="1998-08-21",
       set={"driver.gloves": False, "operator.resident_since": "1990-01-01"},
       expected={"failed": [dict(F("nl.req.luvas", []), grace="nl.prazo.adequacao")], "infractions": [],
                 "deadlines": DL_BASE + [{"id": "nl.prazo.adequacao", "kind": "adequacao", "days": 60, "starts": "publicacao", "due": None}]})
b.case("art. 17 (issue 19): last day of the 60 (1998-10-20, counted from the publication on 1998-08-21): still a notice", date="1998-10-20",
       set={"driver.gloves": False, "operator.resident_since": "1990-01-01"},
       expected={"failed": [dict(F("nl.req.luvas", []), grace="nl.prazo.adequacao")], "infractions": []})
b.case("art. 17 (issue 19): from 1998-10-21 the duty is enforced: infraction", date="1998-10-21",
       set={"driver.gloves": False, "operator.resident_since": "1990-01-01"},
       expected={"failed": [F("nl.req.luvas", ["nl.inf.luvas"])], "infractions": [{"id": "nl.inf.luvas"}]})
b.case("art. 17-18 (issue 19): the municipality records the official publication on 1998-09-01 → the 60 days run to 1998-10-31", date="1998-10-25",
       set={"driver.gloves": False, "operator.resident_since": "1990-01-01"},
       config_overrides={"options": {"nortelandia.lei_030_publicacao": "1998-09-01"}},
       expected={"failed": [dict(F("nl.req.luvas", []), grace="nl.prazo.adequacao")], "infractions": []})
b.case("art. 17 + CC art. 132 § 1º (issue 19): published 1998-09-01, the 60th day 31/10/1998 is a Saturday → the period runs to Monday 02/11/1998 (Finados became a national holiday only in 2002)", date="1998-11-02",
       set={"driver.gloves": False, "operator.resident_since": "1990-01-01"},
       config_overrides={"options": {"nortelandia.lei_030_publicacao": "1998-09-01"}},
       expected={"failed": [dict(F("nl.req.luvas", []), grace="nl.prazo.adequacao")], "infractions": []})
b.case("art. 17 + CC art. 132 § 1º (issue 19): published 1998-09-01, enforced from Tuesday 03/11/1998", date="1998-11-03",
       set={"driver.gloves": False, "operator.resident_since": "1990-01-01"},
       config_overrides={"options": {"nortelandia.lei_030_publicacao": "1998-09-01"}},
       expected={"failed": [F("nl.req.luvas", ["nl.inf.luvas"])], "infractions": [{"id": "nl.inf.luvas"}]})
b.case("art. 17 + Lei 9.093/1995 art. 2º (issue 19): published 1998-09-01 and Finados kept as a municipal religious holiday in 1998 → the period runs to Tuesday 03/11/1998", date="1998-11-03",
       set={"driver.gloves": False, "operator.resident_since": "1990-01-01"},
       config_overrides={"options": {"nortelandia.lei_030_publicacao": "1998-09-01"}},
       calendar={"closures": [{"date": "1998-11-02", "kind": "feriado_religioso", "name_pt": "Finados", "act": "Lei municipal"}]},
       expected={"failed": [dict(F("nl.req.luvas", []), grace="nl.prazo.adequacao")], "infractions": []})
b.case("art. 17: adaptation deadline no longer listed after 1998-10-20", date="1998-10-21",
       set={"operator.resident_since": "1990-01-01"}, expected={"failed": [], "deadlines": DL_BASE})
b.case("Res. 943/2022 art. 3º II: antenna not required by the federal base before 2022-04-01 (Nortelândia has no antenna rule)",
       date="2022-03-31", set={"equipment.antenna_corta_pipa": False}, expected={"failed": []})
b.case("Res. 943/2022 art. 3º II: antenna required from 2022-04-01", date="2022-04-01", set={"equipment.antenna_corta_pipa": False},
       expected={"failed": [F("fed.req.aparador_linha", ["fed.inf.ctb244_ix"])], "infractions": [{"id": "fed.inf.ctb244_ix"}]})
b.write("law-nortelandia.json")
