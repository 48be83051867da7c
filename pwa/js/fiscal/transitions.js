// The existing fleet as it is (issue 36): a permit the registry import recorded while it missed a
// requirement of the law (Sapezal art. 5º: at most 3 years of use) carries, in the field data, each
// such requirement with its transition — a prazo de adequação until a day, or none defined. While
// the transition is in force the failed requirement is a notice, not an infraction: its entry gets
// `transition` (the sentence) and no infractions, and an infraction only it triggered is dropped.
// After the last day the law applies in full. Pure (no DOM): tests/js/fieldapp_transitions.test.mjs.

/** The permit's transitions in force on `date` (ISO), by requirement id. */
export function transitionsInForce(transitions, date) {
  const out = new Map();
  for (const t of transitions || []) {
    if (t && t.r && (!t.u || date <= t.u)) out.set(t.r, t);
  }
  return out;
}

/** A copy of the engine's evaluation that follows the permit's recorded transitions. */
export function withTransitions(evaluation, transitions, date) {
  const active = transitionsInForce(transitions, date);
  if (!active.size) return evaluation;
  const covered = new Set();
  const failed = (evaluation.failed || []).map((f) => {
    const t = active.get(f.requirement);
    if (!t) return f;
    covered.add(f.requirement);
    return { ...f, infractions: [], transition: t.t };
  });
  const infractions = (evaluation.infractions || []).flatMap((inf) => {
    if (!inf.triggered_by?.length) return [inf];
    const left = inf.triggered_by.filter((r) => !covered.has(r));
    if (!left.length) return [];
    return [left.length === inf.triggered_by.length ? inf : { ...inf, triggered_by: left }];
  });
  return { ...evaluation, failed, infractions };
}

/** [{requirement, label_pt, text}] for the result screen and the verdict. */
export function transitionNotices(evaluation) {
  return (evaluation.failed || []).filter((f) => f.transition).map((f) => ({
    requirement: f.requirement, label_pt: f.label_pt,
    text: `Em transição — não é infração: ${f.label_pt}. Permissão existente registrada assim na importação do cadastro: ${f.transition}.`,
  }));
}

/** One line per requirement in transition on `date`, for the verdict and the checklist (the
 *  result screen words each failed one with transitionNotices). */
export function transitionLines(transitions, date) {
  return [...transitionsInForce(transitions, date).values()].map((t) => `${t.l || 'Exigência da lei'}: ${t.t}.`);
}
