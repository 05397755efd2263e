// Cost: the usage ledger of the chosen sessions over time (GET …/usage/series, hour or day buckets) in total and per
// model, the totals and cost (GET …/usage), and the tool caches' stats.
import { call, teamPath, seg } from './api.js';
import { h, replace, field, fmtInt, fmtUsd } from './dom.js';
import { lineChart } from './chart.js';

const SESSIONS = 'cairn.cost.sessions';
const STEP = { hour: 3600e3, day: 86400e3 };
const MAX_BUCKETS = 24 * 31; // a month of hours: older buckets are left off the chart (the tables keep the totals)

export function render(root, ctx) {
  const ids = h('input', { id: 'c-sessions', type: 'text', required: true, value: sessionStorage.getItem(SESSIONS) || '', placeholder: 's1, s2' });
  const bucket = h('select', { id: 'c-bucket' }, h('option', { value: 'hour' }, 'hour'), h('option', { value: 'day' }, 'day'));
  const out = h('div', { id: 'cost-view' });
  const form = h('form', { id: 'cost-form', class: 'filters' }, field('Sessions (comma-separated ids)', ids),
    field('Per', bucket), h('button', { type: 'submit', id: 'cost-refresh' }, 'Refresh'));
  form.addEventListener('submit', (e) => { e.preventDefault(); load(); });
  bucket.addEventListener('change', () => { if (ids.value) load(); });
  replace(root, h('h2', null, 'Cost'),
    h('p', { class: 'hint' }, 'The ledger per hour or day (UTC) in which usage was posted, for all models and per model.'),
    form, out);
  if (ids.value) load();

  async function load() {
    try {
      const list = [...new Set(ids.value.split(',').map((x) => x.trim()).filter(Boolean))].map(seg);
      sessionStorage.setItem(SESSIONS, list.join(', '));
      const per = bucket.value;
      const reports = await Promise.all(list.map(async (sid) => {
        const [usage, series, cache] = await Promise.all([
          call('GET', teamPath('/sessions/' + sid + '/usage')),
          call('GET', teamPath('/sessions/' + sid + '/usage/series'), { query: { bucket: per } }),
          call('GET', teamPath('/sessions/' + sid + '/tool-cache/stats')),
        ]);
        return { sid, usage, series, cache };
      }));
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
      const points = reports.flatMap((r) => r.series.points);
      const all = buckets(points, per, () => true);
      const models = [...new Set(points.map((p) => p.model))].sort();
      const allIn = sum.reads + sum.writes + sum.uncached;
      replace(out,
        h('dl', { class: 'kpis', id: 'cost-kpis' },
          h('dt', null, 'requests'), h('dd', null, fmtInt(sum.requests)),
          h('dt', null, 'cache hit ratio'), h('dd', { id: 'hit-ratio' }, allIn ? (100 * sum.reads / allIn).toFixed(1) + ' %' : '—'),
          h('dt', null, 'cost'), h('dd', null, fmtUsd(sum.actual)),
          h('dt', null, 'without cache'), h('dd', null, fmtUsd(sum.without)),
          h('dt', null, 'saved'), h('dd', { id: 'saved' }, fmtUsd(sum.saved))),
        lineChart({
          id: 'ledger-tokens', title: 'Input tokens per ' + per + ', all models', points: all, format: fmtInt, per,
          series: TOKENS,
        }),
        lineChart({
          id: 'ledger-saved', title: 'Money saved by caching per ' + per + ' (USD, priced models)', points: all,
          format: fmtUsd, per, series: [{ key: 'saved', label: 'saved', cls: 's-saved' }],
        }),
        h('div', { id: 'per-model-charts' }, models.map((model, i) => lineChart({
          id: 'ledger-model-' + i, title: model + ': input tokens per ' + per,
          points: buckets(points, per, (p) => p.model === model), format: fmtInt, per, series: TOKENS,
        }))),
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

const TOKENS = [
  { key: 'reads', label: 'cache reads', cls: 's-reads' },
  { key: 'writes', label: 'cache writes', cls: 's-writes' },
  { key: 'uncached', label: 'uncached input', cls: 's-uncached' },
];

/**
 * The points that pass `keep`, summed per bucket (over sessions and models), with the buckets without usage between
 * the first and the last filled with zeros, so the line drops to zero there instead of bridging the gap.
 */
function buckets(points, per, keep) {
  const by = new Map();
  for (const p of points) {
    if (!keep(p)) continue;
    const t = Date.parse(p.start);
    const b = by.get(t) || { t, reads: 0, writes: 0, uncached: 0, saved: 0 };
    b.reads += p.cache_read_input_tokens; b.writes += p.cache_creation_input_tokens; b.uncached += p.input_tokens;
    b.saved += p.cost ? p.cost.saved : 0;
    by.set(t, b);
  }
  const ts = [...by.keys()].sort((a, b) => a - b);
  if (!ts.length) return [];
  const out = [];
  for (let t = Math.max(ts[0], ts[ts.length - 1] - (MAX_BUCKETS - 1) * STEP[per]); t <= ts[ts.length - 1]; t += STEP[per]) {
    out.push(by.get(t) || { t, reads: 0, writes: 0, uncached: 0, saved: 0 });
  }
  return out;
}
