"""Hand-written vectors for Sapezal Lei 125/1999 (see law_vectors_common.py)."""
from law_vectors_common import HUGE, Builder, F

b = Builder("sapezal", ["sapezal-lei-125-1999.json"], "law-sapezal",
            "Sapezal, Lei nº 125/1999: requisitos, multas fixadas por decreto (art. 24), renovação/caducidade do alvará (art. 10), reincidência (art. 29), inabilitação (art. 26).")
DEC = {"basis": "decree", "unit": None, "value": None, "brl_cents": None}
U_DL = {"kind": "deadline", "id": "sap.prazo.defesa", "reason": "unconfigured_deadline", "config_key": "sapezal.prazo_defesa"}
def UA(short): return {"kind": "infraction", "id": "sap.inf." + short, "reason": "unconfigured_amount", "config_key": "sapezal.multa." + short}
def one(short, name, set, drop=(), **kw):
    b.case(name, set=set, drop=drop, expected={
        "failed": [F("sap.req." + short, ["sap.inf." + short])],
        "infractions": [{"id": "sap.inf." + short, "triggered_by": ["sap.req." + short], "amount": DEC,
                         "penalty": {"kind": "multa", "alternatives": ["advertencia", "suspensao", "cassacao"]},
                         "recidivism": {"rule": "sap.reincidencia", "applied": False, "prior_count": 0}}],
        "escalations": [], "undecided": [UA(short), U_DL]}, **kw)
DL = [{"id": "sap.prazo.defesa", "kind": "defesa", "days": None, "starts": "notificacao"},
      {"id": "sap.prazo.suspensao_renovacao", "kind": "caducidade", "days": 30, "starts": "fim_prazo_renovacao"},
      {"id": "sap.prazo.seguro_antecedencia", "kind": "renovacao", "days": 5, "starts": "vencimento_apolice"}]
NOTICE2 = "aviso — não é inabilitação agora: se esta autuação for confirmada, serão 2 multas em 12 meses (1 já aplicada(s), 1 desta autuação); inabilitação só depois da decisão definitiva"
b.case("Baseline compliant; defence deadline left unset by art. 28 VI → unconfigured",
       expected={"failed": [], "infractions": [], "escalations": [], "deadlines": DL, "undecided": [U_DL]})
one("um_passageiro", "art. 13 caput (and art. 22 VI erratum): two passengers", {"passenger.count": 2})
b.case("art. 5º: 125 cc passes", set={"vehicle.engine_cc": 125}, expected={"failed": []})
b.case("art. 5º, default reading 'nominal' (issue 7): a CG 125 registered at 124.9 cc passes", set={"vehicle.engine_cc": 124.9}, expected={"failed": []})
b.case("art. 5º, reading 'nominal': 123.7 cc (a YBR 125) passes", set={"vehicle.engine_cc": 123.7}, expected={"failed": []})
one("cilindrada", "art. 5º, reading 'nominal': 122 cc (class 120) fails", {"vehicle.engine_cc": 122})
one("cilindrada", "art. 5º, municipality reads 'medida': 124.9 cc fails", {"vehicle.engine_cc": 124.9},
    config_overrides={"options": {"sapezal.cc_125_reading": "medida"}})
b.case("art. 5º: 350 cc passes", set={"vehicle.engine_cc": 350}, expected={"failed": []})
one("cilindrada", "art. 5º: 351 cc fails", {"vehicle.engine_cc": 351})
b.case("art. 5º: 3 years of use (2022 model in 2025) passes", set={"vehicle.manufacture_year": 2022}, expected={"failed": []})
one("idade_veiculo", "art. 5º: 4 years of use fails", {"vehicle.manufacture_year": 2021})
one("propriedade", "art. 5º (erratum: 'firma'): motorcycle not owned by the permit holder", {"vehicle.registered_to_holder": False})
one("seguro", "art. 4º: insurance expired", {"insurance.valid_until": "2025-06-09", "insurance.renewal_filed": True})
b.case("art. 4º § 2º: policy expires in exactly 5 days, renewal not yet filed → still on time",
       set={"insurance.valid_until": "2025-06-15"}, expected={"failed": []})
one("seguro_renovacao_5_dias", "art. 4º § 2º: policy expires in 4 days and renewal not filed", {"insurance.valid_until": "2025-06-14"})
b.case("art. 4º § 2º: policy expires in 4 days, renewal filed → ok", set={"insurance.valid_until": "2025-06-14", "insurance.renewal_filed": True},
       expected={"failed": []})
