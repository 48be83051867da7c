// From the composed packs to the checklist the fiscal answers, and from the answers to the facts
// the evaluator takes. Pure (Node tests): no DOM, no storage.
export const NOT_CHECKED = 'nao_verificado';

// Grouped by what the fiscal looks at, in the order of a stop: the situation first (it hides
// what cannot apply), then the motorcycle, the driver (gear, papers, conduct), the passenger.
// Few groups on purpose: each ends with its own "Tudo conforme neste grupo", and a stop with two
// failures must reach its auto in 12 touches (docs/benchmarks/checklist-scroll.md).
const GROUPS = [
  ['situacao', 'Situação da abordagem'], ['moto', 'A moto: veículo e equipamentos'],
  ['condutor', 'O condutor: equipamentos, documentos e conduta'], ['passageiro', 'Passageiro'],
];
export const GROUP_LABELS = Object.fromEntries(GROUPS);
// Inside a group, what sits together on the moto or the driver: the parts in this order.
const PARTS = ['veiculo', 'equipamentos', 'condutor', 'documentos', 'conduta'];
const GROUP_OF_PART = { veiculo: 'moto', equipamentos: 'moto', condutor: 'condutor', documentos: 'condutor', conduta: 'condutor', outros: 'condutor' };

/** A yes/no question with no compliant answer (`compliant_if` null: passageiro a bordo, chuva)
 *  is about the situation. */
export const isSituation = (item) => Boolean(item?.input?.startsWith('yes_no')) && item.compliant_if === null;

/** The part of a stop a fact belongs to, by its name (the packs name facts "<area>.<what>"). */
function partOf(fact) {
  const area = fact.split('.')[0];
  // Papers the driver shows; what is painted on the moto or the vest stays with the moto, the vest.
  if (/document|cnh|licen|carries_/.test(fact) || (!['driver', 'vehicle'].includes(area) && /alvara|permit/.test(fact))) return 'documentos';
  return { vehicle: 'veiculo', equipment: 'equipamentos', driver: 'condutor', operator: 'condutor',
    passenger: 'passageiro', service: 'conduta', goods: 'conduta', conduct: 'conduta', parking: 'conduta',
    pickup: 'conduta', context: 'situacao' }[area] || 'outros';
}

/** Group of a fact (`item` when at hand: a situation question goes first whatever its name). */
export function groupOf(fact, item = null) {
  if (item && isSituation(item)) return 'situacao';
  const part = partOf(fact);
  return GROUP_OF_PART[part] || part;
}

// "driver.vest_retroreflective" → "driver.vest": questions on one thing sit together.
const stem = (fact) => fact.split('_')[0];

export function groupItems(items) {
  const out = GROUPS.map(([key, label]) => {
    const mine = items.filter((i) => groupOf(i.fact, i) === key);
    const first = new Map();
    mine.forEach((i, n) => { if (!first.has(stem(i.fact))) first.set(stem(i.fact), n); });
    const part = (i) => Math.max(0, PARTS.indexOf(partOf(i.fact)));
    const sorted = mine.map((i, n) => [part(i), first.get(stem(i.fact)), n, i])
      .sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]).map(([, , , i]) => i);
    return { key, label, items: sorted };
  });
  return out.filter((g) => g.items.length);
}

/** A compliance question: yes/no with a declared compliant answer. */
export const isCompliance = (item) => item.input?.startsWith('yes_no') && typeof item.compliant_if === 'boolean';

/** A number item the law lets the fiscal answer "Conforme" without counting (its threshold). */
export const hasQuickValue = (item) => item.input === 'number' && typeof item.compliant_value === 'number';

/** Shown on the screen: an item that may apply, unless it waits on a question about the situation
 *  not yet answered (passenger items wait on "passageiro a bordo?": the situation first). */
export function isVisible(item, items) {
  if (item.applicable === false) return false;
  if (item.applicable === true) return true;
  const pending = new Set(items.filter((i) => isSituation(i) && !i.answered).map((i) => i.fact));
  return !(item.decided_by || []).some((f) => pending.has(f));
}

/** Registry facts for the subject, only those the packs declare as registry facts. */
export function registryFacts(rules, subject) {
  const declared = (name) => rules.facts[name]?.source === 'registry';
  const facts = {};
  for (const [name, value] of Object.entries(subject?.facts || {})) {
    if (declared(name) && value !== null && value !== undefined) facts[name] = value;
  }
  if (declared('permit.exists') && subject) {
    if (subject.unidentified) facts['permit.exists'] = false;
    else if (subject.permit_id != null) facts['permit.exists'] = true;
  }
  const status = rules.facts['permit.status'];
  if (declared('permit.status') && status.values?.includes(subject?.permit_status)) facts['permit.status'] = subject.permit_status;
  if (declared('permit.valid_until') && subject?.valid_until) facts['permit.valid_until'] = subject.valid_until;
  if (declared('permit.issued_on') && subject?.issued_on) facts['permit.issued_on'] = subject.issued_on;
  if (declared('permit.holder_is_company') && subject?.permit_id != null) facts['permit.holder_is_company'] = Boolean(subject.holder_company);
  return facts;
}

/** The answers as evaluator facts: "não verificado" and unknown names left out (undecided). */
export function engineFacts(rules, answers) {
  const facts = {};
  for (const [name, value] of Object.entries(answers || {})) {
    if (value === NOT_CHECKED || value === '' || value === null || value === undefined) continue;
    const decl = rules.facts[name];
    if (!decl) continue;
    if (decl.type === 'number') {
      const n = typeof value === 'number' ? value : Number(String(value).replace(',', '.'));
      if (Number.isFinite(n)) facts[name] = n;
    } else {
      facts[name] = value;
    }
  }
  return facts;
}

/** How a citation names the instrument (SPEC §3): "Res. CONTRAN 943/2022", else "Lei <number>". */
export function citeAs(law) {
  if (law.cite_as) return law.cite_as;
  return law.number ? `Lei ${law.number}` : law.title;
}

/** A citation as the fiscal reads it: "Lei 125/1999, art. 13, § 2º, inciso I". */
export function citationLabel(rules, citation) {
  if (!citation) return '';
  let law = citation.law;
  for (const pack of rules.packs) if (pack.laws?.[citation.law]) law = citeAs(pack.laws[citation.law]) || law;
  const parts = [law, `art. ${citation.art}`];
  if (citation.paragrafo) parts.push(citation.paragrafo === 'unico' ? 'parágrafo único' : `§ ${citation.paragrafo}º`);
  if (citation.inciso) parts.push(`inciso ${citation.inciso}`);
  if (citation.alinea) parts.push(`alínea "${citation.alinea}"`);
  const amended = citation.amended_by;
  if (!amended || typeof amended !== 'object') return parts.join(', ');
  // The act that gave the provision the wording applied (SPEC §3 "Amendments").
  const { kind, ...where } = amended;
  const [name, ...rest] = citationLabel(rules, where).split(', ');
  const verb = kind === 'inclusao' ? 'incluído' : 'redação dada';
  const by = ['Decreto', 'CTB'].includes(name.split(' ')[0]) ? 'pelo' : 'pela';
  return `${parts.join(', ')} (${verb} ${by} ${[name, ...rest].join(', ')})`;
}
