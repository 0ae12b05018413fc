// The tenancy area's views and their addresses (see app.js for the shape of a route): an organization, its
// projects, people, tokens, halt and audit trail, and a project's own people and sandbox tokens.
export default [
  { path: '/orgs/:orgId', title: 'Organization', nav: { label: 'Overview', scope: 'org', order: 0 }, load: () => import('./org.js') },
  { path: '/orgs/:orgId/projects', title: 'Projects', nav: { label: 'Projects', scope: 'org', order: 10 }, load: () => import('./projects.js') },
  { path: '/orgs/:orgId/members', title: 'Members', nav: { label: 'Members', scope: 'org', order: 20 }, load: () => import('./members.js') },
  { path: '/orgs/:orgId/api-tokens', title: 'API tokens', nav: { label: 'API tokens', scope: 'org', order: 30 }, load: () => import('./api-tokens.js') },
  { path: '/orgs/:orgId/halt', title: 'Emergency halt', nav: { label: 'Emergency halt', scope: 'org', order: 80 }, load: () => import('./halt.js') },
  { path: '/orgs/:orgId/audit', title: 'Audit trail', nav: { label: 'Audit trail', scope: 'org', order: 90 }, load: () => import('./audit.js') },
  { path: '/projects/:projectId', title: 'Project', nav: { label: 'Overview', scope: 'project', order: 0 }, load: () => import('./project.js') },
  { path: '/projects/:projectId/members', title: 'Project members', nav: { label: 'Members', scope: 'project', order: 20 }, load: () => import('./project-members.js') },
  { path: '/projects/:projectId/sandbox-tokens', title: 'Sandbox tokens', nav: { label: 'Sandbox tokens', scope: 'project', order: 30 }, load: () => import('./sandbox-tokens.js') },
];
