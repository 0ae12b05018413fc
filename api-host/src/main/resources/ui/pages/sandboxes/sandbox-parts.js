// The read-mostly parts of the sandbox view: revisions (promote, rollback), exposed ports with their readiness,
// and the effective policy (the core's resolution now, beside what the active revision was provisioned with).
import { h, table, when, replace } from '../../dom.js';
import { api, problemView } from '../../api.js';

/** A section that shows the API's refusal in place of its content, so one failing read spoils nothing else. */
async function section(id, title, draw) {
  const body = h('div', {});
  try {
    replace(body, await draw());
  } catch (problem) {
    replace(body, problemView(problem));
  }
  return h('section', { id, 'aria-labelledby': id + '-h' }, h('h2', { id: id + '-h' }, title), body);
}

function configSummary(config) {
  if (!config) return '—';
  const ports = (config.ports || []).map(p => `${p.port}/${p.visibility}`).join(', ');
  return [`${config.cpu} CPU`, config.memory, config.image, ports ? `ports ${ports}` : null,
    config.policy ? `policy ${config.policy.name ?? ''}` : null].filter(Boolean).join(', ');
}

function json(value, label) {
  return h('details', {}, h('summary', {}, label), h('pre', {}, JSON.stringify(value, null, 2)));
}

/** Revisions newest first; promote any other one, or roll back to the one active before. */
export function revisionsSection(path, sandbox, act) {
  return section('revisions', 'Revisions', async () => {
    const revisions = (await api('GET', `${path}/revisions`)).items;
    const promote = r => h('button', { type: 'button', 'data-revision': r.revision,
      onclick: () => act(`Promote revision ${r.revision}`, () => api('POST', `${path}/revisions/${r.revision}/promote`)) },
    `Promote revision ${r.revision}`);
    return [
      table(`Revisions of sandbox ${sandbox.name}`, [
        ['Revision', r => String(r.revision)],
        ['Active', r => (r.active ? h('strong', {}, 'active') : '')],
        ['Configuration', r => [configSummary(r.config), json(r.config, 'Full configuration'),
          r.provisioned ? json(r.provisioned, 'Provisioned with') : null]],
        ['Created', r => `${when(r.createdAt)} by ${r.createdBy}`],
        ['Action', r => (r.active ? '' : promote(r))],
      ], revisions),
      h('button', { type: 'button', id: 'rollback', onclick: () => act('Roll back', () => api('POST', `${path}/rollback`)) },
        'Roll back to the previous active revision'),
    ];
  });
}

/** Exposed ports and whether something in the sandbox accepts connections on each now. */
export function portsSection(path) {
  return section('ports', 'Exposed ports', async () => {
    const box = h('div', {});
    const draw = async () => {
      const r = await api('GET', `${path}/port-readiness`);
      replace(box, table('Exposed ports and readiness', [
        ['Port', p => String(p.port)],
        ['Visibility', p => p.visibility],
        ['Ready', p => (p.ready ? 'ready: accepting connections' : 'not ready')],
      ], r.ports, `No exposed port (state: ${r.state}).`),
      h('button', { type: 'button', onclick: () => draw().catch(e => box.append(problemView(e))) }, 'Check readiness again'));
    };
    await draw();
    return box;
  });
}

/** What reaches the sandbox now, by the core's resolution, and what its active revision was provisioned with. */
export function policySection(path) {
  return section('effective-policy', 'Effective policy', async () => {
    const e = await api('GET', `${path}/effective-policy`);
    const now = e.current || {};
    const env = Object.entries(now.sandboxEnv || {}).map(([name, value]) => ({ name, value }));
    const drift = now.drift || {};
    return [
      h('p', {}, `Resolved now for revision ${e.revision}. Egress is denied unless a row below allows it.`),
      table('Domains the sandbox may reach (describe rows)', [['Row', row => h('code', {}, row)]],
        (now.domains || []).map(row => row), 'No domain: the sandbox can reach nothing.'),
      table('Environment plan', [['Variable', v => h('code', {}, v.name)], ['Value', v => h('code', {}, v.value)]],
        env, 'No environment variable from policies.'),
      table('Connector grants', [['Grant', g => JSON.stringify(g)]], now.connectorGrants || [], 'No connector granted.'),
      (drift.narrowedDomains || []).length || (drift.blockedDomainDetails || []).length
        ? json(drift, 'Drift: asked for more than the ceiling allows') : h('p', {}, 'No drift from the organization ceiling.'),
      now.managedInference ? json(now.managedInference, 'Managed inference') : null,
      e.provisioned ? json(e.provisioned, 'Provisioned with (active revision)') : h('p', {}, 'Not provisioned yet.'),
    ];
  });
}
