// Pieces the tenancy views share: a status region that announces results, buttons that call the API and show its
// refusal in place, role choices, and the token panel whose secret is shown once.
import { h, replace, field, when } from '../../dom.js';
import { api, problemView } from '../../api.js';

/** The two roles the API knows for organization and project members. */
export const ROLES = ['ADMIN', 'MEMBER'];

/** A polite live region: what an action did, or the API's problem when it refused. */
export function statusRegion(id) {
  return h('div', { class: 'status', id, 'aria-live': 'polite' });
}

/**
 * Runs `action`, then `redraw` (also after a refusal, so a control the person changed shows the stored value again),
 * then shows `done` (text) in `status`, or the API's problem on refusal; returns success. The message comes last so
 * that it appears only once the page shows the new state.
 */
export async function attempt(status, action, done, redraw) {
  let failure = null;
  try {
    await action();
  } catch (problem) {
    failure = problem;
  }
  if (redraw) await redraw().catch(() => null);
  if (failure) replace(status, problemView(failure));
  else if (done) replace(status, h('p', { role: 'status' }, done));
  return failure === null;
}

/** A select of the roles, labelled for the person or token it belongs to (a table cell has no visible label). */
export function roleSelect(label, value, onchange) {
  const select = h('select', { 'aria-label': label, onchange: () => onchange(select.value) },
    ROLES.map(r => h('option', { value: r, selected: r === value }, r.toLowerCase())));
  return select;
}

/** A labelled role select for a form. */
export function roleField(name = 'role', value = 'MEMBER') {
  return h('select', { name }, ROLES.map(r => h('option', { value: r, selected: r === value }, r.toLowerCase())));
}

/** A datetime-local value as the ISO instant the API reads; null when empty. */
export function instantOf(localValue) {
  if (!localValue) return null;
  const d = new Date(localValue);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/**
 * The secret of a token just created, shown once: a read-only field that selects itself for copying, a copy button
 * and a warning that it cannot be shown again (the API answers it only in the creation response).
 */
export function secretPanel(created, kind) {
  const value = h('input', { id: 'new-token-secret', readonly: true, value: created.token, spellcheck: 'false',
    autocomplete: 'off', size: Math.min(80, created.token.length + 2), onfocus: e => e.target.select() });
  const copied = h('span', { 'aria-live': 'polite' });
  const copy = h('button', { type: 'button', onclick: async () => {
    try {
      await navigator.clipboard.writeText(created.token);
      replace(copied, 'Copied.');
    } catch (e) {
      value.focus();
      replace(copied, 'Copying was refused by the browser: the token is selected, copy it with the keyboard.');
    }
  } }, 'Copy');
  return h('section', { class: 'secret', id: 'new-token', 'aria-labelledby': 'new-token-heading' },
    h('h2', { id: 'new-token-heading' }, `New ${kind} “${created.name}”`),
    h('p', { role: 'alert' }, h('strong', {}, 'Shown once: '),
      'copy this token now. Stockade cannot show it again; if it is lost, revoke it and create another.'),
    field('Token', value), copy, ' ', copied);
}

/** The columns every token list has; `actions(row)` adds the row's buttons. */
export function tokenColumns(actions) {
  return [
    ['Name', t => t.name],
    ['Prefix', t => h('code', {}, t.prefix)],
    ['Created', t => when(t.createdAt)],
    ['Expires', t => (t.expiresAt ? when(t.expiresAt) : 'never')],
    ['State', t => (t.revokedAt ? `revoked ${when(t.revokedAt)}` : (t.expiresAt && new Date(t.expiresAt) < new Date() ? 'expired' : 'active'))],
    ['', actions],
  ];
}

/** The create form of a token kind: name and an optional expiry; `create(body)` returns the created token. */
export function tokenForm(id, kind, create, shown, status) {
  const name = h('input', { name: 'name', required: true, maxlength: 200, autocomplete: 'off' });
  const expires = h('input', { name: 'expiresAt', type: 'datetime-local' });
  const form = h('form', { class: 'inline', id },
    field('Name', name), field('Expires (optional)', expires, 'Empty: the token does not expire.'),
    h('button', { type: 'submit', class: 'primary' }, `Create ${kind}`));
  form.addEventListener('submit', async e => {
    e.preventDefault();
    await attempt(status, async () => {
      const created = await create({ name: name.value, expiresAt: instantOf(expires.value) });
      replace(shown, secretPanel(created, kind));
      shown.querySelector('input').focus();
    });
  });
  return form;
}

export { api, h, replace, field, when, problemView };
