// The UI's only way to the platform: the REST API, with the person's session cookie and the page's CSRF token.
// Whatever the API refuses, the UI cannot do; its refusals (RFC 9457 problems) are shown as they come.
import { h } from './dom.js';

const csrf = document.querySelector('meta[name="stockade-csrf"]')?.content ?? '';

/** A refusal or failure of the API, carrying its RFC 9457 problem. */
export class Problem extends Error {
  constructor(status, body) {
    super(body?.detail || body?.title || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

/**
 * Calls the API. `body`: an object (sent as JSON) or a string (sent as `contentType`, YAML by default).
 * Returns the parsed answer (JSON, or text for other types), null for 204; throws {@link Problem}.
 */
export async function api(method, path, body, { contentType = 'application/yaml', accept } = {}) {
  const headers = { 'X-Stockade-CSRF': csrf, Accept: accept || 'application/json' };
  let payload;
  if (body !== undefined && body !== null) {
    if (typeof body === 'string') {
      headers['Content-Type'] = contentType;
      payload = body;
    } else {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
  }
  let answer;
  try {
    answer = await fetch('/v1' + path, { method, headers, body: payload, credentials: 'same-origin' });
  } catch (e) {
    throw new Problem(0, { title: 'The platform did not answer', detail: String(e.message || e) });
  }
  if (answer.status === 401) {
    // the session ended (sign-out elsewhere, expiry): start again rather than show a page of errors
    window.location.assign('/');
  }
  const type = answer.headers.get('Content-Type') || '';
  if (answer.status === 204) return null;
  const parsed = type.includes('json') ? await answer.json().catch(() => null) : await answer.text();
  if (!answer.ok) {
    throw new Problem(answer.status, typeof parsed === 'object' ? parsed : { detail: parsed });
  }
  return parsed;
}

/** All pages of a cursor-paged list (`{items, nextCursor}`), up to `limit` items. */
export async function all(path, limit = 1000) {
  const items = [];
  let cursor = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const page = await api('GET', path + (cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ''));
    if (Array.isArray(page)) return page;
    items.push(...(page.items || page.data || []));
    cursor = page.nextCursor || null;
  } while (cursor && items.length < limit);
  return items;
}

/** The WebSocket address of an API path, carrying the CSRF token (a page cannot set a handshake's headers). */
export function socketUrl(path) {
  const url = new URL('/v1' + path, window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('csrf', csrf);
  return url.toString();
}

/** A problem as the page shows it: title, detail, and each field error with where it points. */
export function problemView(problem) {
  const body = problem instanceof Problem ? problem.body : { title: 'Error', detail: String(problem?.message || problem) };
  const errors = Array.isArray(body.errors) ? body.errors : [];
  return h('div', { class: 'problem', role: 'alert' },
    h('strong', {}, body.title || 'Refused'),
    body.detail ? h('p', {}, body.detail) : null,
    errors.length ? h('ul', {}, errors.map(e => h('li', {},
      [e.pointer || e.field || e.path, e.line ? `line ${e.line}${e.column ? ', column ' + e.column : ''}` : null]
        .filter(Boolean).join(' · ') + (e.pointer || e.field || e.path || e.line ? ': ' : '') + (e.detail || e.message || '')))) : null);
}
