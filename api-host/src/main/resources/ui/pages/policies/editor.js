import { h, table, field, append, replace } from '../../dom.js';
import { api, problemView, Problem } from '../../api.js';
import { dump, load } from '/ui/assets/vendor/js-yaml/4.1.0/dist/js-yaml.mjs';
import { scopeOf, styled } from './scope.js';

// A policy as YAML in a text area, checked by the platform's core as the person types (the browser runs no policy
// rules of its own): problems appear beside the editor with the CLI's caret, each place a button that moves the
// cursor there. Saving sends the whole text to the create or update route, so nothing the form cannot show is lost.

const TOP = ['name', 'description', 'networkDefaultVerdict', 'networkDefaultTransport', 'allowedDomains',
  'credentials', 'connectors', 'integrations', 'managedInference', 'piiMasking', 'env'];
const ENTRY = ['pattern', 'verdict', 'transport', 'scheme', 'description', 'binaries', 'rules'];
const CHECK_DELAY_MS = 300;

/** The stored document with its keys in the order people write them (the database keeps its own order). */
function ordered(doc) {
  const pick = (obj, keys) => Object.fromEntries([...keys.filter(k => k in obj).map(k => [k, obj[k]]),
    ...Object.keys(obj).filter(k => !keys.includes(k)).map(k => [k, obj[k]])]);
  const rule = r => {
    const o = pick(r, ['method', 'path', 'graphql']);
    if (o.graphql && typeof o.graphql === 'object') {
      o.graphql = pick(o.graphql, ['operationType', 'operationName', 'fields', 'arguments']);
      if (Array.isArray(o.graphql.arguments)) o.graphql.arguments = o.graphql.arguments.map(a => pick(a, ['field', 'pointer', 'glob']));
    }
    return o;
  };
  const out = pick(doc, TOP);
  if (Array.isArray(out.allowedDomains)) {
    out.allowedDomains = out.allowedDomains.map(e => {
      const entry = pick(e, ENTRY);
      if (Array.isArray(entry.rules)) entry.rules = entry.rules.map(rule);
      return entry;
    });
  }
  return out;
}

export async function render(main, ctx) {
  styled();
  const scope = scopeOf(ctx.params);
  const id = ctx.params.policyId;
  const stored = id ? await api('GET', `${scope.base}/policies/${id}`) : null;
  const text = stored ? dump(ordered(stored.policy), { lineWidth: -1 })
    : 'name: \nnetworkDefaultVerdict: deny\nallowedDomains:\n  - pattern: github.com\n    verdict: allow\n';
  const view = {
    area: h('textarea', { id: 'policy-yaml', name: 'policy', spellcheck: 'false', rows: 22,
      'aria-describedby': 'check-summary', autocomplete: 'off' }),
    summary: h('p', { id: 'check-summary', 'aria-live': 'polite' }, 'Not checked yet.'),
    problems: h('div', { id: 'problems' }),
    rows: h('div', { id: 'describe' }),
    status: h('div', { id: 'save-status', 'aria-live': 'polite' }),
  };
  view.area.value = text;
  const check = liveCheck(ctx, scope, view);
  const save = h('button', { type: 'submit', class: 'primary', id: 'save-policy' }, stored ? 'Save changes' : 'Create policy');
  const form = h('form', { id: 'policy-form' }, field('Policy document (YAML)', view.area,
    'Checked by the platform as you type. Removing a top-level key does not clear it: an update keeps every key it'
      + ' does not name (set a list to [] to empty it).'), h('div', { class: 'actions' }, save), view.status);
  form.addEventListener('submit', async e => {
    e.preventDefault();
    await submit(ctx, scope, stored, view);
  });
  append(main,
    h('p', {}, h('a', { href: `${scope.ui}/policies` }, scope.level === 'org' ? 'Organization policies' : 'Project policies')),
    h('h1', {}, stored ? `Policy ${stored.name}` : 'New policy'),
    h('div', { class: 'editor' }, h('div', {}, form), h('section', { 'aria-labelledby': 'problems-heading' },
      h('h2', { id: 'problems-heading' }, 'Problems'), view.summary, view.problems)),
    h('section', { 'aria-labelledby': 'describe-heading' }, h('h2', { id: 'describe-heading' }, 'Domain entries'),
      h('p', { class: 'hint' }, 'As `stockade policy describe` prints them, first match wins.'), view.rows),
    stored ? deleteForm(ctx, scope, stored) : null);
  await check();
}

/**
 * Checks the text with the core a moment after the last keystroke; returns the check, to run once at the start.
 * An answer that arrives after a newer request was sent is dropped, so the problems always match the latest text.
 */
function liveCheck(ctx, scope, view) {
  let timer = null;
  let sent = 0;
  const check = async () => {
    const mine = ++sent;
    try {
      const answer = await api('POST', `${scope.base}/policy-checks`, view.area.value);
      if (mine !== sent || !ctx.isCurrent()) return;
      showCheck(answer, view);
    } catch (problem) {
      if (mine === sent) replace(view.problems, problemView(problem));
    }
  };
  view.area.addEventListener('input', () => {
    clearTimeout(timer);
    replace(view.summary, 'Checking…');
    timer = setTimeout(check, CHECK_DELAY_MS);
  });
  return check;
}

