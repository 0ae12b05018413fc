// One sandbox: its state with the lifecycle actions the API offers, its terminal, timers, configuration,
// revisions, exposed ports and effective policy. Every button is one API call; a refusal is shown as its problem.
import { h, field, when, append, replace } from '../../dom.js';
import { api, problemView } from '../../api.js';
import { areaStyles } from './style.js';
import { stateTag, timersText } from './sandboxes.js';
import { revisionsSection, portsSection, policySection } from './sandbox-parts.js';

const SETTLING = new Set(['creating', 'starting']);
const POLL_MS = 1500;

export async function render(main, ctx) {
  areaStyles();
  const { projectId, sandboxId } = ctx.params;
  const path = `/projects/${projectId}/sandboxes/${sandboxId}`;
  const view = liveView(ctx, path, await api('GET', path));
  const name = view.sandbox.name;
  append(main,
    h('h1', {}, `Sandbox ${name}`),
    h('p', {}, h('a', { href: `/ui/projects/${projectId}/sandboxes` }, 'All sandboxes of the project')),
    view.state, actions(path, view.act), view.status,
    terminalSection(projectId, sandboxId, name),
    h('div', { class: 'sandbox-grid' }, timersForm(path, view.sandbox, view.act), configForm(path, view.act)),
    view.parts);
  await view.drawParts();
  view.follow();
}

/** The sandbox's facts: state (with why it failed or who stopped it), revision, resources, timers. */
function facts(s) {
  return h('dl', { class: 'facts' },
    h('dt', {}, 'State'), h('dd', {}, stateTag(s.state), s.detail ? ' ' + s.detail : null,
      s.stoppedBy ? ` (stopped by ${s.stoppedBy})` : null),
    h('dt', {}, 'Active revision'), h('dd', { id: 'active-revision' }, String(s.activeRevision)),
    h('dt', {}, 'Resources'), h('dd', {}, `${s.cpu} CPU, ${s.memory}${s.image ? ', image ' + s.image : ''}`),
    h('dt', {}, 'Timers'), h('dd', { id: 'sandbox-timers' }, timersText(s)),
    h('dt', {}, 'Last activity'), h('dd', {}, when(s.lastActivityAt)));
}

/**
 * The parts of the view that change with the sandbox: its facts, the status of the last button, the sections below,
 * following a sandbox that is being provisioned until it settles (while the view is shown), and running a button.
 */
function liveView(ctx, path, first) {
  const view = { sandbox: first, state: h('div', { id: 'sandbox-state', 'aria-live': 'polite' }),
    status: h('div', { id: 'sandbox-status', 'aria-live': 'polite' }), parts: h('div', {}) };
  let polling = false;
  view.show = s => {
    view.sandbox = s;
    replace(view.state, facts(s));
  };
  view.drawParts = async () => replace(view.parts, await revisionsSection(path, view.sandbox, view.act),
    await portsSection(path), await policySection(path));
  view.follow = async () => {
    if (polling) return;
    polling = true;
    try {
      while (ctx.isCurrent() && SETTLING.has(view.sandbox.state)) {
        await new Promise(resolve => setTimeout(resolve, POLL_MS));
        view.show(await api('GET', path));
      }
    } finally {
      polling = false;
    }
    if (ctx.isCurrent()) await view.drawParts();
  };
  /** One API call of a button: its refusal shown, the state it leads to followed; a delete goes to the list. */
  view.act = async (label, call) => {
    view.status.replaceChildren(h('p', {}, `${label}…`));
    try {
      const answer = await call();
      if (answer === null) return ctx.navigate('/ui' + path.slice(0, path.lastIndexOf('/'))); // deleted: the list
      view.show(answer);
      view.status.replaceChildren(h('p', {}, `${label}: done.`));
      await view.drawParts();
      view.follow();
    } catch (problem) {
      view.status.replaceChildren(problemView(problem));
    }
  };
  view.show(first);
  return view;
}

