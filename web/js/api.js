// The REST API of the daemon that served this page (same origin): JSON reads, actions with the
// tab's token, and event streams. Errors carry the API's {"error": {...}} message.
import { token, ask_for_token, set_token } from './token.js';

export class api_error extends Error {
  constructor(status, body) {
    const e = body && body.error ? body.error : {};
    super(e.message || `HTTP ${status}`);
    this.status = status;
    this.code = e.code || '';
  }
}

function headers(extra) {
  const h = Object.assign({ Accept: 'application/json' }, extra || {});
  // Reads carry the token too when the tab has one (a daemon may require it for reads).
  if (token()) h.Authorization = `Bearer ${token()}`;
  return h;
}

async function parse(res) {
  const text = await res.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch (_) { body = text; }
  if (!res.ok) throw new api_error(res.status, body);
  return body;
}

export async function get_json(path) {
  return parse(await fetch(path, { headers: headers() }));
}

export async function get_text(path) {
  const res = await fetch(path, { headers: headers() });
  if (!res.ok) await parse(res);
  return res.text();
}

// A POST, PUT or DELETE: asks for the token first when the tab has none, and forgets a token the
// daemon refuses so that the next action asks again.
export async function act(method, path, body) {
  await ask_for_token(`token for ${method} ${path}`);
  const init = { method, headers: headers(body === undefined ? {} : { 'Content-Type': 'application/json' }) };
  if (body !== undefined) init.body = JSON.stringify(body);
  try {
    return await parse(await fetch(path, init));
  } catch (e) {
    if (e.status === 401 || e.status === 403) set_token('');
    throw e;
  }
}

// An EventSource on `path` calling handlers[event] with each frame's parsed data. Returns the
// source; close() it when the view goes.
export function events(path, handlers) {
  const source = new EventSource(path);
  for (const [name, fn] of Object.entries(handlers)) {
    if (name === 'error') continue;
    source.addEventListener(name, (e) => fn(JSON.parse(e.data)));
  }
  if (handlers.error) source.onerror = handlers.error;
  return source;
}
