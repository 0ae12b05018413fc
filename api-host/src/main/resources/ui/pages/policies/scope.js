// Where a policies-area view is: an organization or a project, as the address names it.

/** `{ base, ui, level, orgId }`: the API path prefix, the UI prefix and `org` or `project`. */
export function scopeOf(params) {
  if (params.projectId) {
    return { base: `/projects/${params.projectId}`, ui: `/ui/projects/${params.projectId}`, level: 'project',
      projectId: params.projectId };
  }
  return { base: `/orgs/${params.orgId}`, ui: `/ui/orgs/${params.orgId}`, level: 'org', orgId: params.orgId };
}

/** A describe row string (`stockade policy describe`) split into its five columns; see DescribeRows.row. */
export function columnsOf(row) {
  const parts = row.split('  ');
  const at = parts.findIndex(p => p.startsWith('callers='));
  const rulesAt = parts.findIndex((p, i) => i > at && p.startsWith('rules='));
  if (parts.length < 5 || at !== 3 || rulesAt < 0) return null;
  return { pattern: parts[0], verdict: parts[1], schemeTransport: parts[2],
    callers: parts.slice(3, rulesAt).join('  '), rules: parts.slice(rulesAt).join('  ') };
}

/** Adds this area's stylesheet once (a same-origin file, so the strict CSP allows it). */
export function styled() {
  if (document.getElementById('policies-css')) return;
  const link = document.createElement('link');
  link.id = 'policies-css';
  link.rel = 'stylesheet';
  link.href = '/ui/assets/pages/policies/policies.css';
  document.head.append(link);
}
