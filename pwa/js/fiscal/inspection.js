// Starting an inspection: from a scanned crachá (verified offline), from the registry (permit
// number, plate or name typed in), or with nobody identified (the no-alvará case).
import { b32encode } from '../credentials/base32.js';
import { splitPayload } from '../credentials/body.js';
import { prepareTrust, verify, worded, CADUCADO, DESCONHECIDO, VALIDO, VENCIDO } from '../credentials/verify.js';
import { dataAgeSeconds, fieldGeneration, loadField, loadFieldHead } from './field-data.js';
import { newDraft } from './records.js';
import { localIsoDate } from '../data/operator.js';

// Registry facts the packs read, from the field-data rows (JS twin of
// server/modules/registry/facts.py; only what the registry really knows).
export function registryFactsOf(view) {
  const o = view.operator || {};
  const v = view.vehicle || {};
  const facts = {
    'operator.birth_date': o.birth_date, 'operator.cnh_first_issue_date': o.cnh_first_issue_date,
    'operator.resident_since': o.residence_since,
    'operator.rehabilitation_course_on': o.rehabilitation_course_on,
    'operator.cnh_category_ok': o.cnh_category ? o.cnh_category.includes('A') : undefined,
    'vehicle.engine_cc': v.engine_cc, 'vehicle.manufacture_year': v.year_manufacture,
    // Vistoria and insurance recorded in the back office (issue 11): expired ones fail the rules.
    'vehicle.inspection_valid_until': v.vistoria_until, 'insurance.valid_until': v.insurance_until,
  };
  return Object.fromEntries(Object.entries(facts).filter(([, value]) => value !== undefined && value !== null));
}

let prepared = { source: null, trust: null };
const warmed = new WeakSet(); // prepared trusts whose signature check has run once

/** The law's word for the permit, as the trust data carries it (server registry.vocabulary). */
export function permitWords(data) {
  const m = data?.trust?.municipality || {};
  return { noun: m.permit_noun || 'permissão', feminine: m.permit_feminine ?? true };
}

async function trustOf(data) {
  if (prepared.source !== data.trust) prepared = { source: data.trust, trust: await prepareTrust(data.trust) };
  return prepared.trust;
}

function subjectOf(view) {
  if (!view) return null;
  return {
    permit_id: view.permit.id, permit_number: view.permit.number, permit_status: view.permit.status,
    valid_until: view.permit.valid_until || null, issued_on: view.permit.issued_on || null,
    holder_company: view.permit.holder_company || null, operator_id: view.operator?.id ?? null,
    name: view.operator?.name || view.permit.holder_company || null,
    vehicle: view.vehicle ? { make: view.vehicle.make || null, model: view.vehicle.model || null, plate_category: view.vehicle.plate_category || null } : null,
    plate: view.plate || null, ponto: view.ponto?.name || null, facts: registryFactsOf(view),
    disqualified_on: view.operator?.disqualified_on || null, disqualified_basis: view.operator?.disqualified_basis || null,
    // Requirements the imported permit is recorded in transition for (fiscal/transitions.js).
    transitions: view.permit.transitions || [],
  };
}

/**
 * The field data and trusted keys, read and prepared before the crachá is read (the home when
 * idle, else the scanner while the camera starts). The scanner hands the result to
 * startFromPayload, which then skips loadField's IndexedDB check (~10–20 ms at 4× CPU at the
 * decoded frame) unless this tab wrote field data since (a download meanwhile). Once per
 * prepared trust, a made-up crachá is checked: its signature fails, so nothing is shown or kept,
 * but the first real crachá then meets the parse, the signature check and — with `rehearse`,
 * the home's call, not the scanner's while its camera starts — the permit's read warm (the
 * first real signature check took ~10 ms more than the next at 4× CPU, bench/fieldapp_perf.py).
 */
export async function prepareVerification({ rehearse = false } = {}) {
  const generation = fieldGeneration();
  const data = await loadFieldHead();
  if (!data.trust) return { data, generation };
  const trust = await trustOf(data);
  if (!warmed.has(trust)) {
    warmed.add(trust);
    const text = madeUpCrachá(trust, rehearse ? anyPermitNumber(data.trust) : null);
    if (text) await check(text, data, trust, { rehearsal: true, read: rehearse }).catch(() => null);
  }
  return { data, generation };
}

/** Verify a scanned crachá text and open a draft showing its verdict (prepared: what
 * prepareVerification returned, when the scanner has it). */
