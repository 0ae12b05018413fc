import { h, table, field, when, append } from '../../dom.js';
import { api, problemView } from '../../api.js';

/** The organizations the person belongs to (or all, for the installation owner), and creating one. */
export async function render(main, ctx) {
  const orgs = (await api('GET', '/orgs')).items;
  const status = h('div', { 'aria-live': 'polite' });
  const name = h('input', { name: 'name', required: true, maxlength: 200, autocomplete: 'off' });
  const form = h('form', { class: 'inline', id: 'create-org' },
    field('Name', name), h('button', { type: 'submit' }, 'Create organization'), status);
  form.addEventListener('submit', async e => {
    e.preventDefault();
    try {
      const org = await api('POST', '/orgs', { name: name.value });
      ctx.navigate(`/ui/orgs/${org.id}`);
    } catch (problem) {
      status.replaceChildren(problemView(problem));
    }
  });
  append(main,
    h('h1', {}, 'Organizations'),
    table('Your organizations', [
      ['Name', o => h('a', { href: `/ui/orgs/${o.id}` }, o.name)],
      ['State', o => (o.halted ? h('span', { class: 'tag halted' }, 'halted') : 'running')],
      ['Created', o => when(o.createdAt)],
    ], orgs, 'You belong to no organization yet. Create one, or ask an administrator to invite you.'),
    h('h2', {}, 'New organization'), form);
}
