// Usage costs and spending limits of an organization: spend over time per project, the most costly sandboxes,
// each limit's burn-down, and setting limits. Every figure comes from the API (usage-costs, its timeseries, the
// limits' status); each chart has a table with the same numbers beside it.
import { h, table, append } from '../../dom.js';
import { api, all } from '../../api.js';
import { areaStyles } from './style.js';
import { lineChart, barChart } from './chart.js';
import { limitsSection } from './spend-limits.js';
import { micros, dollars } from './money.js';

const RANGES = [7, 14, 30, 90];
const MAX_PROJECTS = 8;
const MAX_SANDBOXES = 10;

function day(iso) {
  return iso.slice(0, 10);
}

export async function render(main, ctx) {
  areaStyles();
  const { orgId } = ctx.params;
  const days = RANGES.includes(Number(ctx.query.get('days'))) ? Number(ctx.query.get('days')) : 14;
  const to = new Date();
  const from = new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth(), to.getUTCDate() - (days - 1)));
  const range = `from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`;
  const [org, projects] = await Promise.all([api('GET', `/orgs/${orgId}`), all(`/orgs/${orgId}/projects`)]);
  const names = new Map(projects.map(p => [p.id, p.name]));
  const sandboxNames = await sandboxesOf(projects);

  append(main, h('h1', {}, `Usage and spending limits of ${org.name}`), rangeForm(days, ctx, orgId),
    await overTime(orgId, range, names),
    await topSandboxes(orgId, range, sandboxNames, names),
    await limitsSection(orgId, projects, sandboxNames, ctx));
}

/** Every sandbox's name by id, for the charts and the limit form (a sandbox deleted since shows its id). */
async function sandboxesOf(projects) {
  const out = new Map();
  await Promise.all(projects.map(async p => {
    const list = await all(`/projects/${p.id}/sandboxes`).catch(() => []);
    list.forEach(s => out.set(s.id, { name: s.name, projectId: p.id }));
  }));
  return out;
}

function rangeForm(days, ctx, orgId) {
  const select = h('select', { id: 'spend-range', name: 'days' },
    RANGES.map(n => h('option', { value: n, selected: n === days }, `Last ${n} days`)));
  const form = h('form', { class: 'inline' }, h('div', { class: 'field' }, h('label', { for: 'spend-range' }, 'Period'), select),
    h('button', { type: 'submit' }, 'Show'));
  form.addEventListener('submit', e => {
    e.preventDefault();
    ctx.navigate(`/ui/orgs/${orgId}/spend?days=${select.value}`);
  });
  return form;
}

/** Daily spend of the most costly projects over the period: one line each, and the table of the same numbers. */
async function overTime(orgId, range, names) {
  const report = await api('GET', `/orgs/${orgId}/usage-costs?${range}&groupBy=project`);
  const top = report.groups.filter(g => micros(g.usage.costUsd) > 0).slice(0, MAX_PROJECTS);
  const section = h('section', { 'aria-labelledby': 'over-time-h' }, h('h2', { id: 'over-time-h' }, 'Spend over time per project'));
  if (top.length === 0) {
    return append(section, h('p', { class: 'empty' }, `No priced spend in this period (total ${report.total.costUsd} USD).`));
  }
  const series = await Promise.all(top.map(async g => {
    const s = await api('GET', `/orgs/${orgId}/usage-costs/timeseries?${range}&interval=day&projectId=${g.projectId}`);
    return { name: names.get(g.projectId) ?? g.projectId, buckets: s.buckets };
  }));
  const labels = series[0].buckets.map(b => day(b.start));
  const chart = lineChart({
    id: 'spend-by-project', format: dollars, labels,
    title: 'Daily spend per project',
    desc: `Daily spend in USD from ${labels[0]} to ${labels[labels.length - 1]} for ${series.map(s => s.name).join(', ')}; the table below has every value.`,
    series: series.map(s => ({ name: s.name, values: s.buckets.map(b => micros(b.usage.costUsd)), texts: s.buckets.map(b => b.usage.costUsd) })),
  });
  const rows = labels.map((label, i) => ({ label, values: series.map(s => s.buckets[i].usage.costUsd) }));
  return append(section, chart, legend(series.map(s => s.name)),
    table('Daily spend per project, USD', [['Day (UTC)', r => r.label],
      ...series.map((s, k) => [s.name, r => r.values[k]])], rows),
    h('p', {}, `Total for the organization in this period: ${report.total.costUsd} USD over ${report.total.calls} calls`
      + (report.total.unmeteredCalls ? `, ${report.total.unmeteredCalls} unmetered (flagged direct calls)` : '') + '.'));
}

function legend(names) {
  return h('ul', { class: 'legend', 'aria-hidden': 'true' }, names.map((n, k) => h('li', { class: `s${k % 8}` }, n)));
}

/** The sandboxes that cost the most in the period, as bars. */
async function topSandboxes(orgId, range, sandboxNames, projectNames) {
  const report = await api('GET', `/orgs/${orgId}/usage-costs?${range}&groupBy=sandbox`);
  const rows = report.groups.filter(g => g.sandboxId && micros(g.usage.costUsd) > 0).slice(0, MAX_SANDBOXES)
    .map(g => ({ ...g, name: sandboxNames.get(g.sandboxId)?.name ?? `${g.sandboxId} (deleted)`,
      project: projectNames.get(sandboxNames.get(g.sandboxId)?.projectId) ?? '—' }));
  const section = h('section', { 'aria-labelledby': 'top-sandboxes-h' }, h('h2', { id: 'top-sandboxes-h' }, 'Top sandboxes'));
  if (rows.length === 0) return append(section, h('p', { class: 'empty' }, 'No sandbox spent anything priced in this period.'));
  return append(section,
    barChart({ id: 'top-sandboxes', title: 'Most costly sandboxes', format: dollars,
      desc: `The ${rows.length} sandboxes with the highest spend in the period, highest first; the table below has every value.`,
      bars: rows.map(r => ({ label: r.name, value: micros(r.usage.costUsd), text: r.usage.costUsd })) }),
    table('Most costly sandboxes, USD', [['Sandbox', r => r.name], ['Project', r => r.project],
      ['Spend (USD)', r => r.usage.costUsd], ['Calls', r => String(r.usage.calls)]], rows));
}
