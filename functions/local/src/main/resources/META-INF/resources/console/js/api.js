// The public HTTP API (API.md), called with the bearer token kept in this tab's sessionStorage.

const TOKEN = 'cairn.token';
const BASE = 'cairn.apiBase';
const TEAM = 'cairn.team';

export const auth = {
  get token() { return sessionStorage.getItem(TOKEN); },
  get base() { return sessionStorage.getItem(BASE) || ''; },
  get team() { return sessionStorage.getItem(TEAM); },
  set team(t) { sessionStorage.setItem(TEAM, t); },
  signIn(token, base) {
    sessionStorage.setItem(TOKEN, token);
    if (base) sessionStorage.setItem(BASE, base.replace(/\/+$/, ''));
    else sessionStorage.removeItem(BASE);
  },
  signOut() {
    for (const k of Object.keys(sessionStorage)) if (k.startsWith('cairn.')) sessionStorage.removeItem(k);
  },
  /** The token's claims (sub, teams, exp), read for display only: the server verifies the signature. */
  claims(token = this.token) {
    const parts = (token || '').split('.');
    if (parts.length !== 3) throw new Error('this is not a JWT (three dot-separated parts)');
    const json = atob(parts[1].replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(json, (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes));
  },
};

export class ApiError extends Error {
  constructor(status, problem) {
    super((problem && (problem.detail || problem.title)) || 'HTTP ' + status);
    this.status = status;
    this.problem = problem;
  }
}

/** Calls `path` (starting with /v1/ or /q/); JSON in and out; a problem+json answer throws an ApiError. */
export async function call(method, path, { body, query, headers } = {}) {
  let url = auth.base + path;
  if (query) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') q.set(k, v);
    const qs = q.toString();
    if (qs) url += '?' + qs;
  }
  const h = { Authorization: 'Bearer ' + auth.token, ...headers };
  if (body !== undefined) h['Content-Type'] = 'application/json';
  const res = await (prefetched(method, url, headers) || fetch(url, {
    method, headers: h, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store',
    credentials: 'omit', referrerPolicy: 'no-referrer',
  }));
  const text = res.status === 204 ? '' : await res.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = { detail: text.slice(0, 300) }; }
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

/** The response index.html's inline script already asked for, when this is the same call with the same token; taken once. */
function prefetched(method, url, headers) {
  const p = window.cairnPrefetch;
  if (!p) return null;
  window.cairnPrefetch = null; // only the first call may use it: a later one wants fresh data
  return method === 'GET' && !headers && p.url === url && p.token === auth.token ? p.response : null;
}

/** The team's path prefix, id-checked (the grammar of API.md) so nothing else is ever put in a URL. */
export function teamPath(suffix = '') {
  return '/v1/teams/' + seg(auth.team) + suffix;
}

const ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export function seg(id) {
  if (!ID.test(id || '')) throw new ApiError(400, { detail: 'not an id (a–z, 0–9, _ and -, at most 64): ' + id });
  return id;
}