one("seguro_coberturas", "art. 4º § 1º: coverage below the minimums", {"insurance.coverage_ok": False})
one("habilitacao", "art. 6º I: no full licence for the category", {"operator.cnh_category_ok": False})
one("processo_criminal", "art. 6º II: answering a criminal case", {"operator.criminal_certificate_ok": False})
one("issqn", "art. 6º III: not registered for ISSQN", {"operator.issqn_registered": False})
one("residencia", "art. 6º V: does not live in Sapezal", {"operator.resident_in_municipality": False})
one("quitacao_eleitoral", "art. 6º VI: no electoral clearance", {"operator.electoral_ok": False})
one("sem_vinculo", "art. 6º VII: no declaration of no employment", {"operator.no_other_job_declaration": False})
SEM = {"id": "sap.inf.sem_alvara", "amount": DEC, "measures": [{"kind": "remocao", "days": None}]}
b.case("art. 27: found without alvará → removal + fine of the Código Tributário (unconfigured); validity rules not applicable",
       set={"permit.exists": False},
       expected={"failed": [F("sap.req.alvara_existente", ["sap.inf.sem_alvara"])], "infractions": [dict(SEM, triggered_by=["sap.req.alvara_existente"])],
                 "escalations": [], "undecided": [UA("sem_alvara"), U_DL]})
b.case("art. 27: alvará cassado counts as no alvará", set={"permit.status": "cassado"},
       expected={"failed": [F("sap.req.alvara_ativo", ["sap.inf.sem_alvara"])], "infractions": [dict(SEM, triggered_by=["sap.req.alvara_ativo"])]})
b.case("art. 10 § 1º: alvará valid through today passes", set={"permit.valid_until": "2025-06-10"}, expected={"failed": []})
VENC = {"id": "sap.inf.alvara_vencido", "amount": DEC, "measures": [{"kind": "suspensao", "days": 30, "starts": "fim_prazo_renovacao", "due": None}]}
CAD = {"id": "sap.inf.alvara_caducado", "amount": DEC, "measures": [{"kind": "remocao", "days": None}]}
UA_CAD = {"kind": "infraction", "id": "sap.inf.alvara_caducado", "reason": "unconfigured_amount", "config_key": "sapezal.multa.sem_alvara"}
b.case("art. 10 § 2º: 1 day after expiry → suspended automatically, fine (unconfigured), 30 days to regularize",
       set={"permit.valid_until": "2025-06-09"},
       expected={"failed": [F("sap.req.alvara_renovado", ["sap.inf.alvara_vencido"])], "infractions": [dict(VENC, triggered_by=["sap.req.alvara_renovado"])],
                 "escalations": [], "undecided": [UA("alvara_vencido"), U_DL]})
b.case("art. 10 § 2º: day 30 after expiry → still only suspended", set={"permit.valid_until": "2025-05-11"},
       expected={"failed": [F("sap.req.alvara_renovado", ["sap.inf.alvara_vencido"])], "infractions": [{"id": "sap.inf.alvara_vencido"}]})
b.case("art. 10 § 2º (issue 7, specific over general): day 31 after expiry → lapsed: one infraction (caducado = sem alvará, removal), not also 'vencido'; one fine, no inabilitação",
       set={"permit.valid_until": "2025-05-10"},
       expected={"failed": [F("sap.req.alvara_renovado", []), F("sap.req.alvara_nao_caducado", ["sap.inf.alvara_caducado"])],
                 "infractions": [dict(CAD, triggered_by=["sap.req.alvara_nao_caducado"])],
                 "displaced": [{"id": "sap.inf.alvara_vencido", "by": "sap.inf.alvara_caducado"}],
                 "escalations": [], "undecided": [UA_CAD, U_DL]})
# Later stops: the other documents kept in force, so that only the alvará is at stake.
LATER = {"insurance.valid_until": "2030-12-31", "vehicle.inspection_valid_until": "2030-12-31", "vehicle.manufacture_year": 2026}
b.case("art. 10 § 2º + CC art. 132 § 1º (issue 19): expired Friday 31/03/2028, the 30th day is Sunday 30/04 and 01/05 a holiday → Tuesday 02/05/2028 is still the last day to regularize",
       date="2028-05-02", set=dict(LATER, **{"permit.valid_until": "2028-03-31", "permit.issued_on": "2027-04-01"}),
       expected={"failed": [F("sap.req.alvara_renovado", ["sap.inf.alvara_vencido"])], "infractions": [{"id": "sap.inf.alvara_vencido"}]})
