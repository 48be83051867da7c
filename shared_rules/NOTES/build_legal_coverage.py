"""Writes docs/legal-coverage.md: every article of each seed law -> pack entries citing it, plus a
hand-written reason for articles with no checkable duty. Run after editing packs."""
import json, pathlib, re
ROOT = pathlib.Path(__file__).resolve().parents[2]
SR = ROOT / "shared_rules"
LAWS = [
 ("nortelandia-lei-030-1998", "L030", "Nortelândia — Lei nº 030/1998", range(1, 19), {
  "4": "Classifies services as regular/extraordinary: no duty to check.",
  "5": "Caput grants free circulation (a permission); the § ú stop-distance duty is encoded.",
  "8": "Principle (adequate service, permanent inspection): no checkable duty.",
  "11": "Caput: municipality not liable; the § ú insurance duty is encoded.",
  "14": "ISSQN of 0,5 UFM per motorcycle, monthly by day 10: a tax collection matter for the back office (issuance.operations.issqn_due), not a roadside item; a 10th without office hours is payable on the next business day (CTN art. 210 § único, legal calendar).",
  "15": "Passenger chooses the route: encoded as a selectable infraction (complaint/observation).",
  "18": "Vigência (in force on publication): used as the pack's effective date.",
 }),
 ("sapezal-lei-125-1999", "L125", "Sapezal — Lei nº 125/1999", range(1, 33), {
  "1": "Creates the service; the single-passenger definition (§ ú) is checked under art. 13.",
  "2": "Definitions (condutor, alvará): no duty.",
  "3": "Alvará individual to a natural person, non-transferable: registry rule (permit holder type); covered by sap.req.alvara_existente/propriedade.",
  "7": "Alvará only for who meets the requirements: restates art. 6.",
  "8": "Precarious authorization, revocable: basis of the cassação penalty (art. 24 IV).",
  "9": "Content of the alvará document (order no., name, taxpayer no., ponto, vehicle data, validity): checked when the card is issued, not at the roadside.",
  "11": "Validity 1 year (Lei 810/1949), ending on the last 31 March within that year, read with art. 10 § 1º (issuance/validity.py, LEGAL.md); § 1º cassação with full defence; § 2º transitional 1999 permits (encoded: vencido after 31/03/2000, caducado after the art. 10 § 2º 30 days counted by CC art. 132, from 03/05/2000).",
  "15": "Motorcycle replacement: request within 15 days + vistoria of the new vehicle; enforced by the back office (`permits.changes_of_life.substitute_vehicle`), not a roadside item. From when and in which days the 15 days run: reading `sapezal.art15_window` (table below).",
  "18": "Users' rights: no duty of the driver.",
  "19": "Tariffs examined by the administration, decree: no roadside duty.",
  "20": "Pontos and number of vehicles by decree (initially Cowtry Lanches 3, Lanchonete Quêên 2, Hospital Renato Sucupira 1): registry data.",
  "23": "Exams after an at-fault accident, at the administration's discretion: back office.",
  "24": "Penalties (warning, fine, suspension, cassação) 'reguladas por decreto': every `sap.inf.*` amount is a `decree_key` (`sapezal.multa.*`), unconfigured until the decree is entered.",
  "25": "Who inspects (fiscalização e tributação): no duty.",
  "30": "Permission to stop anywhere when hailed without passenger: no duty.",
  "32": "Vigência: used as the pack's effective date.",
 }),
 ("paranatinga-lei-311-2007", "L311", "Paranatinga — Lei nº 311/2007 (+ Veto nº 002/2007)", [a for a in range(1, 56) if a != 14], {
  "1": "Scope (passengers and goods, 2 or 3 wheels): goods delivery triggers the federal CTB 139-A entries.",
  "2": "Service needs Termo de Permissão and Alvará: checked through par.req.alvara_existente / termo_vigente.",
  "3": "Definitions (erratum: inciso IV duplicates 'Permissionário do Serviço').",
  "4": "45 vacancies; none new below 45.000 inhabitants (IBGE), then 1 per 1.000: registry/selection rule, not roadside.",
  "5": "SINFRA administers, Tributação inspects: no duty.",
  "10": "Notices the órgão may require: no content set by the law.",
  "12": "Municipality not liable; DPVAT cover (erratum 'DPVA'); union policy optional: no individual duty.",
  "15": "Definition of passenger.",
  "17": "Users' rights.",
  "18": "Free circulation and pick-up (permission).",
  "19": "Contents of the delegation instrument: back office.",
  "21": "Public selection by edital: back office.",
  "22": "Termo extended or ended only with the órgão's approval: noted on par.req.termo_vigente.",
  "23": "Extension changes only the term.",
  "24": "Causes of extinction of the permission: registry status.",
  "25": "Fare benefits only by law.",
  "26": "Principle of adequate service.",
  "29": "One vacancy per moto-taxista, used personally: covered by par.req.licenca_unica.",
  "30": "Transfer only causa mortis/invalidity or per art. 27: back office.",
  "31": "Nullity by superior law or court: no roadside duty.",
  "32": "One vehicle per permission: covered by par.req.licenca_unica (note).",
  "34": "Purpose of the substitute register.",
  "35": "Tariff fixed by decree (relevant to Group VI c erratum).",
  "36": "Economic balance (administration).",
  "37": "Economic balance (administration).",
  "38": "Cost calculation (administration).",
  "39": "Cost sheet (administration).",
  "40": "Who inspects; agreements with PM, DETRAN, union.",
  "42": "Gradual sanctions (warning, fine, suspension/cassação) and § ú disqualification.",
  "47": "Fines computed on the UFIR of the infraction date (erratum 'inflação'): config unit_values.UFIR.",
  "51": "Edital for registration after the law: administration.",
  "52": "Information campaigns: administration.",
  "53": "Complementary decrees: administration.",
  "55": "Vigência; revokes Leis 011/99 and 127/05: pack effective date.",
 }),
]
def cites(node, out, owner=None):
    """(entry id, citation) pairs; a measure's citation is credited to its infraction/escalation;
    a declared option is listed as `option <key>`."""
    if isinstance(node, dict) and "options" in node and "spec_version" in node:
        for key, decl in (node.get("options") or {}).items():
            out.append((f"option {key}", decl["citation"]))
        node = {k: v for k, v in node.items() if k != "options"}
    if isinstance(node, dict):
        owner = node.get("id", owner)
        if "citation" in node and owner:
            out.append((owner, node["citation"]))
        if "veto_ref" in node:
            out.append((owner, node["veto_ref"]))
        for k, v in node.items():
            if k not in ("citation", "veto_ref"):
                cites(v, out, owner)
    elif isinstance(node, list):
        for x in node:
            cites(x, out, owner)
    return out
