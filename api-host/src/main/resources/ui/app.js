// The admin UI's frame: reads the address, finds the view for it, draws it into <main>, keeps the navigation and
// the banners (org halt, hub heartbeat) current. Views live in pages/<area>/ and declare their addresses in that
// area's routes.js, so areas grow without touching this file.
import { h, replace } from './dom.js';
import { api, problemView } from './api.js';
import home from './pages/home/routes.js';
import tenancy from './pages/tenancy/routes.js';
import policies from './pages/policies/routes.js';
import sandboxes from './pages/sandboxes/routes.js';

/**
 * A route: `path` with `:name` segments (matched against the address after /ui), `title`, `load()` returning the
 * view module (whose `render(main, ctx)` draws it), and optionally `nav: {label, scope: 'org'|'project', order}`
 * to list it in the navigation of an organization's or a project's pages.
 */
const routes = [...home, ...tenancy, ...policies, ...sandboxes];
const compiled = routes.map(r => ({
  ...r,
  names: [...r.path.matchAll(/:([A-Za-z]+)/g)].map(m => m[1]),
  regex: new RegExp('^' + r.path.replace(/:[A-Za-z]+/g, '([^/]+)') + '/?$'),
}));

const main = document.getElementById('main');
const nav = document.getElementById('nav');
const banners = document.getElementById('banners');
let generation = 0;

function match(pathname) {
  const rest = pathname.replace(/^\/ui/, '') || '/';
  for (const r of compiled) {
    const m = rest.match(r.regex);
    if (m) {
      const params = Object.fromEntries(r.names.map((n, i) => [n, decodeURIComponent(m[i + 1])]));
      return { route: r, params };
    }
  }
  return null;
}

/** Goes to a UI address without reloading the page; `replaceState` for redirects. */
export function navigate(to, { replaceState = false } = {}) {
  if (replaceState) history.replaceState({}, '', to); else history.pushState({}, '', to);
  render();
}

async function render() {
  const mine = ++generation;
  const url = new URL(window.location.href);
  const found = match(url.pathname);
  if (!found) {
    document.title = 'Not found · Stockade';
    replace(main, h('h1', {}, 'Not found'), h('p', {}, 'No page of the admin UI has this address. '),
      h('a', { href: '/ui/' }, 'Go to your organizations'));
    return;
  }
  const ctx = { params: found.params, query: url.searchParams, navigate, refresh: render, isCurrent: () => mine === generation };
  document.title = `${found.route.title} · Stockade`;
  // one look-up of the organization or project in view, shared by the navigation and the banners
  const context = contextOf(found.params);
  drawNav(context);
  drawBanners(context, mine);
  try {
    const view = await found.route.load();
    if (mine !== generation) return;
    main.replaceChildren();
    await view.render(main, ctx);
  } catch (e) {
    if (mine !== generation) return;
    replace(main, h('h1', {}, found.route.title), problemView(e));
  }
  if (mine === generation) main.focus({ preventScroll: true });
}

/** Organization or project context of the address, for navigation and banners. */
async function contextOf(params) {
  if (params.orgId) return { orgId: params.orgId, projectId: null };
  if (params.projectId) {
    const project = await api('GET', `/projects/${params.projectId}`).catch(() => null);
    return { orgId: project?.orgId ?? null, projectId: params.projectId };
  }
  return { orgId: null, projectId: null };
}

async function drawNav(context) {
  const ctx = await context;
  const item = r => {
    const href = '/ui' + r.path.replace(':orgId', ctx.orgId).replace(':projectId', ctx.projectId);
    const current = window.location.pathname === href;
    return h('li', {}, h('a', { href, 'aria-current': current ? 'page' : null }, r.nav.label));
  };
  const listed = scope => compiled.filter(r => r.nav && r.nav.scope === scope)
    .sort((a, b) => (a.nav.order ?? 50) - (b.nav.order ?? 50));
  replace(nav,
    h('ul', {}, h('li', {}, h('a', { href: '/ui/' }, 'Organizations'))),
    ctx.orgId ? [h('h2', {}, 'Organization'), h('ul', {}, listed('org').map(item))] : null,
    ctx.projectId ? [h('h2', {}, 'Project'), h('ul', {}, listed('project').map(item))] : null);
}

/** The halt state of the organization in view (on every page of it) and a hub heartbeat warning. */
async function drawBanners(context, mine) {
  const ctx = await context;
  const out = [];
  const install = await api('GET', '/installation').catch(() => null);
  if (install && install.enrolled && install.connection === 'unavailable') {
    out.push(h('p', { class: 'banner warn', role: 'status', id: 'heartbeat-warning' },
      `The enrollment hub is not reachable (heartbeat: ${install.connection}). Sandboxes keep running; see the platform log for the cause.`));
  }
  if (install && !install.enrolled) {
    // before enrollment every gated call answers 503; the way forward is the server's setup screen
    out.push(h('p', { class: 'banner warn', role: 'status', id: 'setup-notice' },
      install.revoked ? 'The enrollment hub revoked this installation; agent work has stopped. '
        : 'This installation is not enrolled with the hub yet, so the platform refuses work until it is. ',
      h('a', { href: '/setup' }, 'Complete the setup')));
  }
  if (ctx.orgId) {
    const halt = await api('GET', `/orgs/${ctx.orgId}/halt`).catch(() => null);
    if (halt && halt.halted) {
      out.push(h('p', { class: 'banner halted', role: 'alert', id: 'halt-banner' },
        'This organization is halted: every sandbox is denied all egress, tool and model calls. ',
        h('a', { href: `/ui/orgs/${ctx.orgId}/halt` }, 'Halt settings')));
    }
  }
  if (mine === generation) replace(banners, out);
}

document.addEventListener('click', e => {
  const a = e.target.closest('a[href^="/ui/"], a[href="/ui"]');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || a.target) return;
  e.preventDefault();
  navigate(a.getAttribute('href'));
});
window.addEventListener('popstate', render);
/** Views that change the banners' state (a halt) ask for a redraw. */
window.addEventListener('stockade:changed', () => render());
render();