b.case("art. 10 § 2º + CC art. 132 § 1º (issue 19): that alvará lapses on Wednesday 03/05/2028",
       date="2028-05-03", set=dict(LATER, **{"permit.valid_until": "2028-03-31", "permit.issued_on": "2027-04-01"}),
       expected={"failed": [F("sap.req.alvara_renovado", []), F("sap.req.alvara_nao_caducado", ["sap.inf.alvara_caducado"])],
                 "infractions": [dict(CAD, triggered_by=["sap.req.alvara_nao_caducado"])]})
b.case("art. 10 § 2º + CC art. 132 § 1º (issue 19): a municipal holiday recorded on Thursday 30/04/2026 (the 30th day after 31/03/2026), then 01/05 and the weekend → still suspended on Monday 04/05/2026",
       date="2026-05-04", set=dict(LATER, **{"permit.valid_until": "2026-03-31", "permit.issued_on": "2025-04-01"}),
       calendar={"closures": [{"date": "2026-04-30", "kind": "feriado_religioso", "name_pt": "Feriado municipal", "act": "Lei municipal"}]},
       expected={"failed": [F("sap.req.alvara_renovado", ["sap.inf.alvara_vencido"])], "infractions": [{"id": "sap.inf.alvara_vencido"}]})
b.case("art. 10 § 2º (issue 19): without that closure the same alvará lapsed on Friday 01/05/2026 (30/04 had office hours)",
       date="2026-05-04", set=dict(LATER, **{"permit.valid_until": "2026-03-31", "permit.issued_on": "2025-04-01"}),
       expected={"failed": [F("sap.req.alvara_renovado", []), F("sap.req.alvara_nao_caducado", ["sap.inf.alvara_caducado"])],
                 "infractions": [dict(CAD, triggered_by=["sap.req.alvara_nao_caducado"])]})
b.case("art. 10 § 2º (issue 19): without a calendar the last day cannot be known on day 31 → caducidade undecided, the calendar named among the missing facts",
       date="2028-05-01", set=dict(LATER, **{"permit.valid_until": "2028-03-31", "permit.issued_on": "2027-04-01"}), calendar=False,
       expected={"failed": [F("sap.req.alvara_renovado", ["sap.inf.alvara_vencido"])],
                 "undecided": [{"kind": "requirement", "id": "sap.req.alvara_nao_caducado", "reason": "missing_fact", "facts": ["$calendar"]},
                               UA("alvara_vencido"), U_DL]})
b.case("art. 10 § 2º over art. 27 (issue 7): expired 5 days ago and the registry marks it suspended → only 'vencido', not also 'sem alvará'",
       set={"permit.valid_until": "2025-06-05", "permit.status": "suspenso"},
       expected={"failed": [F("sap.req.alvara_ativo", []), F("sap.req.alvara_renovado", ["sap.inf.alvara_vencido"])],
                 "infractions": [dict(VENC, triggered_by=["sap.req.alvara_renovado"])],
                 "displaced": [{"id": "sap.inf.sem_alvara", "by": "sap.inf.alvara_vencido"}],
                 "escalations": [], "undecided": [UA("alvara_vencido"), U_DL]})
b.case("art. 26 (issue 19, default reading 'uma'): two fines proposed in one stop, no applied penalty before → one autuação counts once: no inabilitação notice at all",
       set={"driver.footwear_ok": False, "vehicle.headlight_on": False},
       expected={"infractions": [{"id": "sap.inf.farol_baixo"}, {"id": "sap.inf.calcado"}], "escalations": []})
b.case("art. 26 (issue 19, option 'cada'): two fines of one stop count apart → only a notice, worded so that it is not a disqualification",
       set={"driver.footwear_ok": False, "vehicle.headlight_on": False},
       config_overrides={"options": {"sapezal.inabilitacao_multas_de_um_auto": "cada"}},
       expected={"infractions": [{"id": "sap.inf.farol_baixo"}, {"id": "sap.inf.calcado"}],
                 "escalations": [{"id": "sap.inabilitacao", "penalty": "multa", "prior": 0, "current": 2, "count": 2, "status": "would_reach",
                                  "notice_pt": "aviso — não é inabilitação agora: se esta autuação for confirmada, serão 2 multas em 12 meses (0 já aplicada(s), 2 desta autuação); inabilitação só depois da decisão definitiva"}]})
