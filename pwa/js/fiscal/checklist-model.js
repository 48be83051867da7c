// From the composed packs to the checklist the fiscal answers, and from the answers to the facts
// the evaluator takes. Pure (Node tests): no DOM, no storage.
export const NOT_CHECKED = 'nao_verificado';

const GROUPS = [
  ['veiculo', 'Veículo'], ['equipamentos', 'Equipamentos'], ['condutor', 'Condutor'],
  ['passageiro', 'Passageiro'], ['documentos', 'Documentos'], ['conduta', 'Conduta'], ['outros', 'Outros'],
];
export const GROUP_LABELS = Object.fromEntries(GROUPS);

/** Group of a fact by its name (the packs name facts "<area>.<what>"). */
export function groupOf(fact) {
  if (/document|cnh|licen|alvara|permit/.test(fact)) return 'documentos';
  const area = fact.split('.')[0];
  return { vehicle: 'veiculo', equipment: 'equipamentos', driver: 'condutor', operator: 'condutor',
    passenger: 'passageiro', service: 'conduta', goods: 'conduta', conduct: 'conduta' }[area] || 'outros';
}

export function groupItems(items) {
  const out = GROUPS.map(([key, label]) => ({ key, label, items: items.filter((i) => groupOf(i.fact) === key) }));
  return out.filter((g) => g.items.length);
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
