import { h, table, field, when, append, replace } from '../../dom.js';
import { api, problemView } from '../../api.js';
import { styled } from './scope.js';

// A project's connectors: upstream MCP servers and HTTP APIs described by OpenAPI, whose tools the platform
// re-exposes only where a policy grants them. Registering discovers the tools once; the detail page does the rest.

export async function render(main, ctx) {
  styled();
  const projectId = ctx.params.projectId;
  const { items } = await api('GET', `/projects/${projectId}/mcp-servers`);
  append(main,
    h('h1', {}, 'Connectors'),
    h('p', { class: 'hint' }, 'Tools of a connector reach an agent only where a policy names them in allowedTools.'),
    table('Connectors of this project', [
      ['Name', c => h('a', { href: `/ui/projects/${projectId}/connectors/${c.id}` }, c.name)],
      ['Kind', c => (c.kind === 'http' ? 'HTTP API (OpenAPI)' : 'MCP server')],
      ['Address', c => h('span', { class: 'mono' }, c.url)],
      ['Status', c => c.status + (c.lastError ? ` (${c.lastError})` : '')],
      ['Tools', c => String((c.tools || []).length)],
      ['Discovered', c => when(c.syncedAt)],
    ], items, 'No connector yet.'),
    h('h2', {}, 'Register an MCP server'), mcpForm(ctx, projectId),
    h('h2', {}, 'Register an HTTP API from its OpenAPI document'), httpForm(ctx, projectId));
}

function mcpForm(ctx, projectId) {
  const name = h('input', { name: 'name', required: true, maxlength: 100, autocomplete: 'off' });
  const url = h('input', { name: 'url', type: 'url', required: true, autocomplete: 'off' });
  const out = h('div', { 'aria-live': 'polite', id: 'mcp-status' });
  const preview = h('button', { type: 'button', id: 'preview-tools' }, 'Preview tools');
  preview.addEventListener('click', async () => {
    replace(out, h('p', { class: 'loading' }, 'Discovering…'));
    try {
      const found = await api('POST', `/projects/${projectId}/mcp-servers/discover/preview`, { url: url.value });
      replace(out, found.ok ? table(`Tools at ${url.value}`, [['Tool', t => t.name], ['Description', t => t.description || '']],
        found.tools, 'The server lists no tools.') : h('p', { class: 'problem', role: 'alert' }, found.error));
    } catch (problem) {
      replace(out, problemView(problem));
    }
  });
  const form = h('form', { id: 'register-mcp' }, field('Name', name), field('MCP endpoint URL', url,
    'Streamable HTTP; the platform connects to it, agents never do.'),
  h('div', { class: 'actions' }, preview, ' ', h('button', { type: 'submit', class: 'primary' }, 'Register')), out);
  form.addEventListener('submit', async e => {
    e.preventDefault();
    try {
      const c = await api('POST', `/projects/${projectId}/mcp-servers`, { name: name.value, url: url.value });
      ctx.navigate(`/ui/projects/${projectId}/connectors/${c.id}`);
    } catch (problem) {
      replace(out, problemView(problem));
    }
  });
  return form;
}

function httpForm(ctx, projectId) {
  const name = h('input', { name: 'name', required: true, maxlength: 100, autocomplete: 'off' });
  const documentUrl = h('input', { name: 'documentUrl', type: 'url', autocomplete: 'off' });
  const doc = h('textarea', { name: 'document', rows: 8, spellcheck: 'false' });
  const baseUrl = h('input', { name: 'baseUrl', type: 'url', autocomplete: 'off' });
  const out = h('div', { 'aria-live': 'polite' });
  const form = h('form', { id: 'register-http' }, field('Name', name),
    field('OpenAPI document URL', documentUrl, 'Or paste the document below (JSON or YAML).'),
    field('OpenAPI document', doc), field('Base URL', baseUrl, 'Only when the document\'s first server is not where the API is.'),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Register HTTP API')), out);
  form.addEventListener('submit', async e => {
    e.preventDefault();
    const body = { name: name.value };
    if (documentUrl.value) body.documentUrl = documentUrl.value;
    if (doc.value.trim()) body.document = doc.value;
    if (baseUrl.value) body.baseUrl = baseUrl.value;
    try {
      const c = await api('POST', `/projects/${projectId}/mcp-servers/http`, body);
      ctx.navigate(`/ui/projects/${projectId}/connectors/${c.id}`);
    } catch (problem) {
      replace(out, problemView(problem));
    }
  });
  return form;
}