H2 = [{"infraction": "sap.inf.farol_baixo", "date": "2025-01-10", "auto": "A1"}, {"infraction": "sap.inf.calcado", "date": "2025-04-02", "auto": "A2"}]
b.case("art. 26 (issue 19): two fines applied in the last year disqualify by history alone — a clean stop still shows the inabilitação (reached)",
       history=H2,
       expected={"failed": [], "infractions": [], "escalations": [{"id": "sap.inabilitacao", "penalty": "multa", "prior": 2, "current": 0, "count": 2,
                                                                   "status": "reached", "notice_pt": None, "measure": {"kind": "inabilitacao"}}]})
b.case("art. 26 (issue 19): the curso de reabilitação (2025-04-05) ends it — fines committed on or before it no longer count",
       set={"operator.rehabilitation_course_on": "2025-04-05"}, history=H2, expected={"failed": [], "escalations": []})
b.case("art. 26 (issue 19): a course taken before the second fine ends only what came before it → 1 fine in the window, a clean stop shows nothing",
       set={"operator.rehabilitation_course_on": "2025-02-01"}, history=H2, expected={"escalations": []})
b.case("art. 26 (issue 19, default 'uma'): two fines of ONE earlier auto count once → not reached by history alone",
       history=[{"infraction": "sap.inf.farol_baixo", "date": "2025-04-02", "auto": "A1"}, {"infraction": "sap.inf.calcado", "date": "2025-04-02", "auto": "A1"}],
       expected={"escalations": []})
b.case("art. 26 (issue 19, option 'cada'): two fines of one earlier auto count apart → reached",
       history=[{"infraction": "sap.inf.farol_baixo", "date": "2025-04-02", "auto": "A1"}, {"infraction": "sap.inf.calcado", "date": "2025-04-02", "auto": "A1"}],
       config_overrides={"options": {"sapezal.inabilitacao_multas_de_um_auto": "cada"}},
       expected={"escalations": [{"id": "sap.inabilitacao", "prior": 2, "current": 0, "status": "reached"}]})
b.case("art. 26 (issue 7): a fine still under appeal (state pending) is not an applied penalty → no notice, no count",
       set={"driver.footwear_ok": False},
       history=[{"infraction": "sap.inf.farol_baixo", "date": "2025-03-10", "state": "pending"}],
       expected={"escalations": []})
b.case("art. 26 (issue 7): an annulled fine never counts",
       set={"driver.footwear_ok": False},
       history=[{"infraction": "sap.inf.farol_baixo", "date": "2025-03-10", "state": "annulled", "applied_on": "2025-04-10"}],
       expected={"escalations": []})
b.case("art. 26 (issue 7): a fine applied (appeal decided) after today's date does not count yet",
       set={"driver.footwear_ok": False},
       history=[{"infraction": "sap.inf.farol_baixo", "date": "2025-03-10", "state": "applied", "applied_on": "2025-06-11"}],
       expected={"escalations": []})
b.case("art. 26 (issue 7): two fines applied in the year + one now → the limit is reached by applied penalties",
       set={"driver.footwear_ok": False},
       history=[{"infraction": "sap.inf.farol_baixo", "date": "2025-01-10", "state": "applied", "applied_on": "2025-02-10"},
                {"infraction": "sap.inf.retrovisores", "date": "2025-03-10", "state": "applied", "applied_on": "2025-04-10"}],
       expected={"escalations": [{"id": "sap.inabilitacao", "penalty": "multa", "prior": 2, "current": 1, "status": "reached", "notice_pt": None}]})
b.case("history entry with an unknown state is refused",
       set={"driver.footwear_ok": False}, history=[{"infraction": "sap.inf.farol_baixo", "date": "2025-03-10", "state": "confirmado"}],
       expected={"error": {"code": "history_error", "index": 0, "reason": "invalid_state"}})
b.case("art. 21 (issue 7): picking up a passenger at a stop of passenger cars ('veículos de passeio') is forbidden too",
       set={"pickup.at_official_stop": True},
       expected={"failed": [F("sap.req.ponto_oficial_embarque", ["sap.inf.ponto_oficial"])], "infractions": [{"id": "sap.inf.ponto_oficial"}]})