function actions(path, act) {
  const button = (label, verb, cls) => h('button', { type: 'button', class: cls, 'data-action': verb,
    onclick: () => act(label, () => api('POST', `${path}/${verb}`)) }, label);
  const confirm = h('button', { type: 'button', class: 'danger', hidden: true, 'data-action': 'confirm-delete',
    onclick: () => act('Delete', () => api('DELETE', path)) }, 'Confirm: delete sandbox and its volume');
  const del = h('button', { type: 'button', 'data-action': 'delete', onclick: () => {
    confirm.hidden = false;
    confirm.focus();
  } }, 'Delete…');
  return h('div', { class: 'actions', role: 'group', 'aria-label': 'Lifecycle' },
    button('Start', 'start', 'primary'), button('Stop', 'stop'), button('Restart', 'restart'), del, confirm);
}

function terminalSection(projectId, sandboxId, name) {
  const host = h('div', { id: 'terminal-host' });
  const status = h('p', { id: 'terminal-status', 'aria-live': 'polite', class: 'hint' });
  let session = null;
  const open = h('button', { type: 'button', id: 'open-terminal' }, 'Open terminal');
  const close = h('button', { type: 'button', id: 'close-terminal', hidden: true }, 'Close terminal');
  open.addEventListener('click', async () => {
    const { openTerminal } = await import('./terminal.js');
    status.textContent = 'Connecting…';
    try {
      session = await openTerminal(host, { projectId, sandboxId, label: `Terminal of sandbox ${name}`,
        status: text => { status.textContent = text; }, escape: () => close.focus() });
      open.hidden = true;
      close.hidden = false;
    } catch (e) {
      status.textContent = `The terminal could not open: ${e.message || e}`;
    }
  });
  close.addEventListener('click', () => {
    session?.close();
    session = null;
    close.hidden = true;
    open.hidden = false;
    open.focus();
  });
  return h('section', { 'aria-labelledby': 'terminal-h' }, h('h2', { id: 'terminal-h' }, 'Terminal'),
    h('p', { class: 'hint' }, 'A shell in the sandbox over the exec socket. Keys, Tab included, go to the shell; press Shift+Escape to leave it.'),
    h('div', { class: 'actions' }, open, close), status, host);
}

/** Timers change in place, without a restart (spec); an empty duration turns a timer off. */
function timersForm(path, sandbox, act) {
  const stop = h('input', { name: 'autoStop', value: sandbox.autoStop ?? '', placeholder: '30m', autocomplete: 'off' });
  const del = h('input', { name: 'autoDelete', value: sandbox.autoDelete ?? '', placeholder: '7d', autocomplete: 'off' });
  const start = h('input', { type: 'checkbox', name: 'autoStart', checked: sandbox.autoStart });
  const form = h('form', { id: 'sandbox-timers-form' }, h('h2', {}, 'Timers'),
    field('Auto-stop after idle', stop, 'A duration such as 30m, 2h or 1d; empty: off.'),
    field('Auto-delete after stopped', del, 'Deletes the sandbox and its volume; empty: off.'),
    h('div', { class: 'field' }, h('label', {}, start, ' Auto-start on the next exec, terminal or private-port request')),
    h('button', { type: 'submit' }, 'Save timers'));
  form.addEventListener('submit', e => {
    e.preventDefault();
    act('Save timers', () => api('PATCH', path, {
      autoStop: stop.value.trim() || null, autoDelete: del.value.trim() || null, autoStart: start.checked,
    }));
  });
  return form;
}

/** A configuration change as YAML: the API merges it and makes it a new active revision. */
function configForm(path, act) {
  const yaml = h('textarea', { name: 'patch', spellcheck: 'false', autocomplete: 'off', rows: 6 });
  yaml.value = '# keys to change, e.g.\n# cpu: 1\n# ports: [{port: 8080, visibility: private}]\n';
  const form = h('form', { id: 'sandbox-config-form' }, h('h2', {}, 'Change configuration'),
    field('Changes (YAML)', yaml, 'cpu, memory, image, policy, policies, credentials, ports; a change is a new revision, active at once.'),
    h('button', { type: 'submit' }, 'Apply changes'));
  form.addEventListener('submit', e => {
    e.preventDefault();
    act('Apply changes', () => api('PATCH', path, yaml.value, { contentType: 'application/yaml' }));
  });
  return form;
}
