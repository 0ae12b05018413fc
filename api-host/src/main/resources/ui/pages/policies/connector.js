import { h, table, field, when, append, replace } from '../../dom.js';
import { api, problemView } from '../../api.js';
import { styled } from './scope.js';

// One connector: discover again, review a pending tool list with its diff and promote it, show or hide each tool,
// and manage its credentials (a static secret, or an OAuth connection through an operator-configured application).

export async function render(main, ctx) {
  styled();
  const { projectId, serverId } = ctx.params;
  const [c, pending, entries, credentials, apps] = await Promise.all([
    api('GET', `/mcp-servers/${serverId}`), api('GET', `/mcp-servers/${serverId}/specs/pending`),
    api('GET', `/mcp-servers/${serverId}/entries`),
    api('GET', `/projects/${projectId}/mcp-servers/${serverId}/credentials`),
    api('GET', `/projects/${projectId}/oauth-applications`).then(r => r.items).catch(() => []),
  ]);
  const status = h('div', { id: 'connector-status', 'aria-live': 'polite' });
  // every action goes through the API; a refusal is shown, a success redraws the page from the API's answers
  const act = async (work, after = () => ctx.refresh()) => {
    try {
      after(await work());
    } catch (problem) {
      replace(status, problemView(problem));
    }
  };
  const base = `/projects/${projectId}/mcp-servers/${serverId}`;
  append(main,
    h('p', {}, h('a', { href: `/ui/projects/${projectId}/connectors` }, 'Connectors')),
    h('h1', {}, `Connector ${c.name}`),
    h('dl', {}, h('dt', {}, 'Address'), h('dd', { class: 'mono' }, c.url), h('dt', {}, 'Status'),
      h('dd', {}, c.status + (c.lastError ? ` (${c.lastError})` : '')), h('dt', {}, 'Last discovery'), h('dd', {}, when(c.syncedAt))),
    h('button', { type: 'button', id: 'sync', onclick: () => act(() => api('POST', `/mcp-servers/${serverId}/sync`),
      r => { replace(status, h('p', { role: 'status' }, synced(r))); ctx.refresh(); }) }, 'Discover tools again'),
    status,
    h('h2', {}, 'Pending tool lists'), await pendingLists(serverId, pending.items, act),
    h('h2', {}, 'Tools'), toolTable(serverId, entries.items, act),
    h('h2', {}, 'Credentials'), credentialTable(base, credentials.items, act),
    credentialForm(ctx, base, apps, status),
    h('h2', {}, 'Delete'),
    h('button', { type: 'button', class: 'danger', onclick: () => {
      if (window.confirm(`Delete connector ${c.name}? Its tools disappear from every agent.`)) {
        act(() => api('DELETE', `/mcp-servers/${serverId}`), () => ctx.navigate(`/ui/projects/${projectId}/connectors`));
      }
    } }, `Delete connector ${c.name}`));
}

function synced(r) {
  if (r.error) return `Discovery failed: ${r.error}`;
  return r.changed ? 'The tool list changed: review the pending list below.' : 'No change.';
}

/** Each pending tool list with what promoting it would add, remove and change. */
async function pendingLists(serverId, specs, act) {
  if (!specs.length) return h('p', { class: 'empty' }, 'No pending list: the active tools are current.');
  return h('div', { id: 'pending' }, await Promise.all(specs.map(async s => {
    const diff = await api('GET', `/mcp-servers/${serverId}/specs/${s.id}/diff`);
    const changes = [...diff.added.map(t => ['added', t]), ...diff.removed.map(t => ['removed', t]),
      ...diff.changed.map(t => ['changed', t])];
    return h('section', {}, h('h3', {}, `Discovered ${when(s.createdAt)}`),
      table('Changes against the active list', [['Change', r => r[0]], ['Tool', r => r[1]]], changes, 'No tool changed.'),
      h('button', { type: 'button', class: 'primary',
        onclick: () => act(() => api('POST', `/mcp-servers/${serverId}/specs/${s.id}/promote`)) }, 'Promote this list'));
  })));
}

function toolTable(serverId, entries, act) {
  return table('Tools of the active list (a hidden tool is never exposed)', [
    ['Tool', e => e.name], ['Description', e => e.description || ''],
    ['Shown', e => h('input', { type: 'checkbox', checked: e.visible, 'aria-label': `Show ${e.name}`,
      onchange: ev => act(() => api('PUT', `/mcp-servers/${serverId}/entries/${encodeURIComponent(e.name)}/visibility`,
        { visible: ev.target.checked })) })],
  ], entries, 'No tools discovered yet.');
}

/** Credentials by name and kind (the API never returns a secret); OAuth ones can be connected. */
function credentialTable(base, credentials, act) {
  const connect = k => h('button', { type: 'button', onclick: () => act(
    () => api('POST', `${base}/credentials/${k.id}/oauth/start`), r => window.location.assign(r.authorizationUrl)) },
  k.connectedAt ? 'Reconnect' : 'Connect');
  const remove = k => h('button', { type: 'button', class: 'danger', 'aria-label': `Delete credential ${k.name}`,
    onclick: () => act(() => api('DELETE', `${base}/credentials/${k.id}`)) }, 'Delete');
  return table('Credentials (secrets are never shown)', [
    ['Name', k => k.name], ['Kind', k => k.kind], ['OAuth application', k => k.application || '—'],
    ['Connected', k => (k.application ? when(k.connectedAt) : '—')],
    ['Actions', k => [k.application ? connect(k) : null, ' ', remove(k)]],
  ], credentials, 'No credential: calls go upstream without one.');
}

function credentialForm(ctx, base, apps, status) {
  const name = h('input', { name: 'name', required: true, maxlength: 100, autocomplete: 'off' });
  const app = h('select', { name: 'application' }, h('option', { value: '' }, 'None: a static secret'),
    apps.map(a => h('option', { value: a.name }, `${a.name} (${a.issuer})`)));
  const secret = h('input', { name: 'secret', type: 'password', autocomplete: 'off' });
  const headerFormat = h('input', { name: 'headerFormat', autocomplete: 'off', placeholder: 'Authorization: Bearer {secret}' });
  const form = h('form', { id: 'add-credential' }, h('h3', {}, 'Add a credential'), field('Name', name),
    field('OAuth application', app, 'Connect through an application the operator configured, or give a secret.'),
    field('Secret', secret), field('Header format', headerFormat, 'Optional; see docs/mcp.md.'),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Add credential')));
  form.addEventListener('submit', async e => {
    e.preventDefault();
    const body = { name: name.value };
    if (app.value) body.application = app.value; else body.secret = secret.value;
    if (!app.value && headerFormat.value) body.headerFormat = headerFormat.value;
    try {
      await api('POST', `${base}/credentials`, body);
      ctx.refresh();
    } catch (problem) {
      replace(status, problemView(problem));
    }
  });
  return form;
}
