import { h, append, when } from '../../dom.js';
import { api } from '../../api.js';

/** A project at a glance: name, description, its organization, and its sections. */
export async function render(main, ctx) {
  const id = ctx.params.projectId;
  const project = await api('GET', `/projects/${id}`);
  const org = await api('GET', `/orgs/${project.orgId}`).catch(() => null);
  append(main,
    h('h1', {}, project.name),
    h('dl', { class: 'facts' },
      h('dt', {}, 'Organization'),
      h('dd', {}, h('a', { href: `/ui/orgs/${project.orgId}` }, org ? org.name : project.orgId)),
      h('dt', {}, 'Description'), h('dd', {}, project.description || '—'),
      h('dt', {}, 'Created'), h('dd', {}, when(project.createdAt)),
      h('dt', {}, 'Id'), h('dd', {}, h('code', {}, project.id))),
    h('h2', {}, 'Sections'),
    h('ul', { id: 'project-sections' },
      h('li', {}, h('a', { href: `/ui/projects/${id}/members` }, 'Members')),
      h('li', {}, h('a', { href: `/ui/projects/${id}/sandbox-tokens` }, 'Sandbox tokens'))));
}
