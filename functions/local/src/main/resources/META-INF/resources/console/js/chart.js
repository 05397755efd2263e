// A small SVG line chart: series over time, with a table beside it holding the same numbers for screen readers.
import { h, s } from './dom.js';

/** `per`: 'hour' or 'day', the points' spacing (time labels show the hour or the date), or undefined for seconds. */
export function lineChart({ id, title, points, series, format, per }) {
  const when = (t) => {
    const iso = new Date(t).toISOString();
    return per === 'day' ? iso.slice(0, 10) : per === 'hour' ? iso.slice(5, 10) + ' ' + iso.slice(11, 16) : iso.slice(11, 19);
  };
  const W = 640, H = 220, L = 70, R = 10, T = 10, B = 30;
  const svg = s('svg', { id, class: 'chart', viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': title });
  const t0 = points.length ? points[0].t : 0;
  const t1 = points.length ? points[points.length - 1].t : 1;
  const values = points.flatMap((p) => series.map((x) => p[x.key]));
  const max = Math.max(1e-9, ...values);
  const min = Math.min(0, ...values);
  const X = (t) => L + (t1 === t0 ? (W - L - R) : ((t - t0) / (t1 - t0)) * (W - L - R));
  const Y = (v) => H - B - ((v - min) / (max - min)) * (H - T - B);
  svg.append(s('line', { x1: L, x2: W - R, y1: H - B, y2: H - B, class: 'axis' }),
    s('line', { x1: L, x2: L, y1: T, y2: H - B, class: 'axis' }),
    s('text', { x: L - 6, y: T + 10, 'text-anchor': 'end', class: 'tick' }, format(max)),
    s('text', { x: L - 6, y: H - B, 'text-anchor': 'end', class: 'tick' }, format(min)));
  if (points.length) {
    svg.append(s('text', { x: L, y: H - 8, class: 'tick' }, when(t0)),
      s('text', { x: W - R, y: H - 8, 'text-anchor': 'end', class: 'tick' }, when(t1)));
  }
  for (const x of series) {
    const d = points.map((p, i) => (i ? 'L' : 'M') + X(p.t).toFixed(1) + ' ' + Y(p[x.key]).toFixed(1)).join(' ');
    if (points.length > 1) svg.append(s('path', { d, class: 'series ' + x.cls }));
    for (const p of points) svg.append(s('circle', { cx: X(p.t).toFixed(1), cy: Y(p[x.key]).toFixed(1), r: 3, class: 'dot ' + x.cls }));
  }
  const last = points[points.length - 1];
  if (last) for (const x of series) svg.dataset[x.key] = String(last[x.key]);
  // the sums over every point, so a test (or a reader of the markup) sees a change in any bucket
  for (const x of series) svg.dataset['sum' + x.key[0].toUpperCase() + x.key.slice(1)] = String(points.reduce((a, p) => a + p[x.key], 0));
  svg.dataset.points = String(points.length);
  const legend = h('ul', { class: 'legend' }, series.map((x) => h('li', null, h('span', { class: 'swatch ' + x.cls }), x.label)));
  const table = h('table', { class: 'chart-data' },
    h('caption', null, title + ' (data)'),
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, per ? per + ' (UTC)' : 'time (UTC)'), series.map((x) => h('th', { scope: 'col' }, x.label)))),
    h('tbody', null, points.slice(-10).map((p) => h('tr', null, h('td', null, when(p.t)),
      series.map((x) => h('td', { class: 'num' }, format(p[x.key])))))));
  const details = h('details', null, h('summary', null, 'Show the numbers'), table);
  return h('figure', { class: 'figure' }, h('figcaption', null, title), svg, legend, details);
}

export function barChart({ id, title, bins, format }) {
  const W = 640, H = 200, L = 50, B = 30, T = 10;
  const max = Math.max(1, ...bins.map((b) => b.count));
  const bw = (W - L - 10) / bins.length;
  const svg = s('svg', { id, class: 'chart', viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': title });
  svg.append(s('line', { x1: L, x2: W - 10, y1: H - B, y2: H - B, class: 'axis' }),
    s('text', { x: L - 6, y: T + 10, 'text-anchor': 'end', class: 'tick' }, String(max)));
  bins.forEach((b, i) => {
    const hgt = (b.count / max) * (H - B - T);
    svg.append(s('rect', { x: (L + i * bw + 2).toFixed(1), y: (H - B - hgt).toFixed(1), width: (bw - 4).toFixed(1), height: hgt.toFixed(1), class: 'hist' },
      s('title', null, b.label + ': ' + b.count)),
    s('text', { x: (L + i * bw + bw / 2).toFixed(1), y: H - 12, 'text-anchor': 'middle', class: 'tick' }, format(b.from)));
  });
  const table = h('table', { class: 'chart-data' }, h('caption', null, title + ' (data)'),
    h('tbody', null, bins.map((b) => h('tr', null, h('th', { scope: 'row' }, b.label), h('td', { class: 'num' }, String(b.count))))));
  return h('figure', { class: 'figure' }, h('figcaption', null, title), svg, h('details', null, h('summary', null, 'Show the numbers'), table));
}
