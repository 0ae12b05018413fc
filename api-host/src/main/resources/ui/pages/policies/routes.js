// The policies area's views and their addresses (see app.js for the shape of a route): policies and their editor,
// policy bindings with the effective policy and drift, and a project's connectors.
const policies = () => import('./policies.js');
const editor = () => import('./editor.js');
const bindings = () => import('./bindings.js');
export default [
  { path: '/orgs/:orgId/policies', title: 'Policies', nav: { label: 'Policies', scope: 'org', order: 20 }, load: policies },
  { path: '/orgs/:orgId/policies/new', title: 'New policy', load: editor },
  { path: '/orgs/:orgId/policies/:policyId', title: 'Policy', load: editor },
  { path: '/orgs/:orgId/policy-bindings', title: 'Policy bindings',
    nav: { label: 'Policy bindings', scope: 'org', order: 21 }, load: bindings },
  { path: '/projects/:projectId/policies', title: 'Policies', nav: { label: 'Policies', scope: 'project', order: 20 },
    load: policies },
  { path: '/projects/:projectId/policies/new', title: 'New policy', load: editor },
  { path: '/projects/:projectId/policies/:policyId', title: 'Policy', load: editor },
  { path: '/projects/:projectId/policy-bindings', title: 'Policy bindings',
    nav: { label: 'Policy bindings', scope: 'project', order: 21 }, load: bindings },
  { path: '/projects/:projectId/connectors', title: 'Connectors',
    nav: { label: 'Connectors', scope: 'project', order: 30 }, load: () => import('./connectors.js') },
  { path: '/projects/:projectId/connectors/:serverId', title: 'Connector', load: () => import('./connector.js') },
];
