import { h, table, field, when, append, replace } from '../../dom.js';
import { api, problemView } from '../../api.js';
import { scopeOf, styled } from './scope.js';
import { effectiveView, driftView } from './effective.js';

// Policy bindings give people and API tokens their policies, at org level (every project) or in one project. The org
// page adds the drift report; the project page adds the effective policy of an identity or a sandbox.

export async function render(main, ctx) {
  styled();
  const scope = scopeOf(ctx.params);
  const orgId = scope.orgId ?? (await api('GET', scope.base)).orgId;
  const [bindings, policies, people, tokens] = await Promise.all([
    api('GET', `${scope.base}/policy-bindings`), api('GET', `${scope.base}/policies`),
    api('GET', `/orgs/${orgId}/members`).then(r => r.items).catch(() => []),
    api('GET', `/orgs/${orgId}/api-tokens`).then(r => r.items).catch(() => []),
  ]);
  const subjects = [...people.map(p => ({ kind: 'userId', id: p.userId, label: `${p.name || p.email || p.userId} (person)` })),
    ...tokens.map(t => ({ kind: 'apiTokenId', id: t.id, label: `${t.name} (API token)` }))];
  const nameOf = b => {
    const s = subjects.find(x => x.id === (b.userId || b.apiTokenId));
    return s ? s.label : `${b.userId ? 'person' : 'API token'} ${b.userId || b.apiTokenId}`;
  };
  const status = h('div', { id: 'binding-status', 'aria-live': 'polite' });
  append(main,
    h('h1', {}, scope.level === 'org' ? 'Organization policy bindings' : 'Project policy bindings'),
    h('p', { class: 'hint' }, scope.level === 'org'
      ? 'A policy bound here reaches the person or token in every project of the organization.'
      : 'A policy bound here reaches the person or token in this project, clipped by the organization ceiling.'),
    table('Policy bindings', [
      ['Policy', b => b.policyName],
      ['Bound to', b => nameOf(b)],
      ['Created', b => when(b.createdAt)],
      ['', b => h('button', { type: 'button', class: 'danger', 'aria-label': `Remove binding of ${b.policyName} to ${nameOf(b)}`,
        onclick: async () => {
          try {
            await api('DELETE', `${scope.base}/policy-bindings/${b.id}`);
            ctx.refresh();
          } catch (problem) {
            replace(status, problemView(problem));
          }
        } }, 'Remove')],
    ], bindings.items, 'No bindings yet.'),
    status,
    h('h2', {}, 'Bind a policy'),
    createForm(ctx, scope, policies.items, subjects, status));
  if (scope.level === 'org') {
    append(main, h('h2', {}, 'Drift'), await driftSection(orgId));
  } else {
    append(main, h('h2', {}, 'Effective policy'), await effectiveSection(scope, subjects));
  }
}

function createForm(ctx, scope, policies, subjects, status) {
  const policy = h('select', { name: 'policyId', required: true },
    policies.map(p => h('option', { value: p.id }, p.name)));
  const subject = h('select', { name: 'subject', required: true },
    subjects.map(s => h('option', { value: `${s.kind}:${s.id}` }, s.label)));
  const form = h('form', { class: 'inline', id: 'create-binding' }, field('Policy', policy), field('Bound to', subject),
    h('button', { type: 'submit', class: 'primary' }, 'Bind'));
  form.addEventListener('submit', async e => {
    e.preventDefault();
    const [kind, id] = subject.value.split(':');
    try {
      await api('POST', `${scope.base}/policy-bindings`, { policyId: policy.value, [kind]: id });
      ctx.refresh();
    } catch (problem) {
      replace(status, problemView(problem));
    }
  });
  return form;
}

async function driftSection(orgId) {
  try {
    const { items } = await api('GET', `/orgs/${orgId}/policy-bindings/drift`);
    if (!items.length) return h('p', { class: 'empty', id: 'drift' }, 'No drift: every project got what it asked for.');
    return h('div', { id: 'drift' }, items.map(c => h('section', { class: 'drift-case' },
      h('h3', {}, c.kind === 'sandbox' ? `Sandbox ${c.sandboxId}` : `${c.userId ? 'Person' : 'API token'} ${c.userId || c.apiTokenId}`,
        ` in project ${c.projectId}`),
      driftView(c.drift))));
  } catch (problem) {
    return problemView(problem);
  }
}

async function effectiveSection(scope, subjects) {
  const sandboxes = await api('GET', `${scope.base}/sandboxes`).then(r => r.items || []).catch(() => []);
  const choice = h('select', { name: 'whose', id: 'effective-of' },
    h('option', { value: '' }, 'Me'),
    subjects.map(s => h('option', { value: `${s.kind}:${s.id}` }, s.label)),
    sandboxes.map(s => h('option', { value: `sandbox:${s.id}` }, `${s.name || s.id} (sandbox)`)));
  const out = h('div', { id: 'effective', 'aria-live': 'polite' });
  const show = async () => {
    const [kind, id] = choice.value ? choice.value.split(':') : [null, null];
    try {
      if (kind === 'sandbox') {
        const answer = await api('GET', `${scope.base}/sandboxes/${id}/effective-policy`);
        replace(out, effectiveView(answer.current));
      } else {
        const query = kind ? `?${kind}=${encodeURIComponent(id)}` : '';
        replace(out, effectiveView(await api('GET', `${scope.base}/policy-bindings/effective${query}`)));
      }
    } catch (problem) {
      replace(out, problemView(problem));
    }
  };
  const form = h('form', { class: 'inline', id: 'effective-form' }, field('Whose', choice),
    h('button', { type: 'submit' }, 'Show'));
  form.addEventListener('submit', e => { e.preventDefault(); show(); });
  await show();
  return h('div', {}, form, out);
}