b.case("art. 9º III (issue 7): alvará without the taxpayer number fails the registry check, proposes no fine",
       set={"permit.taxpayer_number_recorded": False},
       expected={"failed": [F("sap.req.alvara_inscricao_contribuinte", [])], "infractions": []})
P99 = {"permit.issued_on": "1999-12-15", "permit.valid_until": "2000-12-31"}
b.case("art. 11 § 2º: permit issued in 1999 still valid on 2000-03-31", date="2000-03-31", set=P99, expected={"failed": []})
b.case("art. 11 § 2º: permit issued in 1999 expired on 2000-04-01 even if the registry says later", date="2000-04-01", set=P99,
       expected={"failed": [F("sap.req.alvara_1999", ["sap.inf.alvara_vencido"])], "infractions": [{"id": "sap.inf.alvara_vencido"}]})
b.case("art. 11 § 2º + art. 10 § 2º (issue 19): a 1999 alvará on 02/05/2000 — 30th day after 31/03/2000 was Sunday 30/04, 01/05 a holiday (CC art. 132 § 1º) — is still only suspended",
       date="2000-05-02", set=P99,
       expected={"failed": [F("sap.req.alvara_1999", ["sap.inf.alvara_vencido"])], "infractions": [{"id": "sap.inf.alvara_vencido"}]})
b.case("art. 11 § 2º + art. 10 § 2º (issue 19): a 1999 alvará lapses on 03/05/2000 whatever validity the registry shows: caducado, not also vencido",
       date="2000-05-03", set=P99,
       expected={"failed": [F("sap.req.alvara_1999", []), F("sap.req.alvara_1999_nao_caducado", ["sap.inf.alvara_caducado"])],
                 "infractions": [dict(CAD, triggered_by=["sap.req.alvara_1999_nao_caducado"])],
                 "displaced": [{"id": "sap.inf.alvara_vencido", "by": "sap.inf.alvara_caducado"}]})
b.case("art. 11 § 2º: a permit issued in 2000 is not affected", date="2000-04-01",
       set={"permit.issued_on": "2000-01-10", "permit.valid_until": "2001-03-31"}, expected={"failed": []})
b.case("art. 12 I: red plate but plated elsewhere → only the municipal rule fails", set={"vehicle.plated_in_municipality": False},
       expected={"failed": [F("sap.req.aluguel_detran_mt", ["sap.inf.aluguel_detran_mt"])], "infractions": [{"id": "sap.inf.aluguel_detran_mt"}]})
b.case("art. 12 I + Res. 943 art. 2º: no red plate fails both", set={"vehicle.red_plate": False},
       expected={"failed": [F("fed.req.categoria_aluguel", ["fed.inf.ctb244_ix"]), F("sap.req.aluguel_detran_mt", ["sap.inf.aluguel_detran_mt"])]})
one("retrovisores", "art. 12 II: one mirror", {"equipment.mirrors_count": 1})
one("capacetes_a_bordo", "art. 12 III: one helmet on board", {"equipment.helmets_on_board": 1})
one("identificacao_ponto_alvara", "art. 12 IV: no ponto/alvará identification", {"vehicle.ponto_permit_displayed": False})
b.case("art. 12 V + Res. 943 art. 3º I: no front mata-cachorro", set={"equipment.mata_cachorro": False},
       expected={"failed": [F("fed.req.protetor_motor_pernas", ["fed.inf.ctb244_ix"]), F("sap.req.mata_cachorro_dianteiro", ["sap.inf.mata_cachorro_dianteiro"])],
                 "infractions": [{"id": "fed.inf.ctb244_ix"}, {"id": "sap.inf.mata_cachorro_dianteiro"}]})
one("mata_cachorro_traseiro", "art. 12 V: no rear mata-cachorro", {"equipment.mata_cachorro_rear": False})
b.case("art. 12 V + Res. 943 art. 3º III: no passenger handle", set={"equipment.grab_handle": False},
       expected={"failed": [F("fed.req.dispositivo_passageiro", ["fed.inf.ctb244_ix"]), F("sap.req.alca_seguranca", ["sap.inf.alca_seguranca"])],
                 "infractions": [{"id": "fed.inf.ctb244_ix"}, {"id": "sap.inf.alca_seguranca"}]})
