// Health: decay runs, a histogram of effective importance, and secret findings by rule.
import { call, teamPath } from './api.js';
import { auth } from './api.js';
import { h, replace, fmtInt } from './dom.js';
import { barChart } from './chart.js';

const RUNS = 'cairn.decay.runs';
// The decay job's defaults (DecayPolicy.defaults(): factor 0.98 per day of disuse, archive below 0.05).
const FACTOR = 0.98;
const ARCHIVE_BELOW = 0.05;
const SAMPLE_PAGES = 4;

export function render(root, ctx) {
  const decay = h('section', { id: 'decay', class: 'panel', 'aria-label': 'Decay' });
  const hist = h('section', { id: 'importance', class: 'panel', 'aria-label': 'Importance' });
  const secrets = h('section', { id: 'secrets', class: 'panel', 'aria-label': 'Secret findings' });
  replace(root, h('h2', null, 'Health'), decay, hist, secrets);
  renderDecay();
  importance().catch((e) => ctx.status(ctx.describe(e), true));
  metrics();

  function renderDecay() {
    const runs = JSON.parse(sessionStorage.getItem(RUNS) || '[]').filter((r) => r.team === auth.team);
    const run = h('button', { type: 'button', id: 'decay-run' }, 'Run the decay job for this team now');
    run.addEventListener('click', async () => {
      try {
        const r = await call('POST', teamPath('/decay:run'));
        const all = JSON.parse(sessionStorage.getItem(RUNS) || '[]');
        all.push({ ...r, at: new Date().toISOString() });
        sessionStorage.setItem(RUNS, JSON.stringify(all.slice(-50)));
        renderDecay();
        importance();
        metrics();
      } catch (e) { ctx.status(ctx.describe(e), true); }
    });
    replace(decay, h('h3', null, 'Decay runs'),
      h('p', { class: 'hint' }, 'The schedule runs the job hourly; runs started from this tab are listed here, the server\'s totals below.'),
      run,
      h('table', { id: 'decay-runs' }, h('caption', null, 'Runs from this tab'),
        h('thead', null, h('tr', null, ['at (UTC)', 'scanned', 'decayed', 'archived', 'deleted'].map((x) => h('th', { scope: 'col' }, x)))),
        h('tbody', null, runs.reverse().map((r) => h('tr', null, h('td', null, r.at.slice(0, 19)),
          [r.scanned, r.decayed, r.archived, r.deleted].map((v) => h('td', { class: 'num' }, fmtInt(v))))))),
      h('div', { id: 'decay-totals' }));
  }

  async function importance() {
    const now = Date.now();
    const values = [];
    let cursor;
    for (let i = 0; i < SAMPLE_PAGES; i++) {
      const page = await call('GET', teamPath('/memories'), { query: { limit: 500, cursor, order: 'importance' } });
      for (const m of page.memories) {
        if (m.state !== 'active') continue;
        const last = Date.parse(m.last_accessed_at || m.created_at);
        const days = Math.max(0, (now - last) / 86400000);
        values.push(m.importance * Math.pow(FACTOR, days / Math.max(m.access_count, 1)));
      }
      cursor = page.next_cursor;
      if (!cursor) break;
    }
    const bins = Array.from({ length: 10 }, (_, i) => ({ from: i / 10, label: (i / 10).toFixed(1) + '–' + ((i + 1) / 10).toFixed(1), count: 0 }));
    for (const v of values) bins[Math.min(9, Math.floor(v * 10))].count++;
    const below = values.filter((v) => v < ARCHIVE_BELOW).length;
    replace(hist, h('h3', null, 'Effective importance'),
      h('p', { class: 'hint', id: 'importance-summary' }, fmtInt(values.length) + ' active memories'
        + (cursor ? ' (the ' + fmtInt(values.length) + ' most important sampled)' : '') + '; ' + fmtInt(below)
        + ' under the archive threshold ' + ARCHIVE_BELOW + ' (importance × ' + FACTOR + '^(days since last use ÷ accesses), the job\'s default factor)'),
      barChart({ id: 'importance-histogram', title: 'Memories by effective importance', bins, format: (v) => v.toFixed(1) }));
  }

  async function metrics() {
    let text;
    try {
      if (auth.base) throw new Error('remote');
      const res = await fetch('/q/metrics', { cache: 'no-store' });
      if (!res.ok) throw new Error('HTTP ' + res.status);
      text = await res.text();
    } catch {
      replace(secrets, h('h3', null, 'Secret findings by rule'),
        h('p', null, 'This server publishes no metrics to the console (in AWS they are CloudWatch metrics).'));
      return;
    }
    const findings = new Map();
    const decayTotals = {};
    for (const line of text.split('\n')) {
      let m = line.match(/^cairn_secret_findings_total\{([^}]*)\}\s+([0-9.eE+-]+)/);
      if (m) {
        const labels = Object.fromEntries([...m[1].matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
        const key = labels.rule || '?';
        const row = findings.get(key) || {};
        row[labels.outcome || 'count'] = (row[labels.outcome || 'count'] || 0) + Number(m[2]);
        findings.set(key, row);
        continue;
      }
      m = line.match(/^cairn_decay_(scanned|decayed|archived|deleted)_total(?:\{[^}]*\})?\s+([0-9.eE+-]+)/);
      if (m) decayTotals[m[1]] = (decayTotals[m[1]] || 0) + Number(m[2]);
    }
    const outcomes = [...new Set([...findings.values()].flatMap((r) => Object.keys(r)))].sort();
    replace(secrets, h('h3', null, 'Secret findings by rule'),
      findings.size ? h('table', { id: 'secret-findings' }, h('caption', null, 'Since this server started'),
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'rule'), outcomes.map((o) => h('th', { scope: 'col' }, o)))),
        h('tbody', null, [...findings].sort().map(([rule, row]) => h('tr', null, h('td', null, rule),
          outcomes.map((o) => h('td', { class: 'num' }, fmtInt(row[o] || 0)))))))
        : h('p', null, 'No secret found since this server started.'));
    const totals = document.getElementById('decay-totals');
    if (totals) {
      replace(totals, h('p', { class: 'hint' }, 'Server totals since start: ' + ['scanned', 'decayed', 'archived', 'deleted']
        .map((k) => k + ' ' + fmtInt(decayTotals[k] || 0)).join(', ')));
    }
  }
}