lines = ["# Legal coverage: every article → encoded entries", "",
         "Generated from the packs by `shared_rules/NOTES/build_legal_coverage.py` (the reasons for",
         "articles without a checkable duty are written by hand there). `tests/test_rules_packs_legal.py`",
         "checks that every article heading of each seed law has a row here and that every id listed",
         "exists in the packs. Ids: `req` requirement, `inf` infraction, `prazo` deadline, `auto`",
         "auto field, `err` erratum, `veto` veto; recidivism/escalation ids are named as such.", ""]
for pack_id, law_key, title, arts, notes in LAWS:
    pack = json.loads((SR / "packs" / f"{pack_id}.json").read_text(encoding="utf-8"))
    by_art = {}
    for eid, c in cites(pack, []):
        if c.get("law") == law_key:
            by_art.setdefault(c["art"], [])
            if eid not in by_art[c["art"]]:
                by_art[c["art"]].append(eid)
    lines += [f"## {title} (`packs/{pack_id}.json`)", "", "| art. | entries | note |", "|---|---|---|"]
    for a in arts:
        ids = by_art.get(str(a), [])
        note = notes.get(str(a), "")
        if not ids and not note:
            raise SystemExit(f"{pack_id}: art. {a} has neither entries nor a reason")
        lines.append(f"| {a} | {', '.join('`%s`' % i for i in ids) or '—'} | {note} |")
    if law_key == "L311":
        lines.append("| 14 | — | **Does not exist**: the published text jumps from art. 13 to art. 15 (erratum `par.err.art14_inexistente`). |")
        veto = [eid for eid, c in cites(pack, []) if c.get("law") == "VETO002"]
        lines.append(f"| Veto 002/2007 art. 1 | {', '.join('`%s`' % i for i in dict.fromkeys(veto))} | Partial veto of art. 8º V d; outcome is a configuration option. |")
        lines.append("| Veto 002/2007 art. 2 | — | Sends the veto to the Câmara: why the outcome is `pending` until configured. |")
    lines.append("")
lines += ["## Federal base (`packs/federal-base.json`)", "", "| act, article | entries |", "|---|---|"]
fed = json.loads((SR / "packs" / "federal-base.json").read_text(encoding="utf-8"))
acc = {}
for eid, c in cites(fed, []):
    k = f"{c['law']} art. {c['art']}" + (f", {c['inciso']}" if c.get("inciso") else "") + (f", § {c['paragrafo']}" if c.get("paragrafo") else "")
    acc.setdefault(k, []).append(eid)
for k, ids in acc.items():
    lines.append(f"| {k} | {', '.join('`%s`' % i for i in ids)} |")
lines.append("")
(ROOT / "docs" / "legal-coverage.md").write_text("\n".join(lines), encoding="utf-8")
print("ok")