b.case("art. 12 V: foot protector of exactly 10 cm passes", set={"equipment.foot_protector_cm": 10}, expected={"failed": []})
one("protetor_pe", "art. 12 V: foot protector of 9.5 cm fails", {"equipment.foot_protector_cm": 9.5})
one("encosto", "art. 12 V: no backrest", {"equipment.passenger_backrest": False})
one("capacidade_peso", "art. 12 VI: over the manufacturer's weight capacity", {"vehicle.within_weight_capacity": False})
one("protetor_escapamento", "art. 12 VII: no exhaust protector", {"equipment.exhaust_protector": False})
b.case("art. 13: passenger aged exactly 10 passes", set={"passenger.age_years": 10}, expected={"failed": []})
one("idade_minima_passageiro", "art. 13: passenger aged 9 fails", {"passenger.age_years": 9})
one("farol_baixo", "art. 13 § 1º: low beam off", {"vehicle.headlight_on": False})
one("passageiro_embriagado", "art. 13 § 2º: visibly drunk passenger", {"passenger.intoxicated": True})
b.case("art. 13 § 2º: backpack of exactly 5 kg passes", set={"passenger.baggage_kg": 5}, expected={"failed": []})
one("bagagem", "art. 13 § 2º: backpack of 5.1 kg fails", {"passenger.baggage_kg": 5.1})
one("bagagem", "art. 13 § 2º: shoulder bag is not backpack-type", {"passenger.baggage_kind": "sacola_tiracolo", "passenger.baggage_kg": 1})
b.case("art. 13 § 2º: no baggage and no weight recorded passes", set={"passenger.baggage_kind": "nenhuma", "passenger.baggage_kg": None},
       expected={"failed": []})
one("vistoria", "art. 14: vistoria expired", {"vehicle.inspection_valid_until": "2025-06-09"})
one("capacete_condutor", "art. 16 I: driver helmet without INMETRO seal", {"driver.helmet_inmetro": False})
b.case("art. 16 II + Lei 12.009 art. 2º IV: vest not reflective fails both", set={"driver.vest_retroreflective": False},
       expected={"failed": [F("fed.req.colete_retrorrefletivo", ["fed.inf.ctb244_ix"]), F("sap.req.colete", ["sap.inf.colete"])]})
one("colete", "art. 16 II: vest without ponto and alvará number", {"driver.vest_shows_ponto_permit": False})
one("cnh_documentos", "art. 16 III: CNH not carried", {"driver.carries_cnh": False})
one("calcado", "art. 16 IV: inadequate footwear", {"driver.footwear_ok": False})
one("capacete_passageiro", "art. 17 I: passenger without helmet", {"passenger.helmet": False})
one("protetor_chuva", "art. 17 II: raining, rain protector not yellow",
    {"context.raining": True, "passenger.rain_protection": True, "passenger.rain_protection_yellow": False})
b.case("art. 17 II: not raining → rain protector not applicable", set={"passenger.rain_protection": False}, expected={"failed": []})
one("ponto_oficial", "art. 21: parked at an official taxi/bus stop", {"parking.at_official_stop": True})
one("aliciamento", "art. 21: touting passengers", {"conduct.soliciting": True})
one("conservacao", "art. 22 I: vehicle not kept in good condition", {"vehicle.condition_ok": False})
one("urbanidade", "art. 22 II: rude to users", {"conduct.rude": True})
one("recusa", "art. 22 III: refused a passenger", {"conduct.refused_passenger": True})
one("manobras", "art. 22 IV: abrupt manoeuvres", {"conduct.unsafe_driving": True})
one("percurso", "art. 22 V: longer route", {"conduct.detour": True})
one("equipamentos", "art. 22 VII: not using the required equipment", {"conduct.not_using_equipment": True})
one("documentacao_valida", "art. 22 VIII: vehicle documents expired", {"vehicle.documents_valid": False})
one("ordem_ponto", "art. 22 IX: ignored the ponto queue", {"conduct.ignored_ponto_order": True})
one("fiscalizacao", "art. 22 X: obstructed the inspection", {"conduct.obstructed_inspection": True})
one("alcool", "art. 22 XI: signs of alcohol", {"driver.intoxicated": True})
b.case("art. 22 XII: pickup exactly 100 m from another taxi stand passes", set={"pickup.distance_to_taxi_stand_m": 100}, expected={"failed": []})
one("distancia_ponto_taxi", "art. 22 XII: pickup 99 m from another taxi stand fails", {"pickup.distance_to_taxi_stand_m": 99})
one("informa_tarifa", "art. 22 XIV: fare not informed", {"conduct.fare_not_informed": True})
# amounts by decree (art. 24), recidivism (art. 29), disqualification (art. 26)
D50 = {"decree_amounts": {"sapezal.multa.calcado": [{"valid_from": "2025-01-01", "unit": "BRL", "value": 50, "decree": "Decreto nº 5/2025"}]}}
b.case("art. 24: amount configured by decree (R$ 50,00)", set={"driver.footwear_ok": False}, config_overrides=D50,
       expected={"infractions": [{"id": "sap.inf.calcado", "amount": {"basis": "decree", "unit": "BRL", "value": 50, "brl_cents": 5000, "decree": "Decreto nº 5/2025"}}],
                 "undecided": [U_DL]})
