// The sandboxes area's views and their addresses (see app.js for the shape of a route): a project's sandboxes, one
// sandbox (under its project, so the project's navigation stays), and the organization's usage costs and limits.
export default [
  { path: '/projects/:projectId/sandboxes', title: 'Sandboxes', nav: { label: 'Sandboxes', scope: 'project', order: 20 },
    load: () => import('./sandboxes.js') },
  { path: '/projects/:projectId/sandboxes/:sandboxId', title: 'Sandbox', load: () => import('./sandbox.js') },
  { path: '/orgs/:orgId/spend', title: 'Usage and spending limits', nav: { label: 'Spend', scope: 'org', order: 70 },
    load: () => import('./spend.js') },
];
