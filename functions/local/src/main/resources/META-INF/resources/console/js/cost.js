// Cost: the usage ledger of the chosen sessions, charted over the samples this tab took, and the tool caches' stats.
import { call, teamPath, seg } from './api.js';
import { h, replace, field, fmtInt, fmtUsd } from './dom.js';
import { lineChart } from './chart.js';

const SESSIONS = 'cairn.cost.sessions';
const SAMPLES = 'cairn.cost.samples';

export function render(root, ctx) {
  const ids = h('input', { id: 'c-sessions', type: 'text', required: true, value: sessionStorage.getItem(SESSIONS) || '', placeholder: 's1, s2' });
  const out = h('div', { id: 'cost-view' });
  const form = h('form', { id: 'cost-form', class: 'filters' }, field('Sessions (comma-separated ids)', ids),
    h('button', { type: 'submit', id: 'cost-refresh' }, 'Refresh'));
  form.addEventListener('submit', (e) => { e.preventDefault(); load(); });
  replace(root, h('h2', null, 'Cost'),
    h('p', { class: 'hint' }, 'The API keeps running totals per session; the charts plot the totals this tab sampled at each refresh.'),
    form, out);
  if (ids.value) load();

  async function load() {
    try {
      const list = [...new Set(ids.value.split(',').map((x) => x.trim()).filter(Boolean))].map(seg);
      const key = SAMPLES + ':' + teamOf() + ':' + list.join(',');
      sessionStorage.setItem(SESSIONS, list.join(', '));
      const reports = await Promise.all(list.map(async (sid) => ({
        sid,
        usage: await call('GET', teamPath('/sessions/' + sid + '/usage')),
        cache: await call('GET', teamPath('/sessions/' + sid + '/tool-cache/stats')),
      })));
      const sum = { reads: 0, writes: 0, uncached: 0, output: 0, requests: 0, saved: 0, actual: 0, without: 0 };
      const byModel = new Map();
      for (const r of reports) {
        const t = r.usage.totals;
        sum.reads += t.cache_read_input_tokens; sum.writes += t.cache_creation_input_tokens;
        sum.uncached += t.input_tokens; sum.output += t.output_tokens; sum.requests += r.usage.requests;
        sum.saved += r.usage.cost.saved; sum.actual += r.usage.cost.actual; sum.without += r.usage.cost.without_cache;
        for (const [model, m] of Object.entries(r.usage.by_model || {})) {
          const acc = byModel.get(model) || { requests: 0, input: 0, writes: 0, reads: 0, output: 0 };
          acc.requests += m.requests; acc.input += m.input_tokens; acc.writes += m.cache_creation_input_tokens;
          acc.reads += m.cache_read_input_tokens; acc.output += m.output_tokens;
          byModel.set(model, acc);
        }
      }
      const samples = JSON.parse(sessionStorage.getItem(key) || '[]');
      samples.push({ t: Date.now(), reads: sum.reads, writes: sum.writes, uncached: sum.uncached, saved: sum.saved });
      sessionStorage.setItem(key, JSON.stringify(samples.slice(-200)));
      const allIn = sum.reads + sum.writes + sum.uncached;
      replace(out,
        h('dl', { class: 'kpis', id: 'cost-kpis' },
          h('dt', null, 'requests'), h('dd', null, fmtInt(sum.requests)),
          h('dt', null, 'cache hit ratio'), h('dd', { id: 'hit-ratio' }, allIn ? (100 * sum.reads / allIn).toFixed(1) + ' %' : '—'),
          h('dt', null, 'cost'), h('dd', null, fmtUsd(sum.actual)),
          h('dt', null, 'without cache'), h('dd', null, fmtUsd(sum.without)),
          h('dt', null, 'saved'), h('dd', { id: 'saved' }, fmtUsd(sum.saved))),
        lineChart({
          id: 'ledger-tokens', title: 'Input tokens over time', points: samples, format: fmtInt,
          series: [
            { key: 'reads', label: 'cache reads', cls: 's-reads' },
            { key: 'writes', label: 'cache writes', cls: 's-writes' },
            { key: 'uncached', label: 'uncached input', cls: 's-uncached' },
          ],
        }),
        lineChart({
          id: 'ledger-saved', title: 'Money saved by caching (USD)', points: samples, format: fmtUsd,
          series: [{ key: 'saved', label: 'saved', cls: 's-saved' }],
        }),
        h('table', { id: 'by-model' }, h('caption', null, 'Per model'),
          h('thead', null, h('tr', null, ['model', 'requests', 'uncached input', 'cache writes', 'cache reads', 'output'].map((x) => h('th', { scope: 'col' }, x)))),
          h('tbody', null, [...byModel].map(([model, m]) => h('tr', null, h('td', null, model),
            [m.requests, m.input, m.writes, m.reads, m.output].map((v) => h('td', { class: 'num' }, fmtInt(v))))))),
        h('table', { id: 'tool-cache' }, h('caption', null, 'Tool-result cache'),
          h('thead', null, h('tr', null, ['session', 'hit ratio', 'entries', 'bytes', 'hits', 'misses', 'evictions'].map((x) => h('th', { scope: 'col' }, x)))),
          h('tbody', null, reports.map(({ sid, cache: c }) => h('tr', null, h('td', null, sid),
            h('td', { class: 'num' }, c.hits + c.misses ? (100 * c.hits / (c.hits + c.misses)).toFixed(1) + ' %' : '—'),
            [c.entries, c.bytes, c.hits, c.misses, c.evictions].map((v) => h('td', { class: 'num' }, fmtInt(v))))))));
      ctx.status('');
    } catch (e) {
      ctx.status(ctx.describe(e), true);
    }
  }
}

function teamOf() {
  return sessionStorage.getItem('cairn.team');
}