b.case("art. 24: a decree row dated after the inspection is not used", set={"driver.footwear_ok": False},
       config_overrides={"decree_amounts": {"sapezal.multa.calcado": [{"valid_from": "2025-07-01", "unit": "BRL", "value": 50}]}},
       expected={"infractions": [{"id": "sap.inf.calcado", "amount": DEC}], "undecided": [UA("calcado"), U_DL]})
HC = [{"infraction": "sap.inf.calcado", "date": "2025-01-10"}]
b.case("art. 29 + art. 26: window configured (6 months), prior same fine → doubled to R$ 100; second fine in a year → inabilitação",
       set={"driver.footwear_ok": False}, history=HC,
       config_overrides=dict(D50, periods={"sapezal.recidivism_window": {"months": 6}}),
       expected={"infractions": [{"id": "sap.inf.calcado", "amount": {"value": 100, "brl_cents": 10000},
                                  "recidivism": {"applied": True, "prior_count": 1, "window_from": "2024-12-10"}}],
                 "escalations": [{"id": "sap.inabilitacao", "penalty": "multa", "prior": 1, "current": 1, "count": 2, "status": "would_reach",
                                  "notice_pt": NOTICE2, "window_from": "2024-06-10", "window_to": "2025-06-10"}]})
b.case("art. 29: window not configured → recidivism undecided, amount not doubled", set={"driver.footwear_ok": False}, history=HC,
       config_overrides=D50,
       expected={"infractions": [{"id": "sap.inf.calcado", "amount": {"value": 50}, "recidivism": {"applied": None}}],
                 "undecided": [{"kind": "infraction", "id": "sap.inf.calcado", "reason": "unconfigured_window", "config_key": "sapezal.recidivism_window"}, U_DL]})
b.case("art. 26: prior fine 1 year + 1 day ago is outside the year → no inabilitação", set={"driver.footwear_ok": False},
       history=[{"infraction": "sap.inf.calcado", "date": "2024-06-09"}],
       config_overrides=dict(D50, periods={"sapezal.recidivism_window": {"years": 2}}),
       expected={"infractions": [{"id": "sap.inf.calcado", "amount": {"value": 100}, "recidivism": {"applied": True}}], "escalations": []})
b.case("art. 26: prior fine exactly 1 year ago counts", set={"driver.footwear_ok": False},
       history=[{"infraction": "sap.inf.farol_baixo", "date": "2024-06-10"}],
       expected={"infractions": [{"id": "sap.inf.calcado", "recidivism": {"applied": False}}],
                 "escalations": [{"id": "sap.inabilitacao", "penalty": "multa", "prior": 1, "current": 1, "status": "would_reach", "notice_pt": NOTICE2}]})
b.case("art. 26: two earlier written warnings + a fine now → neither 3 warnings nor 2 fines", set={"driver.footwear_ok": False},
       history=[{"infraction": "sap.inf.calcado", "date": "2025-01-10", "penalty": "advertencia"},
                {"infraction": "sap.inf.farol_baixo", "date": "2025-03-10", "penalty": "advertencia"}],
       expected={"escalations": []})
