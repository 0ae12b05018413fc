import { h, table, when, append } from '../../dom.js';
import { api } from '../../api.js';
import { scopeOf, styled } from './scope.js';

/** An organization's or a project's policies: name, how many domain entries, last change; a link to a new one. */
export async function render(main, ctx) {
  styled();
  const scope = scopeOf(ctx.params);
  const { items } = await api('GET', `${scope.base}/policies`);
  append(main,
    h('h1', {}, scope.level === 'org' ? 'Organization policies' : 'Project policies'),
    h('p', { class: 'hint' }, scope.level === 'org'
      ? 'Organization policies are reusable and are the ceiling of what any project may grant.'
      : 'Project policies are clipped by the organization ceiling.'),
    h('p', {}, h('a', { href: `${scope.ui}/policies/new`, id: 'new-policy' }, 'New policy')),
    table('Policies', [
      ['Name', p => h('a', { href: `${scope.ui}/policies/${p.id}` }, p.name)],
      ['Default', p => p.policy.networkDefaultVerdict || '—'],
      ['Domain entries', p => String((p.policy.allowedDomains || []).length)],
      ['Updated', p => when(p.updatedAt)],
    ], items, 'No policy yet: sandboxes here reach nothing until one allows it.'));
}
