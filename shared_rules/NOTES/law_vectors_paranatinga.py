"""Hand-written vectors for Paranatinga Lei 311/2007 + Veto 002/2007 (see law_vectors_common.py).
UFIR at its last official value R$ 1,0641 (config default): 29→3086, 36→3831, 43→4576, 51→5427,
58→6172, 65→6917, 132→14046 cents; doubled 72→7662, 264→28092."""
from law_vectors_common import Builder, F, UFIR

b = Builder("paranatinga", ["paranatinga-lei-311-2007.json"], "law-paranatinga",
            "Paranatinga, Lei nº 311/2007 + Veto nº 002/2007: grupos de multa em UFIR (art. 50), reincidência em 3 meses (art. 49), inabilitação (art. 42 § ú), cancelamento do registro (art. 44), sem alvará (art. 45), regularização (art. 41), veto.")
VETO = {"kind": "requirement", "id": "par.req.idade_veiculo_7_anos", "reason": "vetoed_pending", "would_fail": False}
# art. 41 (issue 7): now a notice with a 10 (+10)-day deadline; cassação only if not regularized
A41 = {"id": "par.inf.art41_veiculo_irregular", "penalty": {"kind": "notificacao"}, "amount": None,
       "measures": [{"kind": "regularizacao", "days": 10, "extendable_days": 10, "starts": "notificacao", "due": None, "only_if_pt": None},
                    {"kind": "cassacao", "days": None, "starts": None, "due": None,
                     "only_if_pt": "somente se a moto não for regularizada no prazo (10 dias, prorrogáveis por mais 10)"}]}
NOTICE2 = "aviso — não é inabilitação agora: se esta autuação for confirmada, serão 2 multas em 12 meses (1 já aplicada(s), 1 desta autuação); inabilitação só depois da decisão definitiva"
A42 = {"id": "par.inf.art42_advertencia", "penalty": {"kind": "advertencia", "alternatives": ["suspensao", "cassacao"]}, "amount": None}
FED = {"id": "fed.inf.ctb244_ix", "jurisdiction": "snt"}
G = {"I": (29, 3086), "II": (36, 3831), "III": (43, 4576), "IV": (51, 5427), "V": (58, 6172), "VI": (65, 6917)}
def g(grp, item, trig=None, **kw):
    d = {"id": gid(grp, item), "group": grp, "item": item, "amount": UFIR(*G[grp]),
         "recidivism": {"rule": "par.reincidencia", "applied": False, "prior_count": 0}}
    if trig: d["triggered_by"] = trig
    d.update(kw); return d
