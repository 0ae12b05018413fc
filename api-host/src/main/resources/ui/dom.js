// Building the page from data without markup: every string becomes a text node, so nothing an API answer carries
// (a policy name, an audit detail, a model's output) can become HTML or script.

/**
 * Creates an element. `attrs`: `class`, `id`, event handlers as `on<event>` functions, booleans set or omit an
 * attribute, anything else is set as an attribute. Children: strings (as text), nodes, arrays, null (skipped).
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      el.addEventListener(name.slice(2), value);
    } else if (value === true) {
      el.setAttribute(name, '');
    } else {
      el.setAttribute(name, String(value));
    }
  }
  append(el, ...children);
  return el;
}

/** Appends children as {@link h} takes them. */
export function append(el, ...children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replaces an element's content. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, ...children);
}

/** A table from rows: `columns` are `[heading, row => cell content]`. */
export function table(caption, columns, rows, empty = 'None yet.') {
  if (!rows || rows.length === 0) {
    return h('p', { class: 'empty' }, empty);
  }
  return h('table', {},
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, columns.map(([heading]) => h('th', { scope: 'col' }, heading)))),
    h('tbody', {}, rows.map(row => h('tr', {}, columns.map(([, cell]) => h('td', {}, cell(row)))))));
}

/** A labelled form field; `input` is the control element, which gets an id when it has none. */
export function field(label, input, hint) {
  if (!input.id) input.id = 'f-' + Math.random().toString(36).slice(2, 10);
  const hintId = hint ? input.id + '-hint' : null;
  if (hintId) input.setAttribute('aria-describedby', hintId);
  return h('div', { class: 'field' }, h('label', { for: input.id }, label), input,
    hint ? h('p', { class: 'hint', id: hintId }, hint) : null);
}

/** An ISO timestamp as the reader's local date and time; `—` for none. */
export function when(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : d.toLocaleString();
}
