import { h, append, replace, field, when } from '../../dom.js';
import { api } from '../../api.js';
import { attempt, statusRegion } from './parts.js';

/**
 * The organization's emergency halt: its state, halting (confirmed by typing the organization's name, so a stray
 * click or Enter cannot stop every sandbox) and lifting. Either change asks app.js to redraw, which redraws the
 * banner every page of the organization carries.
 */
export async function render(main, ctx) {
  const orgId = ctx.params.orgId;
  const [org, state] = await Promise.all([api('GET', `/orgs/${orgId}`), api('GET', `/orgs/${orgId}/halt`)]);
  const status = statusRegion('halt-status');
  const changed = () => window.dispatchEvent(new Event('stockade:changed'));
  append(main, h('h1', {}, 'Emergency halt'),
    h('p', {}, 'A halt denies every sandbox of the organization all egress, tool and model calls at once, and stops '
      + 'calls in flight. Sandboxes keep running and resume when the halt is lifted.'),
    h('dl', { class: 'facts' },
      h('dt', {}, 'State'), h('dd', { id: 'halt-state' }, state.halted ? 'halted' : 'not halted'),
      state.halted ? [h('dt', {}, 'Halted at'), h('dd', {}, when(state.haltedAt)),
        h('dt', {}, 'Halted by'), h('dd', {}, state.haltedBy || '—')] : null),
    status, state.halted ? liftForm(orgId, status, changed) : haltForm(org, status, changed));
}

function haltForm(org, status, changed) {
  const confirmation = h('input', { name: 'confirm', autocomplete: 'off', spellcheck: 'false', required: true });
  const form = h('form', { id: 'halt-form' }, h('h2', {}, 'Halt this organization'),
    field(`Type the organization’s name, ${org.name}, to confirm`, confirmation,
      'Every sandbox of the organization loses egress, tools and models until the halt is lifted.'),
    h('button', { type: 'submit', class: 'danger' }, 'Halt organization'));
  form.addEventListener('submit', async e => {
    e.preventDefault();
    if (confirmation.value.trim() !== org.name) {
      replace(status, h('div', { class: 'problem', role: 'alert' },
        h('strong', {}, 'Not confirmed'), h('p', {}, 'The name typed is not the organization’s name; nothing was halted.')));
      confirmation.focus();
      confirmation.select(); // typing again replaces the mistake
      return;
    }
    if (await attempt(status, () => api('POST', `/orgs/${org.id}/halt`))) changed();
  });
  return form;
}

function liftForm(orgId, status, changed) {
  const form = h('form', { id: 'lift-form' }, h('h2', {}, 'Lift the halt'),
    h('p', {}, 'Sandboxes regain what their policies allow.'),
    h('button', { type: 'submit', class: 'primary' }, 'Lift the halt'));
  form.addEventListener('submit', async e => {
    e.preventDefault();
    if (await attempt(status, () => api('DELETE', `/orgs/${orgId}/halt`))) changed();
  });
  return form;
}
