// Spending limits of an organization: each limit's status and burn-down over its current period, setting a limit
// (organization, project or sandbox) and removing one. Who may do what is the API's to say: a refusal is shown.
import { h, table, field, when, append } from '../../dom.js';
import { api, problemView } from '../../api.js';
import { lineChart } from './chart.js';
import { micros, usd, dollars } from './money.js';

function target(s, projects, sandboxes) {
  if (s.scope === 'org') return 'Organization';
  const project = projects.find(p => p.id === s.projectId)?.name ?? s.projectId;
  if (s.scope === 'project') return `Project ${project}`;
  return `Sandbox ${sandboxes.get(s.sandboxId)?.name ?? s.sandboxId} (project ${project})`;
}

/** The API route of a limit's target, below the organization's spending-limits. */
function routeOf(scope, projectId, sandboxId) {
  if (scope === 'org') return '/org';
  if (scope === 'project') return `/projects/${projectId}`;
  return `/projects/${projectId}/sandboxes/${sandboxId}`;
}

export async function limitsSection(orgId, projects, sandboxes, ctx) {
  const base = `/orgs/${orgId}/spending-limits`;
  const section = h('section', { 'aria-labelledby': 'limits-h' }, h('h2', { id: 'limits-h' }, 'Spending limits'));
  const status = h('div', { 'aria-live': 'polite', id: 'limits-status' });
  let answer;
  try {
    answer = await api('GET', `${base}/status`);
  } catch (problem) {
    return append(section, problemView(problem), limitForm(base, projects, sandboxes, status, ctx), status);
  }
  const remove = s => h('button', { type: 'button', 'data-delete': s.scope,
    onclick: async () => {
      try {
        await api('DELETE', base + routeOf(s.scope, s.projectId, s.sandboxId));
        ctx.refresh();
      } catch (problem) {
        status.replaceChildren(problemView(problem));
      }
    } }, `Remove limit of ${target(s, projects, sandboxes)}`);
  append(section,
    table(`Spending limits, as of ${when(answer.at)}`, [
      ['Applies to', s => target(s, projects, sandboxes)],
      ['Period', s => `${s.period} (${when(s.periodStart)} to ${when(s.periodEnd)})`],
      ['Limit (USD)', s => s.limitUsd],
      ['Spent (USD)', s => s.spentUsd],
      ['Held by calls in flight (USD)', s => s.heldUsd],
      ['Remaining (USD)', s => s.remainingUsd],
      ['State', s => (s.exceeded ? h('span', { class: 'tag exceeded' }, 'reached: model calls refused') : 'within limit')],
      ['Action', s => remove(s)],
    ], answer.items, 'No spending limit: spend is not capped.'),
    h('h3', {}, 'Set a limit'), limitForm(base, projects, sandboxes, status, ctx), status);
  for (const [i, s] of answer.items.entries()) {
    section.append(await burnDown(orgId, s, i, target(s, projects, sandboxes)));
  }
  return section;
}

/**
 * What is left of a limit through its current period: the remaining budget after each day (each hour for a daily
 * limit), from the usage timeseries of the limit's scope, with the limit as the dashed line.
 */
async function burnDown(orgId, s, i, name) {
  const now = new Date();
  const end = new Date(s.periodEnd) < now ? new Date(s.periodEnd) : now;
  const scope = s.scope === 'sandbox' ? `&sandboxId=${s.sandboxId}` : s.scope === 'project' ? `&projectId=${s.projectId}` : '';
  const interval = s.period === 'day' ? 'hour' : 'day';
  const series = await api('GET', `/orgs/${orgId}/usage-costs/timeseries?from=${encodeURIComponent(s.periodStart)}`
    + `&to=${encodeURIComponent(end.toISOString())}&interval=${interval}${scope}`);
  const limit = micros(s.limitUsd);
  let spent = 0;
  const rows = series.buckets.map(b => {
    spent += micros(b.usage.costUsd);
    return { label: interval === 'day' ? b.start.slice(0, 10) : b.start.slice(11, 16), spent: b.usage.costUsd,
      total: usd(spent), left: usd(limit - spent), leftMicros: Math.max(0, limit - spent) };
  });
  const heading = `Burn-down: ${name}`;
  const id = `burn-down-${i}`;
  return h('section', { 'aria-labelledby': id + '-h', class: 'burn-down' }, h('h3', { id: id + '-h' }, heading),
    lineChart({ id, format: dollars, labels: rows.map(r => r.label),
      title: `Remaining budget of the ${s.period} limit of ${name}`,
      desc: `Limit ${s.limitUsd} USD; remaining after each ${interval} of the period starting ${s.periodStart}; `
        + `now ${rows.length ? rows[rows.length - 1].left : s.limitUsd} USD left by this chart, ${s.remainingUsd} USD by the limit's status.`,
      guide: { value: limit, text: s.limitUsd },
      series: [{ name: 'remaining', values: rows.map(r => r.leftMicros), texts: rows.map(r => r.left) }] }),
    table(`Burn-down of the limit of ${name}, USD`, [[interval === 'day' ? 'Day (UTC)' : 'Hour (UTC)', r => r.label],
      ['Spent', r => r.spent], ['Spent so far', r => r.total], ['Remaining', r => r.left]], rows));
}

function limitForm(base, projects, sandboxes, status, ctx) {
  const scope = h('select', { name: 'scope' }, h('option', { value: 'org' }, 'The organization'),
    h('option', { value: 'project' }, 'A project'), h('option', { value: 'sandbox' }, 'A sandbox'));
  const project = h('select', { name: 'project' }, projects.map(p => h('option', { value: p.id }, p.name)));
  const sandbox = h('select', { name: 'sandbox' });
  const amount = h('input', { name: 'amountUsd', required: true, inputmode: 'decimal', autocomplete: 'off',
    placeholder: '250' });
  const period = h('select', { name: 'period' }, h('option', { value: 'month' }, 'Calendar month (UTC)'),
    h('option', { value: 'day' }, 'Calendar day (UTC)'));
  const projectField = field('Project', project);
  const sandboxField = field('Sandbox', sandbox);
  const sync = () => {
    projectField.hidden = scope.value === 'org';
    sandboxField.hidden = scope.value !== 'sandbox';
    sandbox.replaceChildren(...[...sandboxes].filter(([, s]) => s.projectId === project.value)
      .map(([id, s]) => h('option', { value: id }, s.name)));
  };
  scope.addEventListener('change', sync);
  project.addEventListener('change', sync);
  sync();
  const form = h('form', { id: 'limit-form' }, field('Applies to', scope), projectField, sandboxField,
    field('Amount (USD)', amount, 'Up to six decimals, e.g. 250 or 0.50; 0 stops every priced model call.'),
    field('Period', period), h('button', { type: 'submit', class: 'primary' }, 'Save limit'));
  form.addEventListener('submit', async e => {
    e.preventDefault();
    try {
      await api('PUT', base + routeOf(scope.value, project.value, sandbox.value),
        { amountUsd: amount.value.trim(), period: period.value });
      ctx.refresh();
    } catch (problem) {
      status.replaceChildren(problemView(problem));
    }
  });
  return form;
}
