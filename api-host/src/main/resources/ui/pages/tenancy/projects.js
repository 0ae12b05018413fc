import { h, append, table, field, when } from '../../dom.js';
import { api, problemView } from '../../api.js';

/** The projects of an organization the person can see, and creating one (the API decides who may). */
export async function render(main, ctx) {
  const orgId = ctx.params.orgId;
  const projects = (await api('GET', `/orgs/${orgId}/projects`)).items;
  const status = h('div', { 'aria-live': 'polite' });
  const name = h('input', { name: 'name', required: true, maxlength: 200, autocomplete: 'off' });
  const description = h('input', { name: 'description', maxlength: 2000, autocomplete: 'off' });
  const form = h('form', { class: 'inline', id: 'create-project' },
    field('Name', name), field('Description (optional)', description),
    h('button', { type: 'submit', class: 'primary' }, 'Create project'), status);
  form.addEventListener('submit', async e => {
    e.preventDefault();
    try {
      const body = { name: name.value };
      if (description.value.trim()) body.description = description.value;
      const project = await api('POST', `/orgs/${orgId}/projects`, body);
      ctx.navigate(`/ui/projects/${project.id}`);
    } catch (problem) {
      status.replaceChildren(problemView(problem));
    }
  });
  append(main,
    h('h1', {}, 'Projects'),
    table('Projects of this organization', [
      ['Name', p => h('a', { href: `/ui/projects/${p.id}` }, p.name)],
      ['Description', p => p.description || '—'],
      ['Created', p => when(p.createdAt)],
    ], projects, 'No project yet.'),
    h('h2', {}, 'New project'), form);
}
