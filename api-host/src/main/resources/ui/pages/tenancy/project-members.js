import { h, append, replace, table, field } from '../../dom.js';
import { api } from '../../api.js';
import { attempt, roleSelect, roleField, statusRegion } from './parts.js';

const KINDS = { user: 'users', 'api-token': 'api-tokens' };

/** The people and API tokens of a project with their roles: add, change a role, remove. */
export async function render(main, ctx) {
  const projectId = ctx.params.projectId;
  const project = await api('GET', `/projects/${projectId}`);
  const status = statusRegion('project-members-status');
  const listed = h('div', { id: 'project-members' });
  const path = m => `/projects/${projectId}/members/${KINDS[m.principalType]}/${m.principalId}`;
  const label = m => `${m.principalType === 'user' ? 'person' : 'API token'} ${m.name || m.principalId}`;

  async function draw() {
    const members = (await api('GET', `/projects/${projectId}/members`)).items;
    replace(listed, table('People and API tokens of this project', [
      ['Name', m => m.name || m.principalId],
      ['Kind', m => (m.principalType === 'user' ? 'person' : 'API token')],
      ['Role', m => roleSelect(`Role of ${label(m)}`, m.role, role => attempt(status,
        () => api('PUT', path(m), { role }), `${label(m)} is now ${role.toLowerCase()}.`, draw))],
      ['', m => h('button', { type: 'button', class: 'danger', onclick: () => attempt(status,
        () => api('DELETE', path(m)), `${label(m)} was removed.`, draw) }, `Remove ${label(m)}`)],
    ], members, 'No member yet.'));
  }

  // candidates come from the organization; a list the person may not read is simply not offered
  const people = await api('GET', `/orgs/${project.orgId}/members`).then(m => m.items).catch(() => []);
  const tokens = await api('GET', `/orgs/${project.orgId}/api-tokens`)
    .then(t => t.items.filter(x => !x.revokedAt)).catch(() => []);
  const who = h('select', { name: 'principal', required: true },
    h('option', { value: '' }, 'Choose…'),
    people.length ? h('optgroup', { label: 'People' },
      people.map(p => h('option', { value: `users/${p.userId}` }, p.email || p.name || p.userId))) : null,
    tokens.length ? h('optgroup', { label: 'API tokens' },
      tokens.map(t => h('option', { value: `api-tokens/${t.id}` }, `${t.name} (${t.prefix})`))) : null);
  const role = roleField();
  const add = h('form', { class: 'inline', id: 'add-project-member' },
    field('Person or API token', who), field('Role', role), h('button', { type: 'submit', class: 'primary' }, 'Add'));
  add.addEventListener('submit', async e => {
    e.preventDefault();
    const name = who.selectedOptions[0]?.textContent;
    if (await attempt(status, () => api('PUT', `/projects/${projectId}/members/${who.value}`, { role: role.value }),
      `${name} is a ${role.value.toLowerCase()} of the project.`)) await draw();
  });

  append(main, h('h1', {}, `Members of ${project.name}`), status, listed, h('h2', {}, 'Add a member'), add);
  await draw();
}
