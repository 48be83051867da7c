// From the composed packs to the checklist the fiscal answers, and from the answers to the facts
// the evaluator takes. Pure (Node tests): no DOM, no storage.
export const NOT_CHECKED = 'nao_verificado';

// Grouped by what the fiscal looks at, in the order of a stop: the situation first (it hides
// what cannot apply), then the motorcycle, the driver's gear, the passenger, papers, conduct.
const GROUPS = [
  ['situacao', 'Situação da abordagem'], ['veiculo', 'Veículo'], ['equipamentos', 'Equipamentos da moto'],
  ['condutor', 'Condutor: capacete, colete e traje'], ['passageiro', 'Passageiro'], ['documentos', 'Documentos'],
  ['conduta', 'Conduta'], ['outros', 'Outros'],
];
export const GROUP_LABELS = Object.fromEntries(GROUPS);

/** Group of a fact by its name (the packs name facts "<area>.<what>"); a yes/no question with no
 *  compliant answer (`compliant_if` null: passageiro a bordo, chuva) is about the situation. */
export function groupOf(fact, item = null) {
  if (item && item.input?.startsWith('yes_no') && item.compliant_if === null) return 'situacao';
  const area = fact.split('.')[0];
  // Papers the driver shows; what is painted on the moto or the vest stays with the moto, the vest.
  if (/document|cnh|licen|carries_/.test(fact) || (!['driver', 'vehicle'].includes(area) && /alvara|permit/.test(fact))) return 'documentos';
  return { vehicle: 'veiculo', equipment: 'equipamentos', driver: 'condutor', operator: 'condutor',
    passenger: 'passageiro', service: 'conduta', goods: 'conduta', conduct: 'conduta', parking: 'conduta',
    pickup: 'conduta', context: 'situacao' }[area] || 'outros';
}

// "driver.vest_retroreflective" → "driver.vest": questions on one thing sit together.
const stem = (fact) => fact.split('_')[0];

export function groupItems(items) {
  const out = GROUPS.map(([key, label]) => {
    const mine = items.filter((i) => groupOf(i.fact, i) === key);
    const first = new Map();
    mine.forEach((i, n) => { if (!first.has(stem(i.fact))) first.set(stem(i.fact), n); });
    const sorted = mine.map((i, n) => [first.get(stem(i.fact)), n, i]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([, , i]) => i);
    return { key, label, items: sorted };
  });
  return out.filter((g) => g.items.length);
}

/** A compliance question: yes/no with a declared compliant answer. */
export const isCompliance = (item) => item.input?.startsWith('yes_no') && typeof item.compliant_if === 'boolean';

/** "Tudo conforme": the compliant answer for every compliance item not yet answered that
 *  certainly applies (an item that may not apply — passenger unknown — stays unanswered). */
export function compliantAnswers(items, answers) {
  const out = {};
  for (const item of items) {
    if (!isCompliance(item) || item.applicable !== true) continue;
    if (answers[item.fact] !== undefined) continue;
    out[item.fact] = item.compliant_if;
  }
  return out;
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
  return parts.join(', ');
}
