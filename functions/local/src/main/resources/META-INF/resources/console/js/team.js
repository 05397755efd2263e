// Team: the change feed, the clients seen in it, and open sync conflicts side by side with their resolutions.
import { call, teamPath, seg } from './api.js';
import { h, replace, fmtTime } from './dom.js';

export function render(root, ctx) {
  const conflicts = h('section', { id: 'conflicts', class: 'panel', 'aria-label': 'Conflicts' });
  const feed = h('section', { id: 'feed', class: 'panel', 'aria-label': 'Change feed' });
  const reload = h('button', { type: 'button', id: 'team-reload' }, 'Reload');
  reload.addEventListener('click', load);
  replace(root, h('h2', null, 'Team'), reload, conflicts, feed);
  load();

  async function load() {
    try {
      const [c, head] = await Promise.all([
        call('GET', teamPath('/conflicts')),
        call('GET', teamPath('/changes'), { query: { since: 0, limit: 1 } }),
      ]);
      const since = Math.max(0, head.version - 50);
      const page = await call('GET', teamPath('/changes'), { query: { since, limit: 50 } });
      renderConflicts(c.conflicts);
      renderFeed(page);
      ctx.status('');
    } catch (e) {
      ctx.status(ctx.describe(e), true);
    }
  }

  function renderConflicts(all) {
    const open = all.filter((c) => c.status === 'open');
    const done = all.filter((c) => c.status !== 'open');
    replace(conflicts, h('h3', null, 'Open conflicts (' + open.length + ')'),
      open.length ? null : h('p', null, 'No conflict waits for a decision.'),
      h('ul', { class: 'conflict-list' }, open.map(conflictItem)),
      done.length ? h('details', null, h('summary', null, 'Resolved or overwritten (' + done.length + ')'),
        h('ul', null, done.map((c) => h('li', null, c.fact_id + ': ' + c.status + (c.resolution ? ' (' + c.resolution + ')' : '')
          + ' · ' + fmtTime(c.created_at))))) : null);
  }

  function conflictItem(c) {
    const merged = h('textarea', { id: 'merge-' + c.id, rows: 3 });
    merged.value = [c.current_content, c.proposed.content].filter(Boolean).join(' ');
    const resolve = (resolution) => async () => {
      try {
        const body = { resolution };
        if (resolution === 'merge') body.content = merged.value;
        await call('POST', teamPath('/conflicts/' + seg(c.id) + ':resolve'), { body });
        await load();
        ctx.status('Conflict on ' + c.fact_id + ' resolved: ' + resolution);
      } catch (e) { ctx.status(ctx.describe(e), true); }
    };
    const btn = (text, r) => h('button', { type: 'button', class: 'resolve', dataset: { resolution: r }, onclick: resolve(r) }, text);
    return h('li', { class: 'conflict', dataset: { id: c.id, fact: c.fact_id } },
      h('h4', null, 'Fact ' + c.fact_id),
      h('p', { class: 'hint' }, 'client ' + c.client_id + ' proposed a change based on version ' + c.base_version
        + '; the fact is at version ' + c.current_version + ' · ' + fmtTime(c.created_at)),
      h('div', { class: 'side-by-side' },
        h('div', { class: 'current' }, h('h5', null, 'Current (version ' + c.current_version + ')'), h('p', { class: 'content' }, c.current_content ?? '(deleted)')),
        h('div', { class: 'proposed' }, h('h5', null, 'Proposed (' + c.proposed.op + ')'), h('p', { class: 'content' }, c.proposed.content ?? '(delete)'))),
      h('div', { class: 'field' }, h('label', { for: merged.id }, 'Merged text'), merged),
      h('div', { class: 'actions' }, btn('Keep current', 'keep_current'), btn('Take proposed', 'take_proposed'), btn('Merge', 'merge')));
  }

  function renderFeed(page) {
    const changes = [...page.changes].reverse();
    const clients = [...new Set(page.changes.map((c) => c.client_id))].sort();
    replace(feed, h('h3', null, 'Change feed (team version ' + page.version + ')'),
      h('p', { id: 'clients' }, 'Clients seen in these changes: ' + (clients.join(', ') || 'none')),
      h('ol', { class: 'feed', reversed: true }, changes.map((c) => h('li', null,
        h('span', { class: 'meta' }, 'v' + c.version + ' · ' + c.client_id + ' · ' + fmtTime(c.committed_at)),
        h('ul', null, c.ops.map((o) => h('li', null, o.op + ' ' + o.fact_id + (o.content ? ': ' + o.content : ''))))))));
  }
}
