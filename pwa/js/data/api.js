// fetch wrapper for the server's JSON API (/api/v1): bearer token, JSON bodies, and the error
// envelope {"error": {"code", "message", "fields"}} turned into an ApiError the screens show.

const API_ROOT = '/api/v1';

export class ApiError extends Error {
  constructor({ status, code, message, fields = {} }) {
    super(message);
    this.name = 'ApiError';
    this.status = status; // 0 when the server could not be reached
    this.code = code;
    this.fields = fields; // {field: ["reason", …]} for forms
  }

  get offline() {
    return this.status === 0;
  }
}

function url(path) {
  return path.startsWith('/api/') ? path : `${API_ROOT}${path}`;
}

/** JSON text gzip-compressed in the browser (CompressionStream: Chrome 80+, Safari 16.4+,
 *  Firefox 113+), or null where it is missing (the body then goes as it is). */
async function gzipped(text) {
  if (typeof CompressionStream !== 'function') return null;
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export async function send(path, { method = 'GET', body, token, accept = 'application/json', headers: extra = {}, raw, gzip = false } = {}) {
  const headers = { Accept: accept, ...extra };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload = raw !== undefined ? raw : (body === undefined ? undefined : JSON.stringify(body));
  if (gzip && typeof payload === 'string') {
    const compressed = await gzipped(payload);
    if (compressed) {
      payload = compressed;
      headers['Content-Encoding'] = 'gzip'; // the server inflates it, bounded (core/request_encoding.py)
    }
  }
  let response;
  try {
    response = await fetch(url(path), {
      method,
      headers,
      body: payload,
      credentials: 'omit', // the API trusts bearer tokens only
      cache: 'no-store',   // personal data: keep it out of the HTTP cache
    });
  } catch {
    throw new ApiError({ status: 0, code: 'offline', message: 'Sem conexão com o servidor.' });
  }
  if (response.ok || response.status === 304) return response;
  let error = null;
  try {
    error = (await response.json()).error;
  } catch {
    // not an envelope (proxy error page…): fall through to a generic message
  }
  throw new ApiError({
    status: response.status,
    code: (error && error.code) || `http_${response.status}`,
    message: (error && error.message) || 'O servidor não respondeu como esperado. Tente novamente.',
    fields: (error && error.fields) || {},
  });
}

export async function apiJson(path, options) {
  const response = await send(path, options);
  return response.status === 204 ? null : response.json();
}

export async function apiBlob(path, options = {}) {
  const response = await send(path, { ...options, accept: '*/*' });
  return response.blob();
}
