// Sign-in, the team selector and the page router (#/memories, #/sessions, ...). No data ever goes into the URL.
import { auth, call, ApiError } from './api.js';
import { h, replace } from './dom.js';
import * as memories from './memories.js';

// The first page comes with the app; the others load when first opened (less to fetch and compile up front).
const PAGES = {
  memories: () => memories,
  sessions: () => import('./sessions.js'),
  cost: () => import('./cost.js'),
  team: () => import('./team.js'),
  health: () => import('./health.js'),
};
const $ = (id) => document.getElementById(id);

export function status(text, isError = false) {
  const el = $('status');
  el.textContent = text;
  el.classList.toggle('error', isError);
}

/** The message to show for a failed call: the problem's detail, and what to do about a 401/412. */
export function describe(err) {
  if (err instanceof ApiError) {
    if (err.status === 401) return 'Not signed in or the token expired: ' + err.message;
    return 'HTTP ' + err.status + ': ' + err.message;
  }
  return String(err && err.message ? err.message : err);
}

async function signIn(ev) {
  ev.preventDefault();
  const input = $('token');
  const token = input.value.trim();
  const base = $('api-base').value.trim();
  const out = $('sign-in-error');
  out.textContent = '';
  let claims;
  try {
    claims = auth.claims(token);
  } catch (e) {
    out.textContent = 'That token cannot be read: ' + e.message;
    return;
  }
  const teams = Array.isArray(claims.teams) ? claims.teams : [];
  if (!teams.length) {
    out.textContent = 'The token names no team (claim "teams"): mint it with --team.';
    return;
  }
  auth.signIn(token, base);
  auth.team = teams[0];
  try {
    await call('GET', '/v1/teams/' + teams[0] + '/memories', { query: { limit: 1 } });
  } catch (e) {
    auth.signOut();
    out.textContent = describe(e);
    return;
  }
  input.value = '';
  start();
}

function start() {
  const claims = auth.claims();
  $('sign-in').hidden = true;
  $('nav').hidden = false;
  $('who').hidden = false;
  $('who-user').textContent = 'Signed in as ' + claims.sub;
  const teams = Array.isArray(claims.teams) ? claims.teams : [];
  const sel = replace($('team-select'), teams.map((t) => h('option', { value: t }, t)));
  if (!teams.includes(auth.team)) auth.team = teams[0];
  sel.value = auth.team;
  if (!location.hash) location.hash = '#/memories';
  route();
}

let routing = 0;

async function route() {
  if (!auth.token) return;
  const turn = ++routing;
  const name = (location.hash.match(/^#\/(\w+)/) || [])[1];
  const page = PAGES[name] ? name : 'memories';
  for (const a of document.querySelectorAll('#nav a')) {
    if (a.dataset.page === page) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  const module = await PAGES[page]();
  if (turn !== routing) return; // another page was chosen while this one loaded
  const root = replace($('page'));
  root.dataset.page = page;
  status('');
  module.render(root, { status, describe });
}

function boot() {
  $('sign-in-form').addEventListener('submit', signIn);
  $('sign-out').addEventListener('click', () => {
    auth.signOut();
    location.hash = '';
    location.reload();
  });
  $('team-select').addEventListener('change', (e) => {
    auth.team = e.target.value;
    route();
  });
  window.addEventListener('hashchange', route);
  let signedIn = false;
  if (auth.token) {
    try {
      const exp = auth.claims().exp;
      signedIn = !exp || exp * 1000 > Date.now();
    } catch {
      signedIn = false;
    }
    if (!signedIn) auth.signOut();
  }
  if (signedIn) start();
  else $('sign-in').hidden = false;
}

boot();
