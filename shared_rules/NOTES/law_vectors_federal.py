"""Hand-written vectors for the federal base (Lei 12.009/2009, CTB 139-A/244, Res. CONTRAN 943/2022),
composed with Paranatinga (whose law includes goods delivery, art. 1º). See law_vectors_common.py."""
from law_vectors_common import Builder, F, UFIR

b = Builder("paranatinga", ["paranatinga-lei-311-2007.json"], "law-federal",
            "Base federal: Lei 12.009/2009 art. 2º (idade, habilitação, curso, colete), Res. CONTRAN 943/2022 arts. 2º-3º, CTB art. 139-A (moto-frete) e art. 244 VIII/IX (apontadores de infração de trânsito).")
FED = {"id": "fed.inf.ctb244_ix", "jurisdiction": "snt", "amount": None, "recidivism": None, "penalty": {"kind": "multa", "alternatives": []},
       "measures": [{"kind": "retencao", "days": None}]}
def fed(req, name, set, **kw):
    b.case(name, set=set, expected={"failed": [F(req, ["fed.inf.ctb244_ix"])], "infractions": [dict(FED, triggered_by=[req])], "escalations": []}, **kw)
b.case("Lei 12.009 art. 2º I: 21 years completed today passes", set={"operator.birth_date": "2004-06-10"}, expected={"failed": []})
fed("fed.req.idade_minima_21", "Lei 12.009 art. 2º I: turns 21 tomorrow → fails", {"operator.birth_date": "2004-06-11"})
fed("fed.req.idade_minima_21", "Lei 12.009 art. 2º I + Lei 810/1949 art. 3º: born 29 Feb, on 28 Feb of a common year not yet 21",
    {"operator.birth_date": "2004-02-29"}, date="2025-02-28")
b.case("Lei 12.009 art. 2º I + Lei 810/1949 art. 3º: born 29 Feb, 21 on 1 Mar of a common year", date="2025-03-01",
       set={"operator.birth_date": "2004-02-29"}, expected={"failed": []})
fed("fed.req.habilitacao_2_anos", "Lei 12.009 art. 2º II + Lei 810/1949 art. 3º: licence issued 29 Feb 2020 is not 2 years old on 28 Feb 2022",
    {"operator.cnh_first_issue_date": "2020-02-29"}, date="2022-02-28")
b.case("Lei 12.009 art. 2º II + Lei 810/1949 art. 3º: licence issued 29 Feb 2020 is 2 years old on 1 Mar 2022", date="2022-03-01",
       set={"operator.cnh_first_issue_date": "2020-02-29"}, expected={"failed": []})
b.case("Lei 12.009 art. 2º II: licence exactly 2 years old passes", set={"operator.cnh_first_issue_date": "2023-06-10"}, expected={"failed": []})
fed("fed.req.habilitacao_2_anos", "Lei 12.009 art. 2º II: licence 2 years minus 1 day fails", {"operator.cnh_first_issue_date": "2023-06-11"})
fed("fed.req.curso_especializado", "Lei 12.009 art. 2º III: specialized course not passed", {"operator.course_approved": False})
fed("fed.req.colete_retrorrefletivo", "Lei 12.009 art. 2º IV: vest without retroreflective devices (Paranatinga itself asks number and name only)",
    {"driver.vest_retroreflective": False})
b.case("Lei 12.009 art. 2º: not in effect the day before publication (2009-07-29)", date="2009-07-29",
       set={"operator.course_approved": False, "operator.cnh_first_issue_date": "2000-01-01", "operator.birth_date": "1970-01-01"},
       expected={"failed": [], "infractions": []})
b.case("Lei 12.009 art. 2º III (issue 19): the course 'nos termos da regulamentação do Contran' is not required before Res. CONTRAN 350/2010 is in force (2010-12-14)",
       date="2010-12-14", set={"operator.course_approved": False, "operator.cnh_first_issue_date": "2000-01-01", "operator.birth_date": "1970-01-01"},
       expected={"failed": [], "infractions": []})
fed("fed.req.curso_especializado", "Lei 12.009 art. 2º III + Res. CONTRAN 350/2010 art. 5º: required from 2010-12-15 (180 days after the DOU of 2010-06-18)",
    {"operator.course_approved": False, "operator.cnh_first_issue_date": "2000-01-01", "operator.birth_date": "1970-01-01"}, date="2010-12-15")
b.case("Res. 943 art. 3º I: mata-cachorro not required by the federal base before 2022-04-01 (Paranatinga requires it since 2007)",
       date="2022-03-31", set={"equipment.mata_cachorro": False},
       expected={"failed": [F("par.req.mata_cachorro", ["par.inf.g2_a", "par.inf.art41_veiculo_irregular"])]})
GOODS = {"service.goods_delivery": True}
b.case("CTB 139-A: goods delivery with everything in order", set=GOODS, expected={"failed": [], "infractions": []})
b.case("CTB 139-A § 2º + 244 VIII: delivering a jerrycan of fuel", set=dict(GOODS, **{"goods.hazardous": True}),
       expected={"failed": [F("fed.req.motofrete_carga_proibida", ["fed.inf.ctb244_viii"])],
                 "infractions": [{"id": "fed.inf.ctb244_viii", "jurisdiction": "snt", "amount": None, "triggered_by": ["fed.req.motofrete_carga_proibida"]}]})
