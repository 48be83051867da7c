// Offline credential verification — mirror of server/modules/credentials/verifier.py, same checks
// in the same order, held to tests/vectors/credentials/vectors.json by tests/js/.
//
//   const trust = await prepareTrust(trustJson);          // once per sync
//   const result = await verify(scannedText, trust, Date.now());
//   scannedText: the QR text as decoded, either HTTPS://HOST/V/<base32> or the first MF1:<base45>
//   -> { verdict, reason_code, reason_pt, data_age_seconds, credential }
//
// Ed25519 uses WebCrypto where the browser has it (Chrome 137+, Safari 17+, Firefox 129+) and
// falls back to @noble/ed25519 (self-hosted under vendor/) when importKey throws.
import { splitPayload, CodecError } from './body.js';
import { statusLookups } from './trust.js';

export const VALIDO = 'VÁLIDO';
export const INVALIDO = 'INVÁLIDO';
export const SUSPENSO = 'SUSPENSO';
export const CASSADO = 'CASSADO';
export const VENCIDO = 'VENCIDO';
export const CADUCADO = 'CADUCADO';
export const DESCONHECIDO = 'DESCONHECIDO';

export const REASONS = {
  ok: [VALIDO, 'Credencial autêntica, {p} ativ{o}.'],
  empty: [INVALIDO, 'Conteúdo vazio.'],
  bad_prefix: [INVALIDO, 'Este QR não é um crachá Motofiscal.'],
  bad_base45: [INVALIDO, 'Conteúdo corrompido (caracteres inválidos).'],
  bad_base32: [INVALIDO, 'Conteúdo corrompido (caracteres inválidos).'],
  bad_length: [INVALIDO, 'Conteúdo corrompido ou incompleto.'],
  bad_body: [INVALIDO, 'Conteúdo corrompido.'],
  unsupported_version: [INVALIDO, 'Versão de crachá não suportada.'],
  other_municipality: [INVALIDO, 'Credencial emitida por outro município.'],
  unknown_key: [INVALIDO, 'Chave do emissor desconhecida com dados atualizados: crachá falsificado.'],
  unknown_key_stale: [DESCONHECIDO, 'Chave do emissor desconhecida e dados desatualizados: sincronize o aparelho.'],
  bad_signature: [INVALIDO, 'Assinatura inválida: crachá adulterado ou falsificado.'],
  key_revoked: [INVALIDO, 'Chave do emissor revogada.'],
  expired: [VENCIDO, 'Credencial vencida.'],
  clock_behind: [DESCONHECIDO, 'Relógio do aparelho anterior aos dados: confira data e hora.'],
  stale_data: [DESCONHECIDO, 'Dados desatualizados: sincronize o aparelho.'],
  permit_cassado: [CASSADO, '{P} cassad{o}.'],
  permit_suspenso: [SUSPENSO, '{P} suspens{o}.'],
  permit_vencido: [VENCIDO, '{P} vencid{o}.'],
  permit_caducado: [CADUCADO, '{P} caducad{o} (não renovad{o} no prazo).'],
  permit_extinto: [INVALIDO, '{P} extint{o}.'],
  credential_revoked: [INVALIDO, 'Credencial revogada.'],
  credential_superseded: [INVALIDO, 'Credencial substituída por uma via mais recente.'],
  permit_unknown: [DESCONHECIDO, '{P} ausente dos dados do aparelho.'],
  credential_unknown: [DESCONHECIDO, 'Credencial emitida após a última atualização dos dados.'],
};

const PERMIT_STATUS_REASON = {
  cassado: 'permit_cassado',
  suspenso: 'permit_suspenso',
  vencido: 'permit_vencido',
  caducado: 'permit_caducado',
  extinto: 'permit_extinto',
};
const CREDENTIAL_STATUS_REASON = { revoked: 'credential_revoked', superseded: 'credential_superseded' };

let noble = null;
// Tests (Node) inject the module from pwa/node_modules; the app loads the vendored copy lazily.
export function setNoble(module) {
  noble = module;
}
async function loadNoble() {
  if (!noble) noble = await import(new URL('../../vendor/@noble/ed25519/index.js', import.meta.url).href);
  return noble;
}

