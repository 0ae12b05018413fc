import { h, append, replace, table, field, when } from '../../dom.js';
import { api } from '../../api.js';
import { attempt, roleSelect, roleField, statusRegion } from './parts.js';

/**
 * The people of an organization (change a role, remove) and its invitations (create, revoke). An invited person
 * accepts by signing in with the invited address; the API refuses whatever the person here may not do.
 */
export async function render(main, ctx) {
  const orgId = ctx.params.orgId;
  const status = statusRegion('members-status');
  const people = h('div', { id: 'org-members' });
  const invited = h('div', { id: 'invitations' });

  async function drawPeople() {
    const members = (await api('GET', `/orgs/${orgId}/members`)).items;
    replace(people, table('People in this organization', [
      ['Name', m => m.name || '—'],
      ['Email', m => m.email || '—'],
      ['Role', m => roleSelect(`Role of ${m.email || m.userId}`, m.role, role => attempt(status,
        () => api('PUT', `/orgs/${orgId}/members/${m.userId}`, { role }), `${m.email || m.userId} is now ${role.toLowerCase()}.`, drawPeople))],
      ['', m => h('button', { type: 'button', class: 'danger', onclick: () => attempt(status,
        () => api('DELETE', `/orgs/${orgId}/members/${m.userId}`), `${m.email || m.userId} was removed.`, drawPeople) }, `Remove ${m.email || m.name || 'member'}`)],
    ], members, 'No member.'));
  }

  async function drawInvitations() {
    const items = await api('GET', `/orgs/${orgId}/invitations`).then(i => i.items).catch(() => null);
    if (items === null) {
      replace(invited, h('p', { class: 'empty' }, 'Only organization administrators see invitations.'));
      return;
    }
    replace(invited, table('Invitations', [
      ['Email', i => i.email],
      ['Role', i => i.role.toLowerCase()],
      ['Invited', i => when(i.createdAt)],
      ['Accepted', i => (i.acceptedAt ? when(i.acceptedAt) : 'not yet')],
      ['', i => (i.acceptedAt ? null : h('button', { type: 'button', onclick: () => attempt(status,
        () => api('DELETE', `/orgs/${orgId}/invitations/${i.id}`), `The invitation of ${i.email} was revoked.`, drawInvitations) }, `Revoke invitation of ${i.email}`))],
    ], items, 'No invitation.'));
  }

  const email = h('input', { name: 'email', type: 'email', required: true, maxlength: 320, autocomplete: 'off' });
  const role = roleField();
  const invite = h('form', { class: 'inline', id: 'invite' },
    field('Email', email), field('Role', role), h('button', { type: 'submit', class: 'primary' }, 'Invite'));
  invite.addEventListener('submit', async e => {
    e.preventDefault();
    const ok = await attempt(status, () => api('POST', `/orgs/${orgId}/invitations`, { email: email.value, role: role.value }),
      `${email.value} is invited; they join by signing in with that address.`);
    if (ok) {
      email.value = '';
      await drawInvitations();
    }
  });

  append(main, h('h1', {}, 'Members'), status, people, h('h2', {}, 'Invitations'), invited,
    h('h3', {}, 'Invite a person'), invite);
  await Promise.all([drawPeople(), drawInvitations()]);
}
