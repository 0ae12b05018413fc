// The landing view: the organizations the person can see.
export default [
  { path: '/', title: 'Organizations', load: () => import('./orgs.js') },
];
