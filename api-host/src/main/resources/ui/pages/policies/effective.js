import { h, table } from '../../dom.js';
import { columnsOf } from './scope.js';

/** An effective policy (the core's resolution): domain rows, connector grants, inference, environment and drift. */
export function effectiveView(view) {
  const rows = (view.domains || []).map(r => columnsOf(r) || { pattern: r, verdict: '', schemeTransport: '', callers: '', rules: '' });
  return h('div', { class: 'effective' },
    h('h3', {}, 'Domains'),
    table('Effective domain entries, first match wins', [
      ['Pattern', r => r.pattern], ['Verdict', r => r.verdict], ['Scheme/transport', r => r.schemeTransport],
      ['Callers', r => r.callers], ['Rules', r => r.rules],
    ], rows, 'No domain is allowed: every request is denied.'),
    h('h3', {}, 'Connector grants'),
    table('Connector tools granted', [
      ['Connector', g => g.connectorId], ['Allowed tools', g => (g.allowedTools || []).join(', ') || 'none'],
    ], view.connectorGrants, 'No connector tools are granted.'),
    h('h3', {}, 'Managed inference'),
    h('p', {}, view.managedInference && view.managedInference.enabled
      ? `Enabled: ${[view.managedInference.provider, ...(view.managedInference.providers || [])].filter(Boolean)
        .filter((v, i, a) => a.indexOf(v) === i).join(', ') || 'default provider'}` : 'Not enabled.'),
    h('h3', {}, 'Environment'),
    table('Sandbox environment variables (names only)', [['Name', ([k]) => k]],
      Object.entries(view.sandboxEnv || {}), 'No environment variables.'),
    h('h3', {}, 'Drift'),
    driftView(view.drift));
}

/** What was asked beyond the org ceiling: domains narrowed (with why) and domains blocked (with which ceiling entry). */
export function driftView(drift) {
  const narrowed = drift?.narrowedDomains || [];
  const blocked = drift?.blockedDomainDetails || [];
  if (!narrowed.length && !blocked.length) return h('p', { class: 'empty' }, 'No drift: the ceiling let everything asked for through.');
  return h('div', { class: 'drift' },
    table('Narrowed domains: allowed only in part by the ceiling', [
      ['Pattern', d => d.pattern], ['Policy', d => `${d.policy} (entry ${d.entryIndex + 1})`],
      ['Why', d => (d.reasons || []).join(', ')], ['Detail', d => d.detail],
    ], narrowed, 'No domain was narrowed.'),
    table('Blocked domains: not let through at all', [
      ['Pattern', d => d.pattern], ['Policy', d => `${d.policy} (entry ${d.entryIndex + 1})`],
      ['Why', d => d.reason],
      ['Ceiling entry', d => (d.ceilingPolicy ? `${d.ceilingPolicy} (entry ${d.ceilingEntryIndex + 1})` : 'none allows it')],
      ['Detail', d => d.detail],
    ], blocked, 'No domain was blocked.'));
}
