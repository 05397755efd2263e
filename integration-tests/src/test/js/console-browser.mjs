// Drives the web console in the system's headless Chromium (Debian's package) through playwright-core, one scenario
// per run: `node console-browser.mjs <scenario>`. ConsoleIT seeds the data over the API and runs each scenario;
// a scenario throws (exit 1) when the page does not show what it should. Screenshots go to $CAIRN_SHOTS.
import { launchChromium } from './chromium.mjs';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const env = (k) => {
  const v = process.env[k];
  if (!v) throw new Error(k + ' is not set');
  return v;
};
const BASE = env('CAIRN_URL');
const TOKEN = env('CAIRN_TOKEN');
const TEAM = env('CAIRN_TEAM');
const SHOTS = env('CAIRN_SHOTS');
mkdirSync(SHOTS, { recursive: true });


async function api(method, path, body, headers = {}) {
  const res = await fetch(BASE + '/v1/teams/' + TEAM + path, {
    method, headers: { Authorization: 'Bearer ' + TOKEN, 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(method + ' ' + path + ' → ' + res.status + ' ' + text);
  return text ? JSON.parse(text) : null;
}

async function shot(page, name) {
  await page.screenshot({ path: join(SHOTS, name + '.png'), fullPage: true });
  console.log('screenshot ' + join(SHOTS, name + '.png'));
}

/** Signs in through the form, as a person would: paste the token, submit, pick the team. */
async function signIn(page) {
  await page.goto(BASE + '/console/');
  await page.getByLabel('Token').fill(TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#nav').waitFor({ state: 'visible' });
  if ((await page.locator('#team-select').inputValue()) !== TEAM) {
    await page.selectOption('#team-select', TEAM);
  }
  assert.equal(await page.locator('#token').inputValue(), '', 'the token field is cleared after sign-in');
}

async function goTo(page, name) {
  await page.getByRole('link', { name }).click();
  await page.locator('#page[data-page="' + name.toLowerCase() + '"]').waitFor();
}

const scenarios = {
  /** Recall from the search box: the remembered fact comes first, with a bar per score part. */
  async search(page) {
    await page.getByLabel('Search (recall)').fill(env('CAIRN_QUERY'));
    await page.getByRole('button', { name: 'Search' }).click();
    const first = page.locator('#memory-list li.memory').first();
    await first.locator('.score').waitFor();
    assert.equal(await first.locator('.content').textContent(), env('CAIRN_EXPECT'));
    for (const part of ['relevance', 'freshness', 'confidence']) {
      const meter = first.getByRole('meter', { name: part });
      const value = Number(await meter.getAttribute('aria-valuenow'));
      assert.ok(value > 0 && value <= 1, part + ' bar value in (0, 1]: ' + value);
      const width = await meter.locator('.fill').evaluate((el) => el.getBoundingClientRect().width);
      assert.ok(width > 0, part + ' bar is drawn');
    }
    await shot(page, 'memories');
    await first.getByRole('button', { name: 'Open' }).click();
    await page.locator('#memory-detail h3').waitFor();
    assert.match(await page.locator('#memory-detail').textContent(), /Evidence/);
    await shot(page, 'memory-detail');
  },

  /** A memory holding markup is shown as its text; no element is created from it and no script runs. */
  async xss(page) {
    const payload = env('CAIRN_EXPECT');
    const item = page.locator('#memory-list li.memory .content', { hasText: payload });
    await item.first().waitFor();
    assert.equal(await item.first().textContent(), payload);
    assert.equal(await page.locator('#memory-list img').count(), 0, 'no <img> made from stored content');
    await page.locator('#memory-list li.memory', { hasText: payload }).first().getByRole('button', { name: 'Open' }).click();
    await page.locator('#memory-detail h3').waitFor();
    assert.equal(await page.locator('#memory-detail img').count(), 0);
    assert.equal(await page.locator('#edit-content').inputValue(), payload);
    await page.waitForTimeout(500);
    assert.equal(await page.evaluate(() => window.__alerted === true), false);
    await shot(page, 'memories-markup-as-text');
  },

  /** Editing with a stale version: the 412 is shown as a conflict with both texts and a way to resolve it. */
  async edit(page) {
    const id = env('CAIRN_MEMORY');
    await page.locator('#memory-list li.memory[data-id="' + id + '"]').getByRole('button', { name: 'Open' }).click();
    await page.locator('#edit-form').waitFor();
    const current = await api('GET', '/memories/' + id);
    await api('PATCH', '/memories/' + id, { content: 'Changed by another agent meanwhile' },
      { 'If-Match': '"' + current.version + '"' });
    await page.getByLabel('Content').fill('My edit from the console');
    await page.getByRole('button', { name: 'Save' }).click();
    const conflict = page.locator('#edit-conflict');
    await conflict.waitFor({ state: 'visible' });
    assert.match(await conflict.textContent(), /Changed by another agent meanwhile/);
    assert.match(await conflict.textContent(), /My edit from the console/);
    await shot(page, 'memory-edit-conflict');
    await page.locator('#conflict-overwrite').click();
    await page.locator('#edit-form h4', { hasText: 'version ' + (current.version + 2) }).waitFor();
    assert.equal(await page.locator('#edit-conflict').isHidden(), true);
    const after = await api('GET', '/memories/' + id);
    assert.equal(after.content, 'My edit from the console');
    assert.equal(after.version, current.version + 2);
  },

  /** An open sync conflict, both values side by side; "Take proposed" resolves it and it leaves the open list. */
  async conflict(page) {
    await goTo(page, 'Team');
    const fact = env('CAIRN_FACT');
    const item = page.locator('li.conflict[data-fact="' + fact + '"]');
    await item.waitFor();
    assert.match(await item.locator('.current').textContent(), new RegExp(env('CAIRN_CURRENT')));
    assert.match(await item.locator('.proposed').textContent(), new RegExp(env('CAIRN_PROPOSED')));
    await shot(page, 'team');
    await item.getByRole('button', { name: 'Take proposed' }).click();
    await item.waitFor({ state: 'detached' });
    await page.locator('#status', { hasText: 'resolved: take_proposed' }).waitFor();
  },

  /**
   * The ledger charts (per hour, from GET …/usage/series) show posted usage in its hour: after more usage is posted
   * and the page refreshed, the cache reads charted (all models, and the model's own chart) went up by what was posted.
   */
  async ledger(page) {
    const session = env('CAIRN_SESSION');
    await goTo(page, 'Cost');
    await page.getByLabel('Sessions (comma-separated ids)').fill(session);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const chart = page.locator('svg#ledger-tokens');
    await chart.waitFor();
    const reads = async (c) => Number(await c.getAttribute('data-sum-reads'));
    const before = await reads(chart);
    assert.ok(before > 0, 'the seeded usage is charted');
    assert.ok(Number(await chart.getAttribute('data-points')) >= 1);
    const model = page.locator('#per-model-charts svg.chart').first();
    const modelBefore = await reads(model);
    const savedBefore = await page.locator('#saved').textContent();
    await api('POST', '/sessions/' + session + '/usage', {
      model: 'claude-sonnet-4-5-20250929', input_tokens: 300, output_tokens: 400,
      cache_creation_input_tokens: 0, cache_read_input_tokens: 20000,
    });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.locator('svg#ledger-tokens[data-sum-reads="' + (before + 20000) + '"]').waitFor();
    assert.equal(await reads(model), modelBefore + 20000, 'the model\'s own chart went up too');
    assert.ok(await chart.locator('circle.s-reads').count() >= 1);
    assert.notEqual(await page.locator('#saved').textContent(), savedBefore, 'money saved went up');
    await shot(page, 'cost');
    await page.selectOption('#c-bucket', 'day'); // the same usage, summed per day
    await page.locator('figcaption', { hasText: 'Input tokens per day, all models' }).waitFor();
    assert.equal(await reads(chart), before + 20000);
  },

  /** Sessions (context on the token ruler) and Health render from the API; screenshots of both. */
  async pages(page) {
    await goTo(page, 'Sessions');
    await page.getByLabel('Session id').fill(env('CAIRN_SESSION'));
    await page.getByRole('button', { name: 'Load' }).click();
    await page.locator('svg.ruler rect.blk').first().waitFor();
    assert.ok(await page.locator('#messages li').count() > 0, 'recent messages listed');
    assert.ok(await page.locator('svg.ruler line.breakpoint').count() > 0, 'a cache breakpoint is drawn');
    // what ending would extract (GET …/extract-preview), shown before anything is ended
    await page.locator('#would-extract li', { hasText: env('CAIRN_PREVIEW') }).waitFor();
    assert.ok(await page.locator('#would-skip li', { hasText: 'temporary' }).count() > 0, 'the skipped statement and why');
    assert.equal(await page.getByRole('button', { name: 'End session and extract memories' }).count(), 1, 'not ended');
    await shot(page, 'sessions');
    await goTo(page, 'Health');
    await page.locator('#importance-histogram').waitFor();
    await page.getByRole('button', { name: 'Run the decay job for this team now' }).click();
    await page.locator('#decay-runs tbody tr').first().waitFor();
    await page.locator('#secret-findings td', { hasText: env('CAIRN_RULE') }).waitFor();
    assert.match(await page.locator('#importance-summary').textContent(), /active memories/);
    await shot(page, 'health');
  },
};

const name = process.argv[2];
if (!scenarios[name]) {
  console.error('usage: node console-browser.mjs ' + Object.keys(scenarios).join('|'));
  process.exit(2);
}
const browser = await launchChromium();
const failures = [];
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const urls = [];
  page.on('request', (r) => urls.push(r.url()));
  page.on('dialog', async (d) => { failures.push('a dialog opened: ' + d.message()); await d.dismiss(); });
  page.on('pageerror', (e) => failures.push('page error: ' + e.message));
  page.on('console', (m) => {
    if (m.text().includes(TOKEN)) failures.push('the token was logged');
    if (m.type() === 'error' && /Content Security Policy/.test(m.text())) failures.push('CSP violation: ' + m.text());
  });
  await page.addInitScript(() => { window.alert = () => { window.__alerted = true; }; });
  const res = await page.goto(BASE + '/console/');
  const csp = res.headers()['content-security-policy'] || '';
  assert.match(csp, /script-src 'self'/, 'the console is served with a CSP');
  assert.doesNotMatch(csp, /unsafe-inline/);
  await signIn(page);
  await scenarios[name](page);
  for (const u of urls) if (u.includes(TOKEN)) failures.push('the token was put in a URL: ' + u.slice(0, 80));
  if (page.url().includes(TOKEN)) failures.push('the token is in the page URL');
  assert.deepEqual(failures, []);
  console.log('scenario ' + name + ': ok');
} finally {
  await browser.close();
}