b.case("CTB 139-A IV: equipment inspection exactly 6 months ago still valid", set=dict(GOODS, **{"vehicle.equipment_inspection_date": "2024-12-10"}),
       expected={"failed": []})
fed("fed.req.motofrete_inspecao_semestral", "CTB 139-A IV: equipment inspection 6 months + 1 day ago → overdue",
    dict(GOODS, **{"vehicle.equipment_inspection_date": "2024-12-09"}))
b.case("CTB 139-A IV + Lei 810/1949 art. 3º (issue 19): inspected 31/08/2025, six months end on 01/03/2026 (February has no 31st): still valid that day",
       date="2026-03-01", set=dict(GOODS, **{"vehicle.equipment_inspection_date": "2025-08-31", "vehicle.inspection_valid_until": "2026-12-31",
                                             "insurance.valid_until": "2026-12-31"}),
       expected={"failed": []})
fed("fed.req.motofrete_inspecao_semestral", "CTB 139-A IV + Lei 810/1949 (issue 19): inspected 31/08/2025, overdue on 02/03/2026",
    dict(GOODS, **{"vehicle.equipment_inspection_date": "2025-08-31", "vehicle.inspection_valid_until": "2026-12-31",
                   "insurance.valid_until": "2026-12-31"}), date="2026-03-02")
b.case("Res. 943 art. 3º III: on a goods delivery the passenger handle is not the required device (Paranatinga's own art. 8º V a still applies)",
       set=dict(GOODS, **{"equipment.grab_handle": False}),
       expected={"failed": [F("par.req.alca_metalica", ["par.inf.g2_a", "par.inf.art41_veiculo_irregular"])]})
b.case("Res. 943 art. 3º III: goods question unanswered → the passenger device rule still applies", drop=("service.goods_delivery",),
       set={"equipment.grab_handle": False},
       expected={"failed": [F("fed.req.dispositivo_passageiro", ["fed.inf.ctb244_ix"]), F("par.req.alca_metalica", ["par.inf.g2_a", "par.inf.art41_veiculo_irregular"])]})
b.case("CTB 139-A: passenger service only → moto-frete rules not applicable even with an old inspection",
       set={"vehicle.equipment_inspection_date": "2020-01-01"}, expected={"failed": []})
b.case("CTB 139-A I + Res. 943 art. 2º + Paranatinga art. 8º III: delivery without red plate — one CTB pointer triggered by two federal rules",
       set=dict(GOODS, **{"vehicle.red_plate": False}),
       expected={"failed": [F("fed.req.categoria_aluguel", ["fed.inf.ctb244_ix"]), F("fed.req.motofrete_aluguel", ["fed.inf.ctb244_ix"]),
                            F("par.req.placa_vermelha", ["par.inf.g4_d", "par.inf.art41_veiculo_irregular"])],
                 "infractions": [dict(FED, triggered_by=["fed.req.categoria_aluguel", "fed.req.motofrete_aluguel"]),
                                 {"id": "par.inf.g4_d", "amount": UFIR(51, 5427)}, {"id": "par.inf.art41_veiculo_irregular"}]})
b.case("CTB 139-A II + Res. 943 art. 3º I + Paranatinga art. 8º V e: delivery without mata-cachorro",
       set=dict(GOODS, **{"equipment.mata_cachorro": False}),
       expected={"failed": [F("fed.req.protetor_motor_pernas", ["fed.inf.ctb244_ix"]), F("fed.req.motofrete_mata_cachorro", ["fed.inf.ctb244_ix"]),
                            F("par.req.mata_cachorro", ["par.inf.g2_a", "par.inf.art41_veiculo_irregular"])],
                 "infractions": [dict(FED, triggered_by=["fed.req.protetor_motor_pernas", "fed.req.motofrete_mata_cachorro"]),
                                 {"id": "par.inf.g2_a", "triggered_by": ["par.req.mata_cachorro"]}, {"id": "par.inf.art41_veiculo_irregular"}]})
b.case("CTB 139-A III + Res. 943 art. 3º II: delivery without corta-pipa fails both federal antenna rules",
       set=dict(GOODS, **{"equipment.antenna_corta_pipa": False}),
       expected={"failed": [F("fed.req.aparador_linha", ["fed.inf.ctb244_ix"]), F("fed.req.motofrete_antena", ["fed.inf.ctb244_ix"])],
                 "infractions": [dict(FED, triggered_by=["fed.req.aparador_linha", "fed.req.motofrete_antena"])]})
b.case("Missing registry data: birth date unknown → age rule undecided, nothing proposed", drop=("operator.birth_date",),
       expected={"failed": [], "infractions": [],
                 "undecided": [{"kind": "requirement", "id": "fed.req.idade_minima_21", "reason": "missing_fact", "facts": ["operator.birth_date"]},
                               {"kind": "requirement", "id": "par.req.idade_veiculo_7_anos", "reason": "vetoed_pending", "would_fail": False}]})
b.write("law-federal.json")
