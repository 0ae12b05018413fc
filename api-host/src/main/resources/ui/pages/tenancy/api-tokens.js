import { h, append, replace, table } from '../../dom.js';
import { api } from '../../api.js';
import { attempt, statusRegion, tokenColumns, tokenForm } from './parts.js';

/** The organization's API tokens: create (the secret shown once), list, revoke. */
export async function render(main, ctx) {
  const orgId = ctx.params.orgId;
  const status = statusRegion('api-tokens-status');
  const shown = h('div', { id: 'created-token' });
  const listed = h('div', { id: 'api-tokens' });

  async function draw() {
    const tokens = (await api('GET', `/orgs/${orgId}/api-tokens`)).items;
    replace(listed, table('API tokens of this organization', tokenColumns(t => (t.revokedAt ? null
      : h('button', { type: 'button', class: 'danger', onclick: () => attempt(status,
        () => api('DELETE', `/api-tokens/${t.id}`), `API token ${t.name} was revoked.`, draw) },
      `Revoke ${t.name}`))), tokens, 'No API token yet.'));
  }

  const form = tokenForm('create-api-token', 'API token', async body => {
    const created = await api('POST', `/orgs/${orgId}/api-tokens`, body);
    await draw();
    return created;
  }, shown, status);
  append(main, h('h1', {}, 'API tokens'),
    h('p', {}, 'An API token acts for scripts and the CLI. Give it a role in a project under the project’s members.'),
    status, shown, listed, h('h2', {}, 'New API token'), form);
  await draw();
}
