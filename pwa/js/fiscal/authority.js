// One authority per document (issue 34, item 2), on the phone. A CTB/SNT infraction (the packs'
// `jurisdiction: "snt"`, CTB art. 244) is applied by the traffic authority (CTB art. 24), not by
// the municipal auto: unless the municipality recorded the act that integrates it into the SNT
// (the field data's `traffic_authority_act`), the result screen offers it apart, under "A comunicar
// ao órgão de trânsito" ("Comunicar": the decision "communicate", unless the fiscal says why not) — and it
// never enters the auto's infractions, fields, totals or the operator's signed copy. The server
// opens the communication from the inspection's decisions (server/modules/traffic/derive.py).
// "Confirmar todas" never confirms a CTB infraction, integrated or not. Pure (Node tests).

export const COMMUNICATE = 'communicate';

export const isTraffic = (inf) => inf?.jurisdiction === 'snt';

/** {municipal, traffic}: the proposals the municipal auto may state, and those communicated. */
export function splitProposals(infractions, integrated = false) {
  const municipal = [];
  const traffic = [];
  for (const inf of infractions || []) (isTraffic(inf) && !integrated ? traffic : municipal).push(inf);
  return { municipal, traffic };
}

/** The decisions after "Confirmar todas": every municipal proposal not removed is confirmed; a
 *  CTB one (even where integrated) keeps the fiscal's own decision. */
export function confirmAll(municipal, decisions) {
  const out = { ...decisions };
  for (const inf of municipal) {
    if (isTraffic(inf) || out[inf.id]?.decision === 'removed') continue;
    out[inf.id] = { decision: 'confirmed', reason: '' };
  }
  return out;
}

/** The decisions with every CTB infraction to communicate given its decision: "communicate"
 *  unless the fiscal chose not to (with a reason). */
export function withTrafficDefaults(traffic, decisions) {
  const out = { ...decisions };
  for (const inf of traffic) {
    const d = out[inf.id]?.decision;
    if (d !== COMMUNICATE && d !== 'removed') out[inf.id] = { decision: COMMUNICATE, reason: '' };
  }
  return out;
}

/** The infractions the auto body carries (confirmed or removed): never one communicated to the
 *  traffic authority, never a CTB one outside an integrated municipality. */
export function autoInfractions(infractions, decisions, integrated = false) {
  return (infractions || []).filter((inf) => {
    const d = decisions?.[inf.id]?.decision;
    return (d === 'confirmed' || d === 'removed') && !(isTraffic(inf) && !integrated);
  });
}

/** The CTB infractions this stop communicates (shown apart on the result and auto screens). */
export function communicated(infractions, decisions, integrated = false) {
  if (integrated) return [];
  return (infractions || []).filter((inf) => isTraffic(inf) && decisions?.[inf.id]?.decision === COMMUNICATE);
}
