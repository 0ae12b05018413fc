// The area's own stylesheet and the vendor ones, linked once into <head> (files of the origin: the strict CSP
// allows them, where an inline style would be refused).

/** Links a stylesheet once; later calls with the same address do nothing. */
export function stylesheet(href) {
  if (document.querySelector(`link[rel="stylesheet"][href="${href}"]`)) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  document.head.append(link);
}

/** The sandboxes area's stylesheet (states, terminal, charts). */
export function areaStyles() {
  stylesheet('/ui/assets/pages/sandboxes/sandboxes.css');
}
