// The rule-engine history (SPEC §5) built from the back office's penalty rows as the field data
// sends them. Twin of server/rules/history.py; shared vectors (`field_penalties`) make both give
// the same history.
//
// A row belongs to the inspected person when it is the same operator OR the same permit. Every
// matching row is sent with its state, annulled ones too: only the engine decides what counts
// (applied entries with applied_on <= D), so an annulled penalty can never count by a slip of a
// filter here (issue 19: `!p.cancelled && sameOperator || samePermit` let a penalty annulled on
// appeal count through the permit). `date` is the day the infraction was committed.

/** -> [history entry] for subject ({operator_id, permit_id}) from penalty rows, oldest first;
 *  rows whose infraction is not in `known` (a Set of ids, when given) are left out. */
export function historyFor(penalties, subject, known = null) {
  const operatorId = subject?.operator_id ?? null;
  const permitId = subject?.permit_id ?? null;
  if (operatorId === null && permitId === null) return [];
  const out = [];
  for (const p of penalties || []) {
    const mine = (operatorId !== null && p.operator_id === operatorId) || (permitId !== null && p.permit_id === permitId);
    if (!mine || (known && !known.has(p.infraction_id))) continue;
    const entry = {
      infraction: p.infraction_id, date: p.committed_on || p.applied_on,
      applied_on: p.applied_on ?? null, state: p.cancelled ? "annulled" : "applied",
    };
    if (p.penalty) entry.penalty = p.penalty;
    if (p.auto_record_id) entry.auto = p.auto_record_id; // fines of one autuação may count once
    out.push(entry);
  }
  const key = (e) => `${e.date || ""}|${e.applied_on || ""}`;
  return out.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
