// Memories: list and recall search (a bar per score part), filters, one memory's history, edit, delete, restore.
import { call, teamPath, seg, ApiError } from './api.js';
import { h, replace, field, select, bar, fmtTime, confirmButton } from './dom.js';

const TYPES = ['', 'preference', 'convention', 'decision', 'environment', 'fact', 'episode'];

export function render(root, ctx) {
  const q = h('input', { id: 'q', name: 'q', type: 'search', placeholder: 'what database does the team use?' });
  const scope = select('f-scope', [['all', 'all'], ['user', 'user'], ['team', 'team']], 'all');
  const type = select('f-type', TYPES.map((t) => [t, t || 'any']), '');
  const tag = h('input', { id: 'f-tag', name: 'f-tag', type: 'text', placeholder: 'tag' });
  const state = select('f-state', [['', 'any'], ['active', 'active'], ['archived', 'archived']], '');
  const order = select('f-order', [['recency', 'recency'], ['importance', 'importance']], 'recency');
  const asOf = h('input', { id: 'f-asof', name: 'f-asof', type: 'datetime-local', step: 1 });
  const list = h('ol', { id: 'memory-list', class: 'memories', 'aria-live': 'polite' });
  const more = h('button', { type: 'button', id: 'more', hidden: true }, 'Load more');
  const detail = h('section', { id: 'memory-detail', class: 'detail', 'aria-label': 'Memory', hidden: true });
  const summary = h('p', { id: 'list-summary', class: 'hint' });
  let cursor = null;

  const form = h('form', { id: 'search-form', class: 'filters', role: 'search' },
    field('Search (recall)', q), field('Scope', scope), field('Type', type), field('Tag', tag),
    field('State', state), field('Order (list)', order), field('As of (recall, UTC)', asOf),
    h('button', { type: 'submit' }, 'Search'));
  form.addEventListener('submit', (e) => { e.preventDefault(); load(false); });
  more.addEventListener('click', () => load(true));

  replace(root,
    h('h2', null, 'Memories'),
    form,
    h('div', { class: 'split' }, h('div', null, summary, list, more), detail));

  function filters() {
    return {
      scope: scope.value, type: type.value || undefined, tag: tag.value.trim() || undefined, state: state.value,
    };
  }

  async function load(append) {
    const f = filters();
    try {
      if (q.value.trim()) {
        await recall(f);
      } else {
        const page = await call('GET', teamPath('/memories'), {
          query: {
            scope: f.scope, type: f.type, tag: f.tag, order: order.value, limit: 50,
            cursor: append ? cursor : undefined,
          },
        });
        cursor = page.next_cursor;
        more.hidden = !cursor;
        const shown = page.memories.filter((m) => !f.state || m.state === f.state);
        if (!append) replace(list);
        list.append(...shown.map((m) => item(m, null)));
        summary.textContent = list.children.length + ' memories shown' + (f.state ? ' (state ' + f.state + ' on the pages loaded)' : '') + (cursor ? '; more on the next page' : '');
      }
      ctx.status('');
    } catch (e) {
      ctx.status(ctx.describe(e), true);
    }
  }

  async function recall(f) {
    const body = { query: q.value.trim(), top_k: 20, scope: f.scope };
    if (f.type) body.types = [f.type];
    if (f.tag) body.tags = [f.tag];
    if (asOf.value) body.as_of = new Date(asOf.value + 'Z').toISOString();
    const r = await call('POST', teamPath('/recall'), { body });
    more.hidden = true;
    const shown = r.results.filter((x) => !f.state || x.memory.state === f.state);
    replace(list, shown.map((x) => item(x.memory, x)));
    summary.textContent = shown.length + ' results for “' + body.query + '” (' + r.model + ', ' + r.took_ms + ' ms)';
  }

  function item(m, scored) {
    const open = h('button', { type: 'button', class: 'link' }, 'Open');
    open.addEventListener('click', () => show(m.id));
    return h('li', { class: 'memory', dataset: { id: m.id, state: m.state } },
      h('p', { class: 'content' }, m.state === 'archived' && !m.content ? '(archived)' : m.content),
      h('p', { class: 'meta' },
        [m.type, m.scope, 'importance ' + m.importance.toFixed(2), 'confidence ' + m.confidence.toFixed(2), m.state]
          .join(' · '),
        ...(m.tags || []).map((t) => h('span', { class: 'tag' }, t)), ' ', open),
      scored ? h('div', { class: 'score', dataset: { score: scored.score } },
        h('p', { class: 'score-total' }, 'score ' + scored.score.toFixed(3)),
        bar('relevance', scored.similarity, 'relevance'),
        bar('freshness', scored.freshness, 'freshness'),
        bar('confidence', scored.confidence, 'confidence')) : null);
  }

  async function show(id) {
    try {
      const m = await call('GET', teamPath('/memories/' + seg(id)));
      detail.hidden = false;
      replace(detail, view(m));
      detail.querySelector('h3').focus();
    } catch (e) {
      ctx.status(ctx.describe(e), true);
    }
  }

  function view(m) {
    const rows = [
      ['id', m.id], ['type', m.type], ['scope', m.scope], ['user', m.user || '—'], ['state', m.state],
      ['version', m.version], ['importance', m.importance], ['confidence', m.confidence],
      ['occurred', fmtTime(m.occurred_at)], ['created', fmtTime(m.created_at)],
      ['last used', fmtTime(m.last_accessed_at)], ['accesses', m.access_count],
      ['source session', m.source_session_id || '—'], ['valid to', fmtTime(m.valid_to)],
    ];
    const history = h('div', { class: 'history' }, h('h4', null, 'History'));
    if (m.superseded_by) {
      const b = h('button', { type: 'button', class: 'link' }, 'Open the newer memory');
      b.addEventListener('click', () => show(m.superseded_by));
      history.append(h('p', null, 'Superseded on ' + fmtTime(m.valid_to) + ' by ' + m.superseded_by + '. ', b));
    } else {
      history.append(h('p', null, 'Current: not superseded. Use “As of” to see what held at an earlier time.'));
    }
    const evidence = h('ul', { class: 'evidence' }, (m.evidence || []).map((e) => h('li', { dataset: { id: e } }, e)));
    history.append(h('h4', null, 'Evidence (' + (m.evidence || []).length + ' messages)'), evidence);
    if (m.source_session_id && (m.evidence || []).length) {
      const b = h('button', { type: 'button' }, 'Show evidence messages');
      b.addEventListener('click', async () => {
        try {
          const sess = await call('GET', teamPath('/sessions/' + seg(m.source_session_id)));
          const byId = new Map(sess.recent_messages.map((x) => [x.id, x]));
          for (const li of evidence.children) {
            const msg = byId.get(li.dataset.id);
            li.textContent = li.dataset.id + ': ' + (msg ? msg.role + ': ' + msg.content : '(folded into the summary)');
          }
        } catch (e) {
          ctx.status(ctx.describe(e), true);
        }
      });
      history.append(b);
    }
    const actions = h('div', { class: 'actions' });
    if (m.state === 'archived') {
      const restore = h('button', { type: 'button', id: 'restore' }, 'Restore from archive');
      restore.addEventListener('click', async () => {
        try {
          await call('POST', teamPath('/memories/' + seg(m.id) + ':restore'));
          ctx.status('Restored ' + m.id);
          show(m.id);
        } catch (e) { ctx.status(ctx.describe(e), true); }
      });
      actions.append(restore);
    }
    actions.append(confirmButton('Delete', 'Press again to delete', async () => {
      try {
        await call('DELETE', teamPath('/memories/' + seg(m.id)));
        ctx.status('Deleted ' + m.id);
        detail.hidden = true;
        const li = list.querySelector('li[data-id="' + CSS.escape(m.id) + '"]');
        if (li) li.remove();
      } catch (e) { ctx.status(ctx.describe(e), true); }
    }));
    return h('div', null,
      h('h3', { tabindex: -1 }, 'Memory ' + m.id),
      h('p', { class: 'content' }, m.content),
      h('dl', { class: 'facts' }, rows.map(([k, v]) => [h('dt', null, k), h('dd', null, String(v))])),
      m.state === 'active' ? editForm(m) : null,
      history, actions);
  }

  function editForm(m) {
    const content = h('textarea', { id: 'edit-content', rows: 3 });
    content.value = m.content;
    const tags = h('input', { id: 'edit-tags', type: 'text', value: (m.tags || []).join(', ') });
    const importance = h('input', { id: 'edit-importance', type: 'number', min: 0, max: 1, step: 0.01, value: m.importance });
    const confidence = h('input', { id: 'edit-confidence', type: 'number', min: 0, max: 1, step: 0.01, value: m.confidence });
    const conflict = h('div', { id: 'edit-conflict', class: 'conflict', role: 'alert', hidden: true });
    const form = h('form', { id: 'edit-form', class: 'edit' },
      h('h4', null, 'Edit (version ' + m.version + ')'),
      field('Content', content), field('Tags (comma-separated)', tags),
      field('Importance', importance), field('Confidence', confidence),
      h('button', { type: 'submit' }, 'Save'), conflict);
    const patch = () => ({
      content: content.value,
      tags: tags.value.split(',').map((t) => t.trim()).filter(Boolean),
      importance: Number(importance.value),
      confidence: Number(confidence.value),
    });
    async function save(version) {
      try {
        const saved = await call('PATCH', teamPath('/memories/' + seg(m.id)), {
          body: patch(), headers: { 'If-Match': '"' + version + '"' },
        });
        ctx.status('Saved version ' + saved.version);
        show(m.id);
      } catch (e) {
        if (e instanceof ApiError && e.status === 412) return showConflict();
        ctx.status(ctx.describe(e), true);
      }
    }
    async function showConflict() {
      const current = await call('GET', teamPath('/memories/' + seg(m.id)));
      const overwrite = h('button', { type: 'button', id: 'conflict-overwrite' }, 'Save mine over version ' + current.version);
      overwrite.addEventListener('click', () => save(current.version));
      const reload = h('button', { type: 'button', id: 'conflict-reload' }, 'Discard mine, load version ' + current.version);
      reload.addEventListener('click', () => show(m.id));
      replace(conflict,
        h('p', null, 'Conflict: this memory changed since you opened it (you edited version ' + m.version
          + ', it is now at version ' + current.version + ').'),
        h('div', { class: 'side-by-side' },
          h('div', null, h('h5', null, 'Yours'), h('p', { class: 'content' }, patch().content)),
          h('div', null, h('h5', null, 'Current (version ' + current.version + ')'), h('p', { class: 'content' }, current.content))),
        overwrite, reload);
      conflict.hidden = false;
      ctx.status('Version conflict (412): choose which text to keep', true);
    }
    form.addEventListener('submit', (e) => { e.preventDefault(); save(m.version); });
    return form;
  }

  load(false).then(() => {
    if (!document.body.dataset.ready) {
      performance.mark('cairn:first-page');
      document.body.dataset.ready = 'memories';
    }
  });
}