export function b64urlDecode(text) {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const bin = atob(b64);
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

// Returns a verifier function (signature, message) -> Promise<boolean> for one raw public key
// (also the operator's copy page, autocopy/page.js).
export async function makeKeyVerifier(raw, forceNoble) {
  if (!forceNoble) {
    try {
      const key = await crypto.subtle.importKey('raw', raw, { name: 'Ed25519' }, false, ['verify']);
      return (sig, msg) => crypto.subtle.verify({ name: 'Ed25519' }, key, sig, msg);
    } catch (err) {
      if (err?.name !== 'NotSupportedError' && !(err instanceof TypeError)) throw err;
    }
  }
  const ed = await loadNoble();
  // zip215:false = RFC 8032 strict, the same acceptance rules as pyca/cryptography and WebCrypto.
  return (sig, msg) => ed.verifyAsync(sig, msg, raw, { zip215: false });
}

// The synced trust data made ready to verify against (trust.js statusLookups: every stored or
// received shape; the stored grouped arrays are searched, not indexed).
export async function prepareTrust(data, { forceNoble = false } = {}) {
  const trust = {
    ibgeCode: Number(data.municipality.ibge_code),
    utcOffsetMs: (data.municipality.utc_offset_minutes ?? -240) * 60000,
    generatedAtMs: Date.parse(data.generated_at),
    maxAgeSeconds: Number(data.max_age_seconds),
    keys: new Map(),
    permits: new Map(),
    credentials: new Map(),
    // The law's word for the permit (server registry.vocabulary), for the reason texts.
    permitNoun: data.municipality.permit_noun || 'permissão',
    permitFeminine: data.municipality.permit_feminine ?? true,
  };
  for (const key of data.keys ?? []) {
    trust.keys.set(Number(key.kid), {
      verify: await makeKeyVerifier(b64urlDecode(key.public_key), forceNoble),
      status: key.status,
    });
  }
  const maps = statusLookups(data);
  trust.permits = maps.permit;
  trust.credentials = maps.credential;
  for (const [kid, status] of maps.key) if (trust.keys.has(kid)) trust.keys.get(kid).status = status;
  return trust;
}

function verdict(code, age, body = null) {
  const [v, reasonPt] = REASONS[code];
  return { verdict: v, reason_code: code, reason_pt: reasonPt, data_age_seconds: age, credential: body };
}

/** A reason text with the permit named as the law names it: {P}/{p} the noun, {o} its ending. */
export function worded(text, noun = 'permissão', feminine = true) {
  return text.replaceAll('{P}', noun.charAt(0).toUpperCase() + noun.slice(1)).replaceAll('{p}', noun)
    .replaceAll('{o}', feminine ? 'a' : 'o');
}

export async function verify(payload, trust, nowMs) {
  const result = await decide(payload, trust, nowMs);
  return { ...result, reason_pt: worded(result.reason_pt, trust.permitNoun, trust.permitFeminine) };
}

async function decide(payload, trust, nowMs) {
  const age = Math.floor((nowMs - trust.generatedAtMs) / 1000);
  let parts;
  try {
    parts = splitPayload(payload);
  } catch (err) {
    if (err instanceof CodecError) return verdict(err.code, age);
    throw err;
  }
  const { bodyBytes, body, signature } = parts;
  if (body.ibge_code !== trust.ibgeCode) return verdict('other_municipality', age, body);
  const key = trust.keys.get(body.kid);
  if (!key) {
    // Fresh data lists every key the municipality ever used: an unknown one is made up. The
    // fields are unverified either way, so they are not shown (as for a bad signature).
    const fresh = age >= 0 && age <= trust.maxAgeSeconds;
    return verdict(fresh ? 'unknown_key' : 'unknown_key_stale', age);
  }
  if (!(await key.verify(signature, bodyBytes))) return verdict('bad_signature', age);
  if (key.status === 'revoked') return verdict('key_revoked', age, body);
  const today = new Date(nowMs + trust.utcOffsetMs).toISOString().slice(0, 10);
  if (today > body.expires_on) return verdict('expired', age, body);
  const credentialStatus = trust.credentials.get(Number(body.serial));
  if (Object.hasOwn(CREDENTIAL_STATUS_REASON, credentialStatus ?? '')) return verdict(CREDENTIAL_STATUS_REASON[credentialStatus], age, body);
  if (age < 0) return verdict('clock_behind', age, body);
  if (age > trust.maxAgeSeconds) return verdict('stale_data', age, body);
  const permitStatus = trust.permits.get(body.permit_number);
  if (Object.hasOwn(PERMIT_STATUS_REASON, permitStatus ?? '')) return verdict(PERMIT_STATUS_REASON[permitStatus], age, body);
  // A crachá follows its permit: its own entry may carry the permit's status.
  if (Object.hasOwn(PERMIT_STATUS_REASON, credentialStatus ?? '')) return verdict(PERMIT_STATUS_REASON[credentialStatus], age, body);
  if (permitStatus !== 'ativo') return verdict('permit_unknown', age, body);
  if (credentialStatus !== 'active') return verdict('credential_unknown', age, body);
  return verdict('ok', age, body);
}
