// Sessions: recent messages, rolling summary, temporary facts, the assembled context on a token ruler, ending it.
import { call, teamPath, seg } from './api.js';
import { h, s, replace, field, fmtInt, fmtTime, confirmButton } from './dom.js';

const KINDS = ['system', 'tools', 'memories', 'summary', 'messages'];

export function render(root, ctx) {
  const id = h('input', { id: 's-id', type: 'text', required: true, value: sessionStorage.getItem('cairn.session') || '' });
  const query = h('input', { id: 's-query', type: 'text', placeholder: 'recall query for the memories block' });
  const max = h('input', { id: 's-max', type: 'number', min: 1, placeholder: 'no limit' });
  const out = h('div', { id: 'session-view' });
  const form = h('form', { id: 'session-form', class: 'filters' },
    field('Session id', id), field('Context query', query), field('Max tokens', max),
    h('button', { type: 'submit' }, 'Load'));
  form.addEventListener('submit', (e) => { e.preventDefault(); load(); });
  replace(root, h('h2', null, 'Sessions'), form, out);
  if (id.value) load();

  async function load() {
    try {
      const sid = seg(id.value.trim());
      sessionStorage.setItem('cairn.session', sid);
      const [sess, context, preview] = await Promise.all([
        call('GET', teamPath('/sessions/' + sid)),
        call('GET', teamPath('/sessions/' + sid + '/context'), {
          query: { query: query.value.trim() || undefined, max_tokens: max.value || undefined },
        }),
        call('GET', teamPath('/sessions/' + sid + '/extract-preview')),
      ]);
      replace(out, sessionView(sid, sess), contextView(context), endView(sid, preview));
      ctx.status('');
    } catch (e) {
      ctx.status(ctx.describe(e), true);
    }
  }

  function sessionView(sid, sess) {
    return h('section', { class: 'panel', 'aria-label': 'Session' },
      h('h3', null, 'Session ' + sid + (sess.ended ? ' (ended)' : '')),
      h('p', { class: 'hint' }, fmtInt(sess.message_count) + ' messages, summary version ' + sess.summary_version),
      h('h4', null, 'Rolling summary'),
      h('p', { class: 'content', id: 'summary' }, sess.rolling_summary || '(nothing folded yet)'),
      h('h4', null, 'Temporary facts'),
      sess.temp_facts.length ? h('ul', { id: 'temp-facts' }, sess.temp_facts.map((f) => h('li', null, f))) : h('p', null, 'none'),
      h('h4', null, 'Recent messages'),
      h('ol', { class: 'messages', id: 'messages' }, sess.recent_messages.map((m) =>
        h('li', { class: 'msg msg-' + m.role }, h('span', { class: 'meta' }, m.role + ' · ' + fmtTime(m.occurred_at)), ' ',
          h('span', { class: 'content' }, m.content)))));
  }

  function contextView(c) {
    const total = c.blocks.reduce((a, b) => a + b.tokens, 0) || 1;
    const width = 900;
    const svg = s('svg', { class: 'ruler', viewBox: '0 0 ' + width + ' 70', role: 'img', 'aria-labelledby': 'ruler-title' },
      s('title', { id: 'ruler-title' }, 'Context blocks on a token ruler, ' + fmtInt(total) + ' tokens'));
    let x = 0;
    let at = 0;
    const points = [];
    for (const b of c.blocks) {
      const w = (b.tokens / total) * width;
      svg.append(s('rect', { x: x.toFixed(2), y: 10, width: Math.max(w, 0.5).toFixed(2), height: 30, class: 'blk blk-' + b.kind },
        s('title', null, b.kind + ': ' + fmtInt(b.tokens) + ' tokens')));
      x += w;
      at += b.tokens;
      if (b.cache_control) {
        svg.append(s('line', { x1: x.toFixed(2), x2: x.toFixed(2), y1: 2, y2: 48, class: 'breakpoint' },
          s('title', null, 'cache breakpoint at ' + fmtInt(at) + ' tokens')));
        points.push(fmtInt(at) + ' tokens (' + (b.cache_control.ttl || '5m') + ')');
      }
    }
    svg.append(s('text', { x: 0, y: 62, class: 'tick' }, '0'),
      s('text', { x: width, y: 62, class: 'tick', 'text-anchor': 'end' }, fmtInt(total) + ' tokens'));
    const minX = (c.prompt_cache.min_cacheable_tokens / total) * width;
    if (minX <= width) svg.append(s('line', { x1: minX.toFixed(2), x2: minX.toFixed(2), y1: 6, y2: 44, class: 'min-cacheable' }));
    const legend = h('ul', { class: 'legend' }, KINDS.map((k) => h('li', null, h('span', { class: 'swatch blk-' + k }), k)),
      h('li', null, h('span', { class: 'swatch breakpoint' }), 'cache breakpoint'),
      h('li', null, h('span', { class: 'swatch min-cacheable' }), 'minimum cacheable length'));
    const rows = c.blocks.map((b, i) => h('tr', null, h('td', null, String(i + 1)), h('td', null, b.kind),
      h('td', { class: 'num' }, fmtInt(b.tokens)), h('td', null, b.cache_control ? 'breakpoint ' + (b.cache_control.ttl || '5m') : ''),
      h('td', null, h('details', null, h('summary', null, (b.text || '').slice(0, 60) || '(empty)'), h('pre', null, b.text)))));
    const pc = c.prompt_cache;
    return h('section', { class: 'panel', 'aria-label': 'Assembled context' },
      h('h3', null, 'Assembled context' + (c.turn !== undefined ? ' (turn ' + c.turn + ')' : '')),
      h('p', { class: 'hint', id: 'cache-plan' }, fmtInt(pc.breakpoints.length ?? pc.breakpoints) + ' breakpoints; stable prefix '
        + fmtInt(pc.stable_prefix_tokens) + ' tokens; minimum cacheable ' + fmtInt(pc.min_cacheable_tokens) + '; model ' + (c.model || '—')),
      svg, legend,
      h('p', { id: 'breakpoints' }, points.length ? 'Cache breakpoints after ' + points.join(', ') + '.' : 'No cache breakpoint yet: the prefix is under the minimum cacheable length.'),
      h('table', { id: 'blocks' }, h('caption', null, 'Blocks, most stable first'),
        h('thead', null, h('tr', null, ['#', 'kind', 'tokens', 'cache', 'text'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', null, rows)));
  }

  function endView(sid, preview) {
    const result = h('div', { id: 'end-result' });
    const end = confirmButton('End session and extract memories', 'Press again: ending cannot be undone', async () => {
      try {
        const r = await call('POST', teamPath('/sessions/' + sid + '/end'));
        replace(result,
          h('h4', null, 'Extracted'),
          h('ul', null, r.extracted.map((m) => h('li', null, m.type + ': ' + m.content + (m.consolidation ? ' (' + m.consolidation + ')' : '')))),
          h('h4', null, 'Skipped'),
          h('ul', null, r.skipped.map((x) => h('li', null, x.text + ' — ' + x.reason))));
      } catch (e) { ctx.status(ctx.describe(e), true); }
    });
    return h('section', { class: 'panel', 'aria-label': 'End the session' },
      h('h3', null, 'End of session'),
      previewView(preview),
      preview.ended ? h('p', { class: 'hint' }, 'This session has ended: nothing more is extracted.') : end,
      result);
  }

  function plural(n, one, many) {
    return n + ' ' + (n === 1 ? one : many);
  }

  // GET …/extract-preview: what ending would do now, nothing written (consolidation is decided only when written)
  function previewView(p) {
    const items = p.would_extract.map((m) => h('li', null,
      h('span', { class: 'meta' }, m.type + ' · ' + m.scope + ' · confidence ' + m.confidence.toFixed(2)
        + ' · ' + m.evidence.length + ' evidence message' + (m.evidence.length === 1 ? '' : 's')
        + (m.redacted ? ' · secret redacted' : '')), ' ', h('span', { class: 'content' }, m.content)));
    return h('div', { id: 'end-preview' },
      h('h4', null, 'What ending now would extract'),
      h('p', { class: 'hint' }, p.ended ? 'Already ended.'
        : plural(p.would_extract.length, 'memory', 'memories') + ' would be written, '
          + plural(p.skipped.length, 'statement', 'statements')
          + ' skipped (a preview: nothing is written until you end the session).'),
      h('ul', { id: 'would-extract' }, items),
      h('h4', null, 'Would skip'),
      h('ul', { id: 'would-skip' }, p.skipped.map((x) => h('li', null, x.text + ' — ' + x.reason))));
  }
}
