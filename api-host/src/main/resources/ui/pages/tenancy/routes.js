// The tenancy area's views and their addresses (see app.js for the shape of a route).
export default [
];