b.case("art. 24 + art. 26 with $penalties: two earlier written warnings + a warning chosen now → 3 warnings in a year → inabilitação",
       set={"driver.footwear_ok": False, "$penalties": {"sap.inf.calcado": "advertencia"}},
       history=[{"infraction": "sap.inf.calcado", "date": "2025-01-10", "penalty": "advertencia"},
                {"infraction": "sap.inf.farol_baixo", "date": "2025-03-10", "penalty": "advertencia"}],
       expected={"infractions": [{"id": "sap.inf.calcado", "penalty": {"kind": "advertencia", "default": "multa", "chosen": True}, "amount": None}],
                 "escalations": [{"id": "sap.inabilitacao", "penalty": "advertencia", "prior": 2, "current": 1, "count": 3, "status": "would_reach",
                                  "notice_pt": "aviso — não é inabilitação agora: se esta autuação for confirmada, serão 3 advertências em 12 meses (2 já aplicada(s), 1 desta autuação); inabilitação só depois da decisão definitiva"}]})
b.case("art. 26 with $penalties: a prior suspension and a suspension chosen now → 'reincidente em suspensão'",
       set={"driver.footwear_ok": False, "$penalties": {"sap.inf.calcado": "suspensao"}},
       history=[{"infraction": "sap.inf.farol_baixo", "date": "2025-02-10", "penalty": "suspensao"}],
       expected={"escalations": [{"id": "sap.inabilitacao", "penalty": "suspensao", "prior": 1, "current": 1, "count": 2, "status": "would_reach",
                                  "notice_pt": "aviso — não é inabilitação agora: se esta autuação for confirmada, serão 2 suspensões em 12 meses (1 já aplicada(s), 1 desta autuação); inabilitação só depois da decisão definitiva"}]})
b.case("art. 32: the day before the law nothing applies", date="1999-11-21", set={"driver.footwear_ok": False},
       expected={"failed": [], "deadlines": []})
b.case("art. 31-32: on 1999-11-22 the law applies; 90-day regulation deadline listed", date="1999-11-22", set={"driver.footwear_ok": False},
       expected={"failed": [F("sap.req.calcado", ["sap.inf.calcado"])],
                 "deadlines": DL + [{"id": "sap.prazo.regulamentacao", "kind": "outro", "days": 90, "starts": "publicacao"}]})
# --- impossible numbers are refused, naming the fact, the type and the range (issue 7, item 4) ---
CC = {"type": "number", "min": 0, "max": None, "integer": False, "unit": "cc"}
b.case("facts (issue 7): 1e400 cc (Infinity once parsed) is refused, naming the fact and the expected range",
       set={"vehicle.engine_cc": HUGE},
       expected={"error": {"code": "fact_error", "fact": "vehicle.engine_cc", "reason": "not_finite", "expected": CC}})
b.case("facts (issue 7): a negative displacement is refused", set={"vehicle.engine_cc": -150},
       expected={"error": {"code": "fact_error", "fact": "vehicle.engine_cc", "reason": "out_of_range", "expected": CC}})
b.case("facts (issue 7): a negative passenger age is refused", set={"passenger.age_years": -1},
       expected={"error": {"code": "fact_error", "fact": "passenger.age_years", "reason": "out_of_range",
                           "expected": {"type": "number", "min": 0, "max": None, "integer": False, "unit": "anos"}}})
b.case("facts (issue 7): 1.5 passengers is refused (a count is an integer)", set={"passenger.count": 1.5},
       expected={"error": {"code": "fact_error", "fact": "passenger.count", "reason": "not_integer",
                           "expected": {"type": "number", "min": 0, "integer": True}}})
b.case("facts (issue 7): a manufacture year before 1900 is refused", set={"vehicle.manufacture_year": 25},
       expected={"error": {"code": "fact_error", "fact": "vehicle.manufacture_year", "reason": "out_of_range",
                           "expected": {"type": "number", "min": 1900, "integer": True}}})
b.case("facts (issue 7): a choice outside the allowed values names them", set={"passenger.baggage_kind": "mala"},
       expected={"error": {"code": "fact_error", "fact": "passenger.baggage_kind", "reason": "not_in_values",
                           "expected": {"type": "enum", "values": ["nenhuma", "mochila", "sacola_tiracolo", "pequeno_volume", "volume_medio_grande"]}}})
b.case("facts (issue 7): a yes/no answer given as a number names the expected type", set={"driver.helmet": 1},
       expected={"error": {"code": "fact_error", "fact": "driver.helmet", "reason": "wrong_type", "expected": {"type": "bool"}}})
b.write("law-sapezal.json")
