import { h, append, replace, field, when } from '../../dom.js';
import { api, problemView } from '../../api.js';

/**
 * The filters the API offers on the audit trail, kept in the address so a filtered view can be linked; `limit`, the
 * page size, is read from the address too (the form does not offer it).
 */
const FILTERS = ['kind', 'outcome', 'actorId', 'from', 'to', 'excludeReads', 'limit'];
/** How often live updates ask for newer entries: the API has no event stream for the audit trail. */
const POLL_MS = 4000;

/**
 * The organization's audit trail, newest first: the API's filters, the next page by cursor, live updates by polling
 * for entries newer than the newest shown, and each entry's details readable.
 */
export async function render(main, ctx) {
  const orgId = ctx.params.orgId;
  const filters = Object.fromEntries(FILTERS.map(f => [f, ctx.query.get(f)]).filter(([, v]) => v));
  const query = extra => '?' + new URLSearchParams({ ...filters, ...extra }).toString();
  const [first, recorded] = await Promise.all([
    api('GET', `/orgs/${orgId}/audit-trail${query({})}`),
    api('GET', `/orgs/${orgId}/audit-trail/stats`)]);
  const seen = new Set();
  const body = h('tbody', { id: 'audit-rows' });
  const status = h('p', { id: 'audit-status', 'aria-live': 'polite' });
  const more = h('div', { id: 'audit-more' });
  let newest = null;

  function add(items, atTop) {
    const rows = items.filter(e => !seen.has(e.id)).map(e => {
      seen.add(e.id);
      return row(e, orgId);
    });
    if (atTop) body.prepend(...rows); else body.append(...rows);
    for (const e of items) if (!newest || e.at > newest) newest = e.at;
    return rows.length;
  }

  function offerNext(page) {
    if (!page.nextCursor) {
      replace(more, h('p', { class: 'empty' }, seen.size ? 'No older entries.' : 'No entry matches.'));
      return;
    }
    const next = h('button', { type: 'button', id: 'audit-next', onclick: async () => {
      try {
        const older = await api('GET', `/orgs/${orgId}/audit-trail${query({ cursor: page.nextCursor,
          ...(page.nextCursorId !== null && page.nextCursorId !== undefined ? { cursorId: page.nextCursorId } : {}) })}`);
        replace(status, `${add(older.items, false)} older entries loaded.`);
        offerNext(older);
      } catch (problem) {
        replace(more, problemView(problem));
      }
    } }, 'Next page (older entries)');
    replace(more, next);
  }

  const live = h('input', { type: 'checkbox', id: 'audit-live', name: 'live' });
  let polling = false; // one loop at most, however often the box is toggled
  live.addEventListener('change', () => {
    if (live.checked && !polling) {
      polling = true;
      poll();
    }
  });
  async function poll() {
    if (!live.checked || !ctx.isCurrent()) {
      polling = false;
      return;
    }
    try {
      // `from` is inclusive: the newest entry comes back and is skipped as seen
      const page = await api('GET', `/orgs/${orgId}/audit-trail${query(newest ? { from: newest, limit: 200 } : { limit: 200 })}`);
      const added = add(page.items.slice().reverse(), true);
      if (added) replace(status, `${added} new entr${added === 1 ? 'y' : 'ies'}.`);
    } catch (problem) {
      replace(status, problemView(problem));
    }
    setTimeout(poll, POLL_MS);
  }

  add(first.items, false);
  append(main, h('h1', {}, 'Audit trail'),
    filterForm(ctx, orgId, filters, recorded),
    field('Live updates (asks for new entries every few seconds)', live),
    status,
    h('table', { id: 'audit-table' }, h('caption', {}, 'Audit entries, newest first'),
      h('thead', {}, h('tr', {}, ['Time', 'Kind', 'Action', 'Outcome', 'Actor', 'Target', 'Details']
        .map(c => h('th', { scope: 'col' }, c)))), body),
    more);
  offerNext(first);
}

function row(e, orgId) {
  const actor = `${e.actor.type} ${e.actor.id}`;
  return h('tr', { 'data-id': e.id },
    h('td', {}, h('time', { datetime: e.at }, when(e.at))),
    h('td', {}, e.kind), h('td', {}, e.action + (e.read ? ' (read)' : '')), h('td', {}, e.outcome),
    h('td', {}, h('a', { href: `/ui/orgs/${orgId}/audit?actorId=${encodeURIComponent(e.actor.id)}`,
      title: 'Only this actor' }, actor)),
    h('td', {}, e.target || '—'),
    h('td', {}, h('details', {}, h('summary', {}, `Entry ${e.id}`),
      h('pre', {}, JSON.stringify({ projectId: e.projectId, target: e.target, details: e.details }, null, 2)))));
}

/** The filter form; submitting it moves to the address with the filters, which redraws the view. */
function filterForm(ctx, orgId, filters, recorded) {
  const choices = (name, counts, chosen) => h('select', { name },
    h('option', { value: '' }, 'any'),
    [...new Set([...Object.keys(counts || {}), ...(chosen ? [chosen] : [])])].sort()
      .map(k => h('option', { value: k, selected: k === chosen }, k)));
  const kind = choices('kind', recorded.byKind, filters.kind);
  const outcome = choices('outcome', recorded.byOutcome, filters.outcome);
  const actor = h('input', { name: 'actorId', value: filters.actorId || '', autocomplete: 'off' });
  const from = h('input', { name: 'from', type: 'datetime-local', step: 1, value: local(filters.from) });
  const to = h('input', { name: 'to', type: 'datetime-local', step: 1, value: local(filters.to) });
  const reads = h('input', { name: 'excludeReads', type: 'checkbox', checked: filters.excludeReads === 'true' });
  const form = h('form', { class: 'inline', id: 'audit-filters', 'aria-label': 'Filters' },
    field('Kind', kind), field('Outcome', outcome), field('Actor id', actor),
    field('From', from), field('Until', to), field('Leave out reads', reads),
    h('button', { type: 'submit' }, 'Apply filters'),
    h('a', { href: `/ui/orgs/${orgId}/audit` }, 'Clear filters'));
  form.addEventListener('submit', e => {
    e.preventDefault();
    const q = new URLSearchParams();
    if (kind.value) q.set('kind', kind.value);
    if (outcome.value) q.set('outcome', outcome.value);
    if (actor.value.trim()) q.set('actorId', actor.value.trim());
    if (from.value) q.set('from', new Date(from.value).toISOString());
    if (to.value) q.set('to', new Date(to.value).toISOString());
    if (reads.checked) q.set('excludeReads', 'true');
    ctx.navigate(`/ui/orgs/${orgId}/audit${q.toString() ? '?' + q : ''}`);
  });
  return form;
}

/** An ISO instant as a datetime-local value in the reader's zone; empty for none. */
function local(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = n => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
