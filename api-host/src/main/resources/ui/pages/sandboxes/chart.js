// Charts of the spend view as SVG built from the API's numbers with DOM calls (no markup, no library): each chart
// is one role="img" with a title and a description, and its view puts the same numbers in a table beside it, so a
// screen reader reads the table and nobody has to trust the picture alone. Colours come from classes in
// sandboxes.css (the strict CSP allows no inline style).

const NS = 'http://www.w3.org/2000/svg';
const WIDTH = 640;
const HEIGHT = 240;
const PAD = { left: 64, right: 16, top: 12, bottom: 36 };
let serial = 0;

/** Creates an SVG element; string children become text nodes, like dom.js's h(). */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined && value !== false) el.setAttribute(name, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** The frame every chart shares: the labelled <svg> with its title and description. */
function frame(id, title, desc, height = HEIGHT) {
  const n = ++serial;
  return svg('svg', {
    id, role: 'img', viewBox: `0 0 ${WIDTH} ${height}`, class: 'chart',
    'aria-labelledby': `chart-t${n} chart-d${n}`,
  }, svg('title', { id: `chart-t${n}` }, title), svg('desc', { id: `chart-d${n}` }, desc));
}

/** A "nice" top for an axis: 1, 2 or 5 times a power of ten, at least `max`. */
function niceTop(max) {
  if (!(max > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  return [1, 2, 5, 10].map(m => m * p).find(v => v >= max);
}

function yAxis(chart, top, format) {
  const inner = HEIGHT - PAD.top - PAD.bottom;
  for (let i = 0; i <= 4; i++) {
    const y = PAD.top + inner - (inner * i) / 4;
    chart.append(svg('line', { class: 'grid', x1: PAD.left, x2: WIDTH - PAD.right, y1: y, y2: y }),
      svg('text', { class: 'axis', x: PAD.left - 6, y: y + 4, 'text-anchor': 'end' }, format((top * i) / 4)));
  }
}

/**
 * Lines over a shared x axis. `labels`: the x positions' names; `series`: [{name, values: number[], texts:
 * string[]}] where `texts` are the API's own figures for each point (kept on the point as data-value).
 * `guide`: optional horizontal line {value, name} (a limit).
 */
export function lineChart({ id, title, desc, labels, series, format, guide }) {
  const chart = frame(id, title, desc);
  const max = Math.max(0, guide ? guide.value : 0, ...series.flatMap(s => s.values));
  const top = niceTop(max);
  const inner = { w: WIDTH - PAD.left - PAD.right, h: HEIGHT - PAD.top - PAD.bottom };
  const x = i => PAD.left + (labels.length <= 1 ? inner.w / 2 : (inner.w * i) / (labels.length - 1));
  const y = v => PAD.top + inner.h - (inner.h * v) / top;
  yAxis(chart, top, format);
  const every = Math.max(1, Math.ceil(labels.length / 8));
  labels.forEach((label, i) => {
    if (i % every === 0) {
      chart.append(svg('text', { class: 'axis', x: x(i), y: HEIGHT - PAD.bottom + 16, 'text-anchor': 'middle' }, label));
    }
  });
  if (guide) {
    chart.append(svg('line', { class: 'guide', x1: PAD.left, x2: WIDTH - PAD.right, y1: y(guide.value), y2: y(guide.value),
      'data-value': guide.text }));
  }
  series.forEach((s, k) => {
    const points = s.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    chart.append(svg('g', { class: `series s${k % 8}`, 'data-series': s.name },
      svg('polyline', { points, fill: 'none' }),
      s.values.map((v, i) => svg('circle', { cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 3,
        'data-label': labels[i], 'data-value': s.texts[i] }))));
  });
  return chart;
}

/** Horizontal bars, largest first as given: `bars`: [{label, value, text}]. */
export function barChart({ id, title, desc, bars, format }) {
  const row = 28;
  const height = PAD.top + bars.length * row + 8;
  const chart = frame(id, title, desc, height);
  const left = 180;
  const width = WIDTH - left - 90;
  const top = niceTop(Math.max(0, ...bars.map(b => b.value)));
  bars.forEach((b, i) => {
    const y = PAD.top + i * row;
    const w = Math.max(1, (width * b.value) / top);
    chart.append(svg('g', { class: `bar s${i % 8}`, 'data-label': b.label, 'data-value': b.text },
      svg('text', { class: 'axis', x: left - 8, y: y + 17, 'text-anchor': 'end' }, clip(b.label, 24)),
      svg('rect', { x: left, y: y + 4, width: w.toFixed(1), height: row - 10 }),
      svg('text', { class: 'axis', x: left + w + 6, y: y + 17 }, format(b.value))));
  });
  return chart;
}

function clip(text, n) {
  return text.length > n ? text.slice(0, n - 1) + '…' : text;
}