async function submit(ctx, scope, stored, { area, status, summary, problems }) {
  replace(status);
  try {
    const saved = stored
      ? await api('PATCH', `${scope.base}/policies/${stored.id}`, area.value)
      : await api('POST', `${scope.base}/policies`, area.value);
    const kept = keptKeys(area.value, saved.policy);
    if (!stored) {
      ctx.navigate(`${scope.ui}/policies/${saved.id}`);
      return;
    }
    replace(status, h('p', { role: 'status' }, `Saved ${saved.name}.`,
      kept.length ? ` Kept because the text does not name them: ${kept.join(', ')}.` : ''));
  } catch (problem) {
    const errors = problem instanceof Problem && Array.isArray(problem.body.errors) ? problem.body.errors : [];
    if (errors.some(e => e.line)) {
      replace(summary, `The platform refused the save: ${problem.body.detail || problem.message}`);
      replace(problems, problemList(errors.map(e => ({ severity: 'ERROR', code: e.code, line: e.line,
        column: e.column, message: e.detail, rendered: caretBlock(area.value, e) })), area));
    } else {
      replace(status, problemView(problem));
    }
  }
}

/** Top-level keys the stored policy has that the text left out (an update keeps them; spec "Update semantics"). */
function keptKeys(text, policy) {
  try {
    const sent = load(text);
    return sent && typeof sent === 'object' ? Object.keys(policy).filter(k => !(k in sent)) : [];
  } catch {
    return [];
  }
}

/** A refused save's field error drawn as the CLI draws a problem: the line, then a caret under the column. */
function caretBlock(text, e) {
  const line = text.split('\n')[e.line - 1] ?? '';
  const gutter = String(e.line);
  return `policy:${e.line}:${e.column || 1}: error[${e.code}]: ${e.detail}\n ${gutter} | ${line}\n`
    + ` ${' '.repeat(gutter.length)} | ${' '.repeat(Math.max(0, (e.column || 1) - 1))}^\n`;
}

function showCheck(answer, { area, summary, problems, rows }) {
  replace(summary, answer.valid
    ? (answer.warnings ? `Valid, with ${answer.warnings} warning${answer.warnings === 1 ? '' : 's'}.` : 'Valid.')
    : `${answer.errors} error${answer.errors === 1 ? '' : 's'}${answer.warnings ? `, ${answer.warnings} warning(s)` : ''}.`);
  replace(problems, answer.problems.length ? problemList(answer.problems, area) : null);
  replace(rows, answer.valid ? table('Domain entries of this document', [
    ['Pattern', r => r.pattern], ['Verdict', r => r.verdict], ['Scheme/transport', r => r.schemeTransport],
    ['Callers', r => r.callers], ['Rules', r => r.rules],
  ], answer.rows, 'No domain entries: every domain gets the default verdict.') : h('p', { class: 'empty' },
    'Shown once the document is valid.'));
}

function problemList(list, area) {
  return h('ol', { class: 'problems' }, list.map(p => h('li', { class: p.severity === 'ERROR' ? 'error' : 'warning' },
    p.line ? h('button', { type: 'button', class: 'link goto', 'data-line': p.line, 'data-column': p.column || 1,
      onclick: () => moveTo(area, p.line, p.column || 1) }, `Line ${p.line}, column ${p.column || 1}`) : null,
    ' ', h('span', {}, `${p.severity === 'ERROR' ? 'error' : 'warning'} [${p.code}]: ${p.message}`),
    p.rendered ? h('pre', { class: 'caret', tabindex: 0 }, p.rendered) : null)));
}

/** Puts the cursor at a 1-based line and column of the text area and scrolls it into view. */
function moveTo(area, line, column) {
  const lines = area.value.split('\n');
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
  offset += Math.min(column - 1, (lines[line - 1] ?? '').length);
  area.focus();
  area.setSelectionRange(offset, offset);
  const lineHeight = parseFloat(getComputedStyle(area).lineHeight) || 18;
  area.scrollTop = Math.max(0, (line - 3) * lineHeight);
}

function deleteForm(ctx, scope, stored) {
  const status = h('div', { 'aria-live': 'polite' });
  const form = h('form', { id: 'delete-policy' }, h('h2', {}, 'Delete'),
    h('button', { type: 'submit', class: 'danger' }, `Delete policy ${stored.name}`), status);
  form.addEventListener('submit', async e => {
    e.preventDefault();
    if (!window.confirm(`Delete policy ${stored.name}? Sandboxes and bindings using it lose what it grants.`)) return;
    try {
      await api('DELETE', `${scope.base}/policies/${stored.id}`);
      ctx.navigate(`${scope.ui}/policies`);
    } catch (problem) {
      replace(status, problemView(problem));
    }
  });
  return form;
}
