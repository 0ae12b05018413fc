import { h, append, replace, table } from '../../dom.js';
import { api } from '../../api.js';
import { attempt, statusRegion, tokenColumns, tokenForm } from './parts.js';

/** A project's sandbox tokens: create (the secret shown once), list, revoke. */
export async function render(main, ctx) {
  const projectId = ctx.params.projectId;
  const project = await api('GET', `/projects/${projectId}`);
  const status = statusRegion('sandbox-tokens-status');
  const shown = h('div', { id: 'created-token' });
  const listed = h('div', { id: 'sandbox-tokens' });

  async function draw() {
    const tokens = (await api('GET', `/projects/${projectId}/sandbox-tokens`)).items;
    replace(listed, table('Sandbox tokens of this project', tokenColumns(t => (t.revokedAt ? null
      : h('button', { type: 'button', class: 'danger', onclick: () => attempt(status,
        () => api('DELETE', `/sandbox-tokens/${t.id}`), `Sandbox token ${t.name} was revoked.`, draw) },
      `Revoke ${t.name}`))), tokens, 'No sandbox token yet.'));
  }

  const form = tokenForm('create-sandbox-token', 'sandbox token', async body => {
    const created = await api('POST', `/projects/${projectId}/sandbox-tokens`, body);
    await draw();
    return created;
  }, shown, status);
  append(main, h('h1', {}, `Sandbox tokens of ${project.name}`), status, shown, listed,
    h('h2', {}, 'New sandbox token'), form);
  await draw();
}