export async function startFromPayload(text, prepared = null) {
  const data = prepared?.generation === fieldGeneration() ? prepared.data : await loadFieldHead();
  const { result, view } = await check(text, data, data.trust ? await trustOf(data) : null);
  const body = result.credential || {};
  const subject = subjectOf(view) || (body.permit_number ? { permit_number: body.permit_number, facts: {} } : null);
  return newDraft({
    source: 'cracha', permit_number: body.permit_number || null, plate: subject?.plate || null, subject,
    permit_word: permitWords(data).noun,
    credential: { verdict: result.verdict, reason: result.reason_pt, reason_code: result.reason_code, payload_text: text, expires_on: body.expires_on || null },
    data_age_s: result.data_age_seconds ?? dataAgeSeconds(data),
  }, { background: true });
}

// The check of a crachá text: its verdict, and the registry view of the permit it names once
// verified (null otherwise). The registry look-up starts with the signature check, not after
// it: before the rows are in memory it is an IndexedDB read, as long as the check or longer at
// 4× CPU. Only a verified body's permit is shown (a forged one's read is dropped). A rehearsal
// leaves no performance marks, and reads only when asked to.
async function check(text, data, trust, { rehearsal = false, read = true } = {}) {
  const mark = (name) => { if (!rehearsal) performance.mark(name); };
  const claimed = read ? claimedPermit(text) : null;
  const lookup = claimed ? Promise.resolve(data.index.byNumber(claimed)) : null;
  // bench/fieldapp_perf.py splits decoded → verified by these two marks.
  lookup?.then(() => mark('verify-permit-read'), () => {}); // awaited below only when the crachá verified
  let result;
  if (!trust) {
    result = { verdict: DESCONHECIDO, reason_code: 'no_data', reason_pt: 'Sem dados de crachás neste aparelho: atualize os dados.', data_age_seconds: null, credential: null };
  } else {
    result = await verify(text, trust, Date.now());
    mark('verify-signed');
  }
  const body = result.credential || {};
  let view = null;
  if (body.permit_number) view = body.permit_number === claimed ? await lookup : await data.index.byNumber(body.permit_number);
  return { result, view };
}

// A crachá text in the URL form whose signature is 64 zero bytes: it parses, names the trust's
// first key and municipality and `permitNumber` (a made-up one when null), and fails its check.
function madeUpCrachá(trust, permitNumber) {
  const [kid] = trust.keys.keys();
  if (!kid || !trust.ibgeCode) return null;
  const number = [...(permitNumber || 'ENSAIO')].map((c) => c.charCodeAt(0)).filter((c) => c >= 0x20 && c <= 0x7e).slice(0, 20);
  const ibge = trust.ibgeCode;
  const body = [1, kid, (ibge >> 16) & 255, (ibge >> 8) & 255, ibge & 255, 0, 0, 0, 1, 0, 1, number.length, ...number];
  return `https://ensaio.invalid/V/${b32encode(Uint8Array.from([...body, ...new Uint8Array(64)]))}`;
}

// One permit number the trust data lists (the grouped format), for the rehearsal's read.
function anyPermitNumber(trustData) {
  return Object.values(trustData?.statuses?.permit ?? {}).find((refs) => refs?.length)?.[0] ?? null;
}

/** The permit number a payload claims, before any check (null when it does not parse). */
function claimedPermit(text) {
  try {
    return splitPayload(text).body.permit_number || null;
  } catch {
    return null;
  }
}

const STATUS_VERDICT = { ativo: VALIDO, suspenso: 'SUSPENSO', cassado: 'CASSADO', vencido: VENCIDO, caducado: CADUCADO, extinto: 'INVÁLIDO' };

/** Registry look-up without a crachá: the verdict comes from the permit's status. */
export async function startFromPermit(view) {
  const data = await loadField();
  const subject = subjectOf(view);
  const today = localIsoDate(new Date()); // the municipality's day, not UTC's (20:00 in Cuiabá is tomorrow in UTC)
  let verdict = STATUS_VERDICT[subject.permit_status] || DESCONHECIDO;
  if (verdict === VALIDO && subject.valid_until && subject.valid_until < today) verdict = VENCIDO;
  const words = permitWords(data);
  const status = subject.permit_status ? worded(`${subject.permit_status.slice(0, -1)}{o}`, words.noun, words.feminine) : 'sem situação conhecida';
  return newDraft({
    source: 'busca', permit_number: subject.permit_number, plate: subject.plate, subject, permit_word: words.noun,
    credential: { verdict, reason: worded(`Consulta ao cadastro do aparelho (sem leitura de crachá): {p} ${status}.`, words.noun, words.feminine), reason_code: 'registry_lookup', payload_text: null },
    data_age_s: dataAgeSeconds(data),
  });
}

export async function startUnidentified({ plate, name }) {
  const data = await loadField();
  return newDraft({
    source: 'sem_cracha', permit_number: null, plate: plate || null,
    subject: { name: name || null, plate: plate || null, facts: {}, unidentified: true },
    credential: null, data_age_s: dataAgeSeconds(data), step: 'checklist',
  });
}
