// The console's first page load against the API's own list call, in one browser and one run (ConsoleBench starts the
// server and seeds it). A load: a fresh tab already signed in (token in sessionStorage, as after the sign-in form)
// opens /console/ and renders the first page of memories; measured from navigation start to the
// `cairn:first-page` mark the page sets once the list is in the DOM. The baseline: the same GET /memories call the
// page makes, timed with fetch inside the same browser.
import { launchChromium } from './chromium.mjs';
import { writeFileSync } from 'node:fs';

const BASE = process.env.CAIRN_URL;
const TOKEN = process.env.CAIRN_TOKEN;
const TEAM = process.env.CAIRN_TEAM;
const RUNS = Number(process.env.CAIRN_RUNS || 30);
const WARMUP = 5;

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, p50: +q(0.5).toFixed(1), p95: +q(0.95).toFixed(1), max: +s[s.length - 1].toFixed(1) };
};

const browser = await launchChromium();
const loads = [];
const lists = [];
const htmls = [];
const listStarts = [];
const pageLists = [];
let shown = 0;
try {
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const context = await browser.newContext();
    await context.addInitScript(([token, team]) => {
      sessionStorage.setItem('cairn.token', token);
      sessionStorage.setItem('cairn.team', team);
    }, [TOKEN, TEAM]);
    const page = await context.newPage();
    await page.goto(BASE + '/console/#/memories');
    await page.locator('body[data-ready="memories"]').waitFor();
    const t = await page.evaluate(() => {
      const list = performance.getEntriesByType('resource').find((e) => e.name.includes('/memories?'));
      return {
        load: performance.getEntriesByName('cairn:first-page')[0].startTime,
        html: performance.getEntriesByType('navigation')[0].responseEnd,
        listStart: list.startTime,
        list: list.responseEnd - list.startTime,
      };
    });
    const load = t.load;
    shown = await page.locator('#memory-list li').count();
    const list = await page.evaluate(async ([team]) => {
      const t0 = performance.now();
      const res = await fetch('/v1/teams/' + team + '/memories?scope=all&order=recency&limit=50', {
        headers: { Authorization: 'Bearer ' + sessionStorage.getItem('cairn.token') }, cache: 'no-store',
      });
      await res.json();
      return performance.now() - t0;
    }, [TEAM]);
    if (i >= WARMUP) {
      loads.push(load);
      lists.push(list);
      htmls.push(t.html);
      listStarts.push(t.listStart);
      pageLists.push(t.list);
    }
    await context.close();
  }
} finally {
  await browser.close();
}
const report = {
  memories_in_team: Number(process.env.CAIRN_MEMORIES), rows_rendered: shown,
  console_first_page_ms: stats(loads), api_list_call_ms: stats(lists),
  breakdown_ms: { html_loaded: stats(htmls), list_call_started: stats(listStarts), list_call_in_page: stats(pageLists) },
  ratio_p50: +(stats(loads).p50 / stats(lists).p50).toFixed(2),
};
console.log(JSON.stringify(report, null, 2));
if (process.env.CAIRN_REPORT) writeFileSync(process.env.CAIRN_REPORT, JSON.stringify(report, null, 2) + '\n');
