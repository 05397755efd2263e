// Builds DOM from data as text only: strings become text nodes, never markup, so stored content cannot inject HTML.

const SVG = 'http://www.w3.org/2000/svg';

function apply(el, props) {
  for (const [k, v] of Object.entries(props || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') el.setAttribute('class', v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'value') el.value = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

function add(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** An HTML element: h('li', {class: 'x'}, 'text', child). */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  apply(el, props);
  add(el, children);
  return el;
}

/** An SVG element (attributes only; text through children, as text nodes). */
export function s(tag, props, ...children) {
  const el = document.createElementNS(SVG, tag);
  apply(el, props);
  add(el, children);
  return el;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

export function replace(el, ...children) {
  clear(el);
  add(el, children);
  return el;
}

/** A labelled form control: label + control, the label bound by id. */
export function field(label, control) {
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control);
}

export function select(id, options, value) {
  const el = h('select', { id, name: id });
  for (const o of options) {
    const [v, text] = Array.isArray(o) ? o : [o, o];
    const opt = h('option', { value: v }, text);
    if (v === value) opt.selected = true;
    el.append(opt);
  }
  return el;
}

/** A horizontal bar for a value in [0, 1], exposed to assistive technology as a meter. */
export function bar(label, value, kind) {
  const v = Math.max(0, Math.min(1, Number(value) || 0));
  const fill = h('span', { class: 'fill' });
  fill.style.width = (v * 100).toFixed(1) + '%';
  return h('div', { class: 'bar-row', dataset: { part: kind } },
    h('span', { class: 'bar-label' }, label),
    h('span', {
      class: 'bar bar-' + kind, role: 'meter', 'aria-label': label, 'aria-valuemin': 0, 'aria-valuemax': 1,
      'aria-valuenow': v.toFixed(3),
    }, fill),
    h('span', { class: 'bar-value' }, v.toFixed(3)));
}

export function fmtInt(n) {
  return Number(n || 0).toLocaleString('en-US');
}

export function fmtUsd(n) {
  return '$' + Number(n || 0).toFixed(4);
}

export function fmtTime(iso) {
  return iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '—';
}

/** A button that asks for a second press before it acts (no blocking dialogs). */
export function confirmButton(text, confirmText, action) {
  const b = h('button', { type: 'button', class: 'danger' }, text);
  let armed = false;
  b.addEventListener('click', async () => {
    if (!armed) {
      armed = true;
      b.textContent = confirmText;
      setTimeout(() => { armed = false; b.textContent = text; }, 5000);
      return;
    }
    armed = false;
    b.textContent = text;
    await action();
  });
  return b;
}
