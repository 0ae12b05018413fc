// A project's sandboxes with their states, and a new sandbox authored as YAML (the API reads it and answers its
// problems with line and column, shown as they come).
import { h, table, field, when, append } from '../../dom.js';
import { api, all, problemView } from '../../api.js';
import { areaStyles } from './style.js';

const EXAMPLE = `name: my-sandbox
cpu: 500m
memory: 512Mi
# image: debian:bookworm
# ports: [{port: 8080, visibility: private}]
# autoStop: 30m
# autoDelete: 7d
# autoStart: true
`;
const SETTLING = new Set(['creating', 'starting']);
const POLL_MS = 2000;

/** A sandbox's state as a tag that reads as the word itself. */
export function stateTag(state) {
  return h('span', { class: `tag state-${state}` }, state);
}

/** The timers of a sandbox in words; `—` when none is set. */
export function timersText(s) {
  const parts = [s.autoStop ? `stop after ${s.autoStop} idle` : null, s.autoDelete ? `delete after ${s.autoDelete} stopped` : null,
    s.autoStart ? 'auto-start' : null].filter(Boolean);
  return parts.length ? parts.join(', ') : '—';
}

export async function render(main, ctx) {
  areaStyles();
  const { projectId } = ctx.params;
  const project = await api('GET', `/projects/${projectId}`);
  const list = h('div', { id: 'sandbox-list', 'aria-live': 'polite' });
  const draw = async () => {
    const sandboxes = await all(`/projects/${projectId}/sandboxes`);
    list.replaceChildren(table(`Sandboxes of ${project.name}`, [
      ['Name', s => h('a', { href: `/ui/projects/${projectId}/sandboxes/${s.id}` }, s.name)],
      ['State', s => [stateTag(s.state), s.detail ? h('span', { class: 'hint' }, ' ' + s.detail) : null]],
      ['CPU', s => s.cpu],
      ['Memory', s => s.memory],
      ['Revision', s => String(s.activeRevision)],
      ['Timers', s => timersText(s)],
      ['Created', s => when(s.createdAt)],
    ], sandboxes, 'No sandbox in this project yet.'));
    return sandboxes.some(s => SETTLING.has(s.state));
  };
  const poll = async () => {
    if (!ctx.isCurrent()) return;
    const settling = await draw().catch(e => { list.append(problemView(e)); return false; });
    if (settling && ctx.isCurrent()) setTimeout(poll, POLL_MS);
  };
  append(main, h('h1', {}, `Sandboxes of ${project.name}`), list, h('h2', {}, 'New sandbox'), createForm(projectId, ctx));
  await poll();
}

function createForm(projectId, ctx) {
  const yaml = h('textarea', { name: 'yaml', spellcheck: 'false', autocomplete: 'off', rows: 12 });
  yaml.value = EXAMPLE;
  const status = h('div', { 'aria-live': 'polite' });
  const form = h('form', { id: 'create-sandbox' },
    field('Sandbox YAML', yaml, 'name, cpu and memory are required; policy, policies, credentials, ports and timers are optional (docs/platform.md, "Sandboxes").'),
    h('button', { type: 'submit', class: 'primary' }, 'Create sandbox'), status);
  form.addEventListener('submit', async e => {
    e.preventDefault();
    status.replaceChildren(h('p', {}, 'Creating…'));
    try {
      const created = await api('POST', `/projects/${projectId}/sandboxes`, yaml.value, { contentType: 'application/yaml' });
      ctx.navigate(`/ui/projects/${projectId}/sandboxes/${created.id}`);
    } catch (problem) {
      status.replaceChildren(problemView(problem));
    }
  });
  return form;
}