def gid(grp, item): return "par.inf.g%d_%s" % ({"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6}[grp], item)
def one_g(req, grp, item, name, set, extra_inf=(), **kw):
    b.case(name, set=set, expected={"failed": [F("par.req." + req, [gid(grp, item)] + [x["id"] for x in extra_inf])],
                                    "infractions": [g(grp, item, ["par.req." + req])] + list(extra_inf),
                                    "escalations": [], "undecided": [VETO]}, **kw)
def one_42(req, name, set, **kw):
    b.case(name, set=set, expected={"failed": [F("par.req." + req, ["par.inf.art42_advertencia"])],
                                    "infractions": [dict(A42, triggered_by=["par.req." + req])], "escalations": [], "undecided": [VETO]}, **kw)
DL = [{"id": "par.prazo.recurso_secretario", "kind": "recurso", "days": 3, "starts": "notificacao", "instance_pt": "Secretário Municipal de Infra-estrutura"},
      {"id": "par.prazo.recurso_prefeito", "kind": "recurso", "days": 3, "starts": "decisao", "instance_pt": "Prefeito Municipal"},
      {"id": "par.prazo.regularizar_veiculo", "days": 10}, {"id": "par.prazo.moto_apos_selecao", "days": 90},
      {"id": "par.prazo.suplente", "days": 5}, {"id": "par.prazo.afastamento", "days": 30, "starts": "inicio_afastamento"}]
b.case("Baseline compliant; vetoed age limit shown as pending (would not fail); appeals 3 + 3 days (art. 48)",
       expected={"failed": [], "infractions": [], "escalations": [], "deadlines": DL, "undecided": [VETO]})
# --- art. 8º vehicle ---
b.case("art. 8º II: 125 cc passes", set={"vehicle.engine_cc": 125}, expected={"failed": []})
b.case("art. 8º II, default reading 'nominal' (issue 7): a CG 125 registered at 124.9 cc is a 125 → passes", set={"vehicle.engine_cc": 124.9},
       expected={"failed": [], "infractions": [], "undecided": [VETO]})
b.case("art. 8º II, reading 'nominal': 122 cc (class 120) → notice to regularize in 10 (+10) days; cassação only if not regularized (art. 41)",
       set={"vehicle.engine_cc": 122},
       expected={"failed": [F("par.req.cilindrada", ["par.inf.art41_veiculo_irregular"])], "infractions": [dict(A41, triggered_by=["par.req.cilindrada"])],
                 "escalations": [], "undecided": [VETO]})
b.case("art. 8º II, municipality reads 'medida': 124.9 cc fails", set={"vehicle.engine_cc": 124.9},
       config_overrides={"options": {"paranatinga.cc_125_reading": "medida"}},
       expected={"failed": [F("par.req.cilindrada", ["par.inf.art41_veiculo_irregular"])], "infractions": [A41]})
OPT = "paranatinga.art8_ii_cc_max_reading"
b.case("art. 8º II (erratum '250 (duzentas)'): 200 cc passes under both readings, option unset", set={"vehicle.engine_cc": 200},
       expected={"failed": [], "undecided": [VETO]})
b.case("art. 8º II (erratum): 220 cc with the reading not chosen → undecided, nothing proposed", set={"vehicle.engine_cc": 220},
       expected={"failed": [], "infractions": [],
                 "undecided": [{"kind": "requirement", "id": "par.req.cilindrada", "reason": "missing_fact", "facts": ["$option:" + OPT]}, VETO]})
b.case("art. 8º II (erratum): municipality reads 250 → 250 cc passes", set={"vehicle.engine_cc": 250},
       config_overrides={"options": {OPT: "250"}}, expected={"failed": [], "undecided": [VETO]})
b.case("art. 8º II (erratum): municipality reads 200 ('duzentas') → 220 cc fails", set={"vehicle.engine_cc": 220},
       config_overrides={"options": {OPT: "200"}},
       expected={"failed": [F("par.req.cilindrada", ["par.inf.art41_veiculo_irregular"])], "infractions": [A41]})
b.case("art. 8º II: 251 cc fails under either reading, even unconfigured", set={"vehicle.engine_cc": 251},
       expected={"failed": [F("par.req.cilindrada", ["par.inf.art41_veiculo_irregular"])]})
b.case("art. 8º III + Res. 943 art. 2º: no red plate → federal pointer, Group IV d (51 UFIR) and art. 41", set={"vehicle.red_plate": False},
       expected={"failed": [F("fed.req.categoria_aluguel", ["fed.inf.ctb244_ix"]), F("par.req.placa_vermelha", ["par.inf.g4_d", "par.inf.art41_veiculo_irregular"])],
                 "infractions": [FED, g("IV", "d", ["par.req.placa_vermelha"]), dict(A41, triggered_by=["par.req.placa_vermelha"])],
                 "escalations": [], "undecided": [VETO]})
b.case("art. 8º IV: two antennas of exactly 60 cm pass", set={"equipment.antenna_height_cm": 60}, expected={"failed": []})
one_g("antenas", "II", "a", "art. 8º IV: antenna of 59 cm → Group II a (36 UFIR) + art. 41", {"equipment.antenna_height_cm": 59}, extra_inf=[A41])
one_g("antenas", "II", "a", "art. 8º IV: only one antenna", {"equipment.antenna_count": 1}, extra_inf=[A41])
one_g("antenas", "II", "a", "art. 8º IV ('uma de cada lado do guidão', issue 7): two antennas on the same side", {"equipment.antennas_both_sides": False}, extra_inf=[A41])
b.case("Res. 943 art. 3º II only: 'no corta-pipa' answer fails the federal rule; Paranatinga measures count and height",
       set={"equipment.antenna_corta_pipa": False},
       expected={"failed": [F("fed.req.aparador_linha", ["fed.inf.ctb244_ix"])], "infractions": [FED]})
b.case("art. 8º V a + Res. 943 art. 3º III: no metal handle", set={"equipment.grab_handle": False},
       expected={"failed": [F("fed.req.dispositivo_passageiro", ["fed.inf.ctb244_ix"]), F("par.req.alca_metalica", ["par.inf.g2_a", "par.inf.art41_veiculo_irregular"])],
                 "infractions": [FED, g("II", "a", ["par.req.alca_metalica"]), A41]})
one_g("faixa_tanque", "I", "d", "art. 8º V b: stripe not 10×25 cm on both sides → Group I d (29 UFIR)", {"vehicle.tank_stripe_spec_ok": False}, extra_inf=[A41])
one_g("escapamento_isolado", "II", "a", "art. 8º V c: exhaust not insulated", {"equipment.exhaust_protector": False}, extra_inf=[A41])
b.case("art. 8º V c and e: two missing vehicle items propose Group II a once, triggered by both", 
       set={"equipment.exhaust_protector": False, "equipment.mata_cachorro": False},
       expected={"failed": [F("fed.req.protetor_motor_pernas", ["fed.inf.ctb244_ix"]),
                            F("par.req.escapamento_isolado", ["par.inf.g2_a", "par.inf.art41_veiculo_irregular"]),
                            F("par.req.mata_cachorro", ["par.inf.g2_a", "par.inf.art41_veiculo_irregular"])],
                 "infractions": [FED, g("II", "a", ["par.req.escapamento_isolado", "par.req.mata_cachorro"]),
                                 dict(A41, triggered_by=["par.req.escapamento_isolado", "par.req.mata_cachorro"])],
                 "escalations": []})
# --- Veto 002/2007 ---
b.case("Veto 002/2007 pending: 8-year-old motorcycle → shown as would-fail, not enforced", set={"vehicle.manufacture_year": 2017},
       expected={"failed": [], "infractions": [], "undecided": [dict(VETO, would_fail=True, facts=[])]})
b.case("Veto 002/2007 upheld: provision ignored", set={"vehicle.manufacture_year": 2017},
       config_overrides={"options": {"paranatinga.veto_002_2007_outcome": "veto_upheld"}},
       expected={"failed": [], "infractions": [], "undecided": []})
b.case("Veto 002/2007 overridden: exactly 7 years of use passes", set={"vehicle.manufacture_year": 2018},
       config_overrides={"options": {"paranatinga.veto_002_2007_outcome": "veto_overridden"}},
       expected={"failed": [], "undecided": []})
b.case("Veto 002/2007 overridden: 8 years of use → art. 41 regularization", set={"vehicle.manufacture_year": 2017},
       config_overrides={"options": {"paranatinga.veto_002_2007_outcome": "veto_overridden"}},
       expected={"failed": [F("par.req.idade_veiculo_7_anos", ["par.inf.art41_veiculo_irregular"])], "infractions": [A41], "undecided": []})
b.case("Veto 002/2007 pending, vehicle year unknown → would_fail null, facts listed", drop=("vehicle.manufacture_year",),
       expected={"failed": [], "undecided": [dict(VETO, would_fail=None, facts=["vehicle.manufacture_year"])]})
b.case("art. 9º: poor condition → art. 41 only", set={"vehicle.condition_ok": False},
       expected={"failed": [F("par.req.conservacao", ["par.inf.art41_veiculo_irregular"])], "infractions": [A41]})
one_g("freios", "II", "d", "art. 9º: brakes failing → Group II d", {"equipment.brakes_ok": False})
one_g("vistoria_periodica", "V", "b", "art. 9º: vistoria expired → Group V b (58 UFIR)", {"vehicle.inspection_valid_until": "2025-06-09"})
b.case("art. 9º: vistoria valid through today passes", set={"vehicle.inspection_valid_until": "2025-06-10"}, expected={"failed": []})
one_g("documentacao_veiculo", "II", "i", "art. 8º I: vehicle documents out of date → Group II i", {"vehicle.documents_valid": False})
# --- art. 11 duties ---
one_g("direcao_segura", "I", "f", "art. 11 VI/IX: abrupt starts → Group I f", {"conduct.unsafe_driving": True})
one_g("recusa", "IV", "b", "art. 11 VII: refused a passenger → Group IV b", {"conduct.refused_passenger": True})
b.case("art. 11 VIII: exactly 30 km/h in town passes", set={"conduct.speed_kmh": 30}, expected={"failed": []})
one_42("velocidade", "art. 11 VIII: 31 km/h in town → warning (no Group item)", {"conduct.speed_kmh": 31})
b.case("art. 11 VIII: exactly 60 km/h on the road passes", set={"context.urban": False, "conduct.speed_kmh": 60, "context.speed_limit_kmh": 80},
       expected={"failed": []})
one_42("velocidade", "art. 11 VIII: 61 km/h on the road fails", {"context.urban": False, "conduct.speed_kmh": 61, "context.speed_limit_kmh": 80})
one_42("velocidade", "art. 11 VIII: 25 km/h where the sign says 20 fails ('respeitando os limites legais')", {"conduct.speed_kmh": 25, "context.speed_limit_kmh": 20})
# issue 34: the speed questions are asked only when the fiscal measured it (declared reading, LEGAL.md)
b.case("art. 11 VIII: speed not measured at this stop (context.speed_measured false) → not applicable, nothing undecided but the veto",
       set={"context.speed_measured": False}, drop=("conduct.speed_kmh", "context.speed_limit_kmh", "context.urban"),
       expected={"failed": [], "infractions": [], "undecided": [VETO]})
one_g("cracha", "II", "g", "art. 11 XV: no badge → Group II g", {"driver.carries_badge": False})
one_42("identidade_cnh", "art. 11 XV: no CNH → warning", {"driver.carries_cnh": False})
one_42("maos_livres", "art. 11 XVI: object in hands", {"driver.object_in_hands": True})
b.case("art. 11 XVII: driver without helmet → Group VI e (65 UFIR); helmet colour/markings not applicable",
       set={"driver.helmet": False, "driver.helmet_yellow": False},
       expected={"failed": [F("par.req.capacete_condutor", ["par.inf.g6_e"])], "infractions": [g("VI", "e", ["par.req.capacete_condutor"])],
                 "escalations": [], "undecided": [VETO]})
one_g("capacete_condutor", "VI", "e", "art. 11 XVII: helmet without transparent visor", {"driver.helmet_visor": False})
one_42("capacete_amarelo", "art. 11 § 1º: helmet not yellow → warning", {"driver.helmet_yellow": False})
b.case("art. 11 XVII and § 1º: helmet without alvará number/blood type fails both marking rules → one warning",
       set={"driver.helmet_marked": False},
       expected={"failed": [F("par.req.capacete_inscricoes", ["par.inf.art42_advertencia"]), F("par.req.capacete_amarelo", ["par.inf.art42_advertencia"])],
                 "infractions": [dict(A42, triggered_by=["par.req.capacete_inscricoes", "par.req.capacete_amarelo"])]})
one_g("capacete_passageiro", "VI", "e", "art. 11 XVIII: passenger without helmet → Group VI e", {"passenger.helmet": False})
b.case("art. 11 § 1º ('todos os capacetes', issue 7): passenger helmet not yellow → art. 42 written warning",
       set={"passenger.helmet_yellow": False},
       expected={"failed": [F("par.req.capacete_passageiro_amarelo", ["par.inf.art42_advertencia"])],
                 "infractions": [dict(A42, triggered_by=["par.req.capacete_passageiro_amarelo"])]})
b.case("art. 11 § 1º: passenger helmet without the permit holder's number → art. 42 written warning",
       set={"passenger.helmet_marked": False},
       expected={"failed": [F("par.req.capacete_passageiro_amarelo", ["par.inf.art42_advertencia"])]})
one_g("protecao_chuva", "VI", "e", "art. 11 XVIII: raining, no rain protection for the passenger", {"context.raining": True, "passenger.rain_protection": False})
one_g("toucas", "VI", "e", "art. 11 XIX: no toucas", {"equipment.toucas": False})
b.case("art. 11 XX + art. 43 + art. 50 VI b: drunk → 65 UFIR, immediate cassação, definitive removal", set={"driver.intoxicated": True},
       expected={"failed": [F("par.req.alcool", ["par.inf.g6_b"])],
                 "infractions": [g("VI", "b", ["par.req.alcool"], measures=[{"kind": "cassacao_imediata"}, {"kind": "afastamento_definitivo"}])]})
one_42("arma", "art. 11 XXI: armed", {"driver.armed": True})
one_42("documentos_tabela", "art. 11 XXIII: no authenticated fare table", {"driver.carries_fare_table": False})
# art. 11 XXII + art. 50 VI c (issue 11): the fiscal compares the fare charged with the decree's table (art. 35)
G6C_CIT = {"law": "L311", "art": "50", "inciso": "VI", "alinea": "c", "text": "Cobrar tarifa superior ou inferior ao estabelecido em lei"}
b.case("art. 11 XXII / art. 50 VI c: fare charged differs from the decree's table → Group VI c (65 UFIR), cited",
       set={"conduct.fare_off_table": True},
       expected={"failed": [{"requirement": "par.req.tarifa_tabela", "citation": {"law": "L311", "art": "11", "inciso": "XXII"},
                             "infractions": ["par.inf.g6_c"]}],
                 "infractions": [g("VI", "c", ["par.req.tarifa_tabela"], citation=G6C_CIT, label_pt="Grupo VI, c) Cobrar tarifa superior ou inferior ao estabelecido em lei",
                                   penalty={"kind": "multa", "default": "multa", "chosen": False})],
                 "escalations": [], "undecided": [VETO]})
b.case("art. 11 XXII: fare as in the table passes", set={"conduct.fare_off_table": False}, expected={"failed": [], "infractions": []})
b.case("art. 11 XXII: fare not observed ('não se aplica') → nothing proposed", set={"conduct.fare_off_table": "na"},
       expected={"failed": [], "infractions": [], "undecided": [VETO]})
b.case("art. 11 XXII: no passenger on board → the fare question does not apply, even if answered",
       set={"passenger.present": False, "conduct.fare_off_table": True}, expected={"failed": [], "infractions": []})
b.case("art. 11 XXII: fare not checked while carrying a passenger → undecided, nothing proposed",
       drop=("conduct.fare_off_table",),
       expected={"failed": [], "infractions": [],
                 "undecided": [VETO, {"kind": "requirement", "id": "par.req.tarifa_tabela", "reason": "missing_fact", "facts": ["conduct.fare_off_table"]}]})
b.case("art. 11 XXII + art. 49: off-table fare again within 3 months → 130 UFIR (double)",
       set={"conduct.fare_off_table": True}, history=[{"infraction": "par.inf.g6_c", "date": "2025-04-01"}],
       expected={"infractions": [{"id": "par.inf.g6_c", "amount": {"value": 130, "brl_cents": 13833},
                                  "recidivism": {"rule": "par.reincidencia", "applied": True, "prior_count": 1}}]})
one_42("issqn", "art. 11 XXIV: ISSQN late", {"operator.issqn_up_to_date": False})
one_g("colete", "VI", "e", "art. 11 XXV: vest without number and name", {"driver.vest_shows_number_name": False})
one_g("vestuario", "I", "b", "art. 11 XXVII: tank top/shorts → Group I b", {"driver.attire_ok": False})
one_g("urbanidade", "I", "a", "art. 11 XXVIII: rude → Group I a", {"conduct.rude": True})
b.case("art. 11 § 2º: shoulder bag is allowed baggage", set={"passenger.baggage_kind": "sacola_tiracolo"}, expected={"failed": []})
one_g("bagagem", "VI", "h", "art. 11 XXIX b: suitcase → Group VI h", {"passenger.baggage_kind": "volume_medio_grande"})
one_42("passageiro_embriagado", "art. 11 XXIX c: drunk passenger", {"passenger.intoxicated": True})
one_42("crianca_colo", "art. 11 XXIX d: child on the lap", {"passenger.child_on_lap": True})
b.case("art. 11 XXIX e: passenger aged exactly 7 passes", set={"passenger.age_years": 7}, expected={"failed": []})
one_g("idade_crianca", "VI", "g", "art. 11 XXIX e: passenger aged 6 → Group VI g", {"passenger.age_years": 6})
one_42("gestante", "art. 11 XXIX f: advanced pregnancy", {"passenger.advanced_pregnancy": True})
one_42("um_passageiro", "art. 16 I: two passengers", {"passenger.count": 2})
one_42("passageiro_maos", "art. 16 III: passenger's hands occupied", {"passenger.hands_occupied": True})
# --- registration (no infraction) and licence age ---
b.case("art. 7º VII: two licences → registration refusal, no roadside fine", set={"operator.licences_count": 2},
       expected={"failed": [F("par.req.licenca_unica", [])], "infractions": []})
for req, fact, value, label in [("titular_proprietario", "vehicle.registered_to_holder", False, "art. 6º (erratum: 'artigo 1º, III'): motorcycle not in the holder's name"),
                                ("sem_outra_atividade", "operator.no_other_job_declaration", False, "art. 7º I: no declaration of no other paid activity"),
                                ("certidao_criminal", "operator.criminal_certificate_ok", False, "art. 7º IV: no negative criminal certificate"),
                                ("eleitor", "operator.electoral_ok", False, "art. 7º V: not a voter in the municipality"),
                                ("residencia", "operator.resident_in_municipality", False, "art. 7º VIII: no fixed residence"),
                                ("inss_autonomo", "operator.inss_autonomo", False, "art. 11 XIII: no autonomous alvará/INSS"),
                                ("laudo_psicologico", "operator.psych_report_ok", False, "art. 11 XIV: no psychological report")]:
    b.case(label + " → registration refused, no roadside fine", set={fact: value},
           expected={"failed": [F("par.req." + req, [])], "infractions": [], "undecided": [VETO]})
b.case("art. 7º I-VI/VIII: registration conditions missing → refused, no fine",
       set={"operator.health_certificate_ok": False, "operator.military_ok": False},
       expected={"failed": [F("par.req.atestado_saude", []), F("par.req.militar", [])], "infractions": []})
OLD = {"operator.birth_date": "1970-01-01", "operator.cnh_first_issue_date": "2000-01-01"}
b.case("art. 7º II / 11 XII (2008): licence exactly 1 year old — 'há mais de 1 ano' fails, 'no mínimo 1 ano' passes",
       date="2008-06-10", set=dict(OLD, **{"operator.cnh_first_issue_date": "2007-06-10"}),
       expected={"failed": [F("par.req.habilitacao_1_ano", [])], "infractions": []})
b.case("art. 7º II / 11 XII on 2009-07-29: 1-year municipal rule still in force, federal 2-year rule not yet",
       date="2009-07-29", set=dict(OLD, **{"operator.cnh_first_issue_date": "2008-07-31"}),
       expected={"failed": [F("par.req.habilitacao_1_ano", []), F("par.req.habilitacao_minimo_1_ano", [])], "infractions": []})
b.case("Lei 12.009 art. 2º II from 2009-07-30: the stricter federal 2-year rule replaces the municipal one",
       date="2009-07-30", set=dict(OLD, **{"operator.cnh_first_issue_date": "2008-07-31"}),
       expected={"failed": [F("fed.req.habilitacao_2_anos", ["fed.inf.ctb244_ix"])], "infractions": [FED]})
b.case("Lei 12.009 art. 2º II: licence of 18 months in 2025 passes Paranatinga's old rule but fails the federal one",
       set={"operator.cnh_first_issue_date": "2023-12-10"},
       expected={"failed": [F("fed.req.habilitacao_2_anos", ["fed.inf.ctb244_ix"])], "infractions": [FED]})
# --- alvará / termo / insurance ---
b.case("art. 45: no alvará → 132 UFIR, seizure and removal", set={"permit.exists": False},
       expected={"failed": [F("par.req.alvara_existente", ["par.inf.art45_sem_alvara"])],
                 "infractions": [{"id": "par.inf.art45_sem_alvara", "amount": UFIR(132, 14046),
                                  "penalty": {"kind": "multa", "alternatives": []},
                                  "recidivism": {"rule": "par.reincidencia_art45", "applied": False},
                                  "measures": [{"kind": "apreensao"}, {"kind": "remocao"}]}],
                 "undecided": [VETO]})
b.case("art. 42 § único a (issue 19): three written warnings applied within a year disqualify by history alone, on a clean stop",
       history=[{"infraction": "par.inf.art42_advertencia", "date": d} for d in ("2024-08-01", "2024-12-01", "2025-05-01")],
       expected={"failed": [], "infractions": [], "escalations": [{"id": "par.inabilitacao", "penalty": "advertencia", "prior": 3, "current": 0,
                                                                   "count": 3, "status": "reached", "notice_pt": None}]})
b.case("art. 42 § único (issue 19): after the curso de reabilitação (2025-05-02) the same three warnings no longer disqualify",
       set={"operator.rehabilitation_course_on": "2025-05-02"},
       history=[{"infraction": "par.inf.art42_advertencia", "date": d} for d in ("2024-08-01", "2024-12-01", "2025-05-01")],
       expected={"escalations": []})
# art. 41 is addressed to the permissionário ("terá sua permissão cassada"): never to a driver
# with no alvará or a cassado one (issue 19, point 8) — the requirement still fails, art. 45 applies.
b.case("art. 41 only for a permit holder (issue 19): no alvará and a motorcycle in poor condition → art. 45, no 'regularize or lose the permit'",
       set={"permit.exists": False, "vehicle.condition_ok": False},
       expected={"failed": [F("par.req.conservacao", []), F("par.req.alvara_existente", ["par.inf.art45_sem_alvara"])],
                 "infractions": [{"id": "par.inf.art45_sem_alvara"}], "undecided": [VETO]})
b.case("art. 41 only for a permit holder (issue 19): alvará cassado and a motorcycle in poor condition → art. 45 only",
       set={"permit.status": "cassado", "vehicle.condition_ok": False},
       expected={"failed": [F("par.req.conservacao", []), F("par.req.alvara_nao_cassado", ["par.inf.art45_sem_alvara"])],
                 "infractions": [{"id": "par.inf.art45_sem_alvara"}], "undecided": [VETO]})
H45 = [{"infraction": "par.inf.art45_sem_alvara", "date": "2025-04-01"}]
b.case("art. 45 § ú with the declared default reading (art. 49's 3 months, issue 7): second stop without alvará → 264 UFIR",
       set={"permit.exists": False}, history=H45,
       expected={"infractions": [{"id": "par.inf.art45_sem_alvara", "amount": UFIR(264, 28092),
                                  "recidivism": {"applied": True, "prior_count": 1, "window_from": "2025-03-10"}}],
                 "undecided": [VETO]})
b.case("art. 45 § ú, default 3-month window: an earlier seizure 3 months + 1 day before is not recidivism → 132 UFIR",
       set={"permit.exists": False}, history=[{"infraction": "par.inf.art45_sem_alvara", "date": "2025-03-09"}],
       expected={"infractions": [{"id": "par.inf.art45_sem_alvara", "amount": UFIR(132, 14046), "recidivism": {"applied": False, "prior_count": 0}}],
                 "undecided": [VETO]})
b.case("art. 45 § ú, municipality sets its own window (1 year): seizure 5 months before → 264 UFIR",
       set={"permit.exists": False}, history=[{"infraction": "par.inf.art45_sem_alvara", "date": "2025-01-10"}],
       config_overrides={"periods": {"paranatinga.recidivism_window_art45": {"years": 1}}},
       expected={"infractions": [{"id": "par.inf.art45_sem_alvara", "amount": {"value": 264}, "recidivism": {"applied": True}}]})
one_g("alvara_renovado", "II", "i", "art. 13 § 1º: alvará expired yesterday → Group II i", {"permit.valid_until": "2025-06-09"})
b.case("art. 13 § 1º and art. 20: alvará and termo both expired → Group II i once, triggered by both",
       set={"permit.valid_until": "2025-06-09", "permit.term_valid_until": "2025-06-01"},
       expected={"failed": [F("par.req.alvara_renovado", ["par.inf.g2_i"]), F("par.req.termo_vigente", ["par.inf.g2_i"])],
                 "infractions": [g("II", "i", ["par.req.alvara_renovado", "par.req.termo_vigente"])]})
one_g("alvara_ativo", "IV", "d", "art. 42 III: working with a suspended credential → Group IV d", {"permit.status": "suspenso"})
b.case("art. 45 (issue 7): working with a revoked (cassado) alvará is working without alvará → 132 UFIR, seizure and removal; not Group IV d",
       set={"permit.status": "cassado"},
       expected={"failed": [F("par.req.alvara_nao_cassado", ["par.inf.art45_sem_alvara"])],
                 "infractions": [{"id": "par.inf.art45_sem_alvara", "triggered_by": ["par.req.alvara_nao_cassado"], "amount": UFIR(132, 14046),
                                  "measures": [{"kind": "apreensao"}, {"kind": "remocao"}]}],
                 "undecided": [VETO]})
one_g("seguro", "II", "h", "art. 28 II: insurance expired → Group II h", {"insurance.valid_until": "2025-06-09"})
# --- selectable items of art. 50 ---
for grp, item, label in [("I", "c", "ponto order"), ("I", "e", "hindering change"), ("III", "a", "opposing inspection"), ("III", "c", "altered vehicle"),
                         ("IV", "a", "contagious disease"), ("V", "a", "'bandeira 2' (erratum: taxi rule)"), ("VI", "c", "fare off the decree table (erratum: 'em lei')"),
                         ("VI", "f", "touting"), ("II", "b", "smoke above CONTRAN levels"), ("II", "c", "open exhaust"),
                         ("II", "e", "no new vistoria after a serious accident"), ("II", "f", "leaking fuel"), ("III", "b", "public misconduct"),
                         ("IV", "c", "interrupted trip"), ("IV", "e", "wrong lane"), ("V", "c", "altered documents"),
                         ("VI", "a", "vehicle kept in service after withdrawal"), ("VI", "d", "unauthorized person driving")]:
    b.case("art. 50 %s %s: fiscal selects %s → %d UFIR" % (grp, item, label, G[grp][0]), set={"$selected": [gid(grp, item)]},
           expected={"failed": [], "infractions": [g(grp, item, ["$selected"])], "escalations": []})
# --- recidivism (art. 49), disqualification (art. 42 § ú), cancellation (art. 44) ---
NB = {"driver.carries_badge": False}
b.case("art. 49: same item 3 months ago to the day → doubled (72 UFIR); second fine in a year → inabilitação (art. 42 § ú b)",
       set=NB, history=[{"infraction": "par.inf.g2_g", "date": "2025-03-10"}],
       expected={"infractions": [g("II", "g", amount=UFIR(72, 7662), recidivism={"applied": True, "prior_count": 1, "window_from": "2025-03-10"})],
                 "escalations": [{"id": "par.inabilitacao", "penalty": "multa", "prior": 1, "current": 1, "count": 2, "status": "would_reach",
                                  "notice_pt": NOTICE2, "measure": {"kind": "inabilitacao"}}]})
b.case("art. 49: same item 3 months + 1 day ago → not recidivism (36 UFIR), still 2 fines in a year",
       set=NB, history=[{"infraction": "par.inf.g2_g", "date": "2025-03-09"}],
       expected={"infractions": [g("II", "g", recidivism={"applied": False, "prior_count": 0})],
                 "escalations": [{"id": "par.inabilitacao", "prior": 1, "current": 1, "status": "would_reach", "notice_pt": NOTICE2}]})
b.case("art. 49 (erratum: 'artigo 54' → art. 50): another item of the same group is not recidivism",
       set=NB, history=[{"infraction": "par.inf.g2_h", "date": "2025-05-10"}],
       expected={"infractions": [g("II", "g", recidivism={"applied": False, "prior_count": 0})]})
b.case("art. 42 I ('sanções gradativas, separadas ou cumulativas') + $penalties: written warning chosen instead of the Group II g fine → no amount",
       set={"driver.carries_badge": False, "$penalties": {"par.inf.g2_g": "advertencia"}},
       expected={"infractions": [{"id": "par.inf.g2_g", "penalty": {"kind": "advertencia", "default": "multa", "chosen": True}, "amount": None}],
                 "escalations": []})
b.case("art. 45: a warning is not an alternative to the 132-UFIR fine for driving without alvará",
       set={"permit.exists": False, "$penalties": {"par.inf.art45_sem_alvara": "advertencia"}},
       expected={"error": {"code": "fact_error", "fact": "$penalties", "reason": "not_an_alternative",
                           "expected": {"type": "enum", "values": ["multa"]}}})
b.case("art. 42: art. 42 obligation with suspension chosen instead of the warning", set={"driver.armed": True, "$penalties": {"par.inf.art42_advertencia": "suspensao"}},
       expected={"infractions": [dict(A42, penalty={"kind": "suspensao", "default": "advertencia", "chosen": True})], "escalations": []})
b.case("art. 42 § ú a: two earlier warnings + a warning now → inabilitação",
       set={"driver.armed": True},
       history=[{"infraction": "par.inf.art42_advertencia", "date": "2025-01-10"}, {"infraction": "par.inf.art42_advertencia", "date": "2025-03-10"}],
       expected={"infractions": [A42], "escalations": [{"id": "par.inabilitacao", "penalty": "advertencia", "prior": 2, "current": 1, "count": 3, "status": "would_reach",
                                                   "notice_pt": "aviso — não é inabilitação agora: se esta autuação for confirmada, serão 3 advertências em 12 meses (2 já aplicada(s), 1 desta autuação); inabilitação só depois da decisão definitiva"}]})
b.case("art. 42 § ú a: one earlier warning + a warning now → not yet",
       set={"driver.armed": True}, history=[{"infraction": "par.inf.art42_advertencia", "date": "2025-03-10"}],
       expected={"escalations": []})
b.case("art. 44: a fine 1 year and 1 day before, with no infraction since, is cancelled → no inabilitação",
       set=NB, history=[{"infraction": "par.inf.g1_a", "date": "2024-06-09"}], expected={"escalations": []})
b.case("art. 44 + art. 42 § único (issue 19): on the anniversary of a fine (2024-06-10 → 2025-06-10) the year is not over — Lei 810/1949 art. 1º, both articles agree — so it still counts → inabilitação announced",
       set=NB, history=[{"infraction": "par.inf.g1_a", "date": "2024-06-10"}],
       expected={"escalations": [{"id": "par.inabilitacao", "penalty": "multa", "prior": 1, "current": 1, "status": "would_reach", "window_from": "2024-06-10", "notice_pt": NOTICE2}]})
b.case("art. 44: a fine 1 year minus 1 day before is not yet cancelled → inabilitação",
       set=NB, history=[{"infraction": "par.inf.g1_a", "date": "2024-06-11"}],
       expected={"escalations": [{"id": "par.inabilitacao", "penalty": "multa", "prior": 1, "current": 1, "status": "would_reach", "notice_pt": NOTICE2}]})
b.case("art. 44: an old fine followed within a year by another keeps both on record (only the later one is in the 1-year window)",
       set=NB, history=[{"infraction": "par.inf.g1_a", "date": "2024-03-01"}, {"infraction": "par.inf.g2_g", "date": "2024-12-01"}],
       expected={"infractions": [g("II", "g", recidivism={"applied": False})],
                 "escalations": [{"id": "par.inabilitacao", "prior": 1, "current": 1, "status": "would_reach", "notice_pt": NOTICE2}]})
b.case("art. 47: UFIR value updated by the municipality from 2025-01-01 (R$ 2,00) → 36 UFIR = R$ 72,00", set=NB,
       config_overrides={"unit_values": {"UFIR": [{"valid_from": "2000-01-01", "brl": 1.0641}, {"valid_from": "2025-01-01", "brl": 2}]}},
       expected={"infractions": [g("II", "g", amount={"value": 36, "brl_cents": 7200, "unit_value_brl": 2, "unit_value_from": "2025-01-01"})]})
b.case("art. 55: the day before the law nothing applies", date="2007-09-30", set=dict(OLD, **NB), expected={"failed": [], "deadlines": []})
b.case("art. 54 (issue 19): from 2008-01-01 (after the 90 days from 2007-10-01, moved to Monday 31/12) the duty is enforced", date="2008-01-01", set=dict(OLD, **NB),
       expected={"failed": [F("par.req.cracha", ["par.inf.g2_g"])], "infractions": [{"id": "par.inf.g2_g"}]})
b.case("art. 54 (issue 19): 2007-12-30, the 90th day: still a notice", date="2007-12-30", set=dict(OLD, **NB),
       expected={"failed": [dict(F("par.req.cracha", []), grace="par.prazo.adequacao")], "infractions": []})
b.case("art. 54 + CC art. 132 § 1º (issue 19): the 90th day 30/12/2007 is a Sunday, so the period ends on Monday 31/12/2007: still a notice",
       date="2007-12-31", set=dict(OLD, **NB),
       expected={"failed": [dict(F("par.req.cracha", []), grace="par.prazo.adequacao")], "infractions": []})
b.case("art. 54 + CC art. 132 § 1º (issue 19): a municipal closure on Monday 31/12/2007 moves the end to Wednesday 02/01/2008 (01/01 is a holiday)",
       date="2008-01-02", set=dict(OLD, **NB),
       calendar={"closures": [{"date": "2007-12-31", "kind": "ponto_facultativo", "name_pt": "Véspera de Ano Novo", "act": "Decreto municipal"}]},
       expected={"failed": [dict(F("par.req.cracha", []), grace="par.prazo.adequacao")], "infractions": []})
b.case("art. 54 + CC art. 132 § 1º (issue 19): with that closure, enforced from Thursday 03/01/2008", date="2008-01-03", set=dict(OLD, **NB),
       calendar={"closures": [{"date": "2007-12-31", "kind": "ponto_facultativo", "name_pt": "Véspera de Ano Novo", "act": "Decreto municipal"}]},
       expected={"failed": [F("par.req.cracha", ["par.inf.g2_g"])], "infractions": [{"id": "par.inf.g2_g"}]})
b.case("art. 54-55 (issue 19): on 2007-10-01 the law applies, but inside the 90 days to adapt a missing duty is a notice, not an infraction; the period is listed", date="2007-10-01", set=dict(OLD, **NB),
       expected={"failed": [dict(F("par.req.cracha", []), grace="par.prazo.adequacao")], "infractions": [],
                 "deadlines": DL + [{"id": "par.prazo.adequacao", "kind": "adequacao", "days": 90, "starts": "publicacao"}]})
b.write("law-paranatinga.json")
