import { h, append, when } from '../../dom.js';
import { api } from '../../api.js';

/** An organization at a glance: its name, whether it is halted, how many projects and members, and its sections. */
export async function render(main, ctx) {
  const id = ctx.params.orgId;
  const org = await api('GET', `/orgs/${id}`);
  // counts are a courtesy: a member who may not list members still sees the overview
  const projects = await api('GET', `/orgs/${id}/projects`).then(p => p.items.length).catch(() => null);
  const members = await api('GET', `/orgs/${id}/members`).then(m => m.items.length).catch(() => null);
  const sections = [
    ['Projects', 'projects', projects === null ? null : `${projects} project${projects === 1 ? '' : 's'}`],
    ['Members', 'members', members === null ? null : `${members} member${members === 1 ? '' : 's'}`],
    ['API tokens', 'api-tokens', null],
    ['Emergency halt', 'halt', org.halted ? 'halted' : 'not halted'],
    ['Audit trail', 'audit', null],
  ];
  append(main,
    h('h1', {}, org.name),
    h('dl', { class: 'facts' },
      h('dt', {}, 'State'),
      h('dd', { id: 'org-state' }, org.halted ? h('span', { class: 'tag halted' }, 'halted') : 'running'),
      h('dt', {}, 'Created'), h('dd', {}, when(org.createdAt)),
      h('dt', {}, 'Id'), h('dd', {}, h('code', {}, org.id))),
    h('h2', {}, 'Sections'),
    h('ul', { id: 'org-sections' }, sections.map(([label, path, note]) => h('li', {},
      h('a', { href: `/ui/orgs/${id}/${path}` }, label), note ? ` (${note})` : null))));
}
