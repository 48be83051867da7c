// The defence/appeal instances an auto opens, from the evaluator's deadlines: the first runs from
// the notification (or intimação), each next one from the previous decision — the JS twin of
// server/modules/autos/instances.py. Pure (Node tests). Other deadlines of the packs (selection,
// suplente, apólice, adequação) do not arise from a roadside stop and are not listed with it.
const KINDS = ['defesa', 'recurso'];
const FIRST_STARTS = ['notificacao', 'intimacao'];

/** [{label_pt, days, instance_pt, citation, starts, kind}] in instance order (may be empty). */
export function instanceDeadlines(deadlines) {
  const rows = (deadlines || []).filter((d) => KINDS.includes(d.kind));
  const first = rows.find((d) => FIRST_STARTS.includes(d.starts));
  return first ? [first, ...rows.filter((d) => d.starts === 'decisao')] : [];
}

/** One line per instance: "3 dias — Secretário Municipal de Infra-estrutura (recurso)". */
export function instanceText(d, index) {
  const days = d.days == null ? 'prazo não fixado na lei (a prefeitura configura)' : `${d.days} dias`;
  // Paranatinga art. 48: each next instance counts from the ciência of the decision, not its date.
  const from = index === 0 ? 'da notificação' : 'da ciência da decisão anterior';
  return `${index + 1}ª instância (${d.kind}): ${days}${d.days == null ? '' : ` ${from}`}${d.instance_pt ? ` — ${d.instance_pt}` : ''}`;
}

// The step as each law names it (issue 34, item 4): Sapezal "defesa" (art. 28 VI), Paranatinga
// and Nortelândia "recurso"; "defesa prévia" where a pack says so. Twin of the server's
// autos/notification_content.STEP_WORDS.
export const STEP_WORDS = { defesa: 'defesa', defesa_previa: 'defesa prévia', recurso: 'recurso' };

/** "recurso", "defesa", "defesa e recurso"… of the instances, in order. */
export function stepsWord(steps) {
  const words = [...new Set((steps || []).map((d) => STEP_WORDS[d.kind] || null))];
  return words.length && !words.includes(null) ? words.join(' e ') : 'defesa e recurso';
}
