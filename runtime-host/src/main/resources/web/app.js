// Every page: the lock switch, forms and switches that call the runtime's JSON API, the webhook preview.
// URLs are relative to <base href>, so the pages work under any prefix the platform's ingress adds.

/** Sends `body` as JSON; resolves to the parsed answer, or throws an Error carrying the problem's detail. */
export async function call(method, path, body) {
  const res = await fetch(new URL(path, document.baseURI), {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const data = text ? JSON.parse(text) : null;
  if (!res.ok) {
    throw new Error(data && data.detail ? data.detail : `the runtime answered ${res.status}`);
  }
  return data;
}

/** Shows a line in the page's status area (as text, never markup). */
export function status(text, failed) {
  const el = document.getElementById('status');
  el.textContent = text;
  el.classList.toggle('failed', Boolean(failed));
}

function fields(form) {
  const body = {};
  for (const el of form.elements) {
    if (!el.name || el.hasAttribute('data-local')) continue;
    if (el.type === 'checkbox') body[el.name] = el.checked;
    else if (el.type === 'number') body[el.name] = el.value === '' ? 0 : Number(el.value);
    else body[el.name] = el.value;
  }
  return body;
}

function showResults(list, data) {
  list.replaceChildren();
  for (const r of data.results || []) {
    const li = document.createElement('li');
    li.textContent = r.content;
    list.append(li);
  }
  if (!list.children.length) status('No entries match.');
}

function bindForm(form) {
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const [method, path] = form.dataset.api.split(' ');
    try {
      const data = await call(method, path, fields(form));
      if (form.dataset.show) showResults(document.getElementById(form.dataset.show), data);
      else location.reload();
    } catch (e) {
      status(e.message, true);
    }
  });
}

function bindSwitch(input) {
  input.addEventListener('change', async () => {
    const [method, path] = input.dataset.api.split(' ');
    try {
      await call(method, path, { [input.dataset.field]: input.checked });
      status('Saved.');
    } catch (e) {
      input.checked = !input.checked;
      status(e.message, true);
    }
  });
}

function bindPreview(button) {
  const form = button.form;
  button.addEventListener('click', async () => {
    const out = document.getElementById('preview');
    try {
      const data = await call('POST', 'agents/webhook-preview', {
        name: form.elements.name.value,
        prompt: form.elements.prompt.value,
        deliverOnly: form.elements.deliverOnly.checked,
        payload: form.elements.samplePayload.value,
      });
      out.textContent = data.text;
      out.classList.remove('failed');
    } catch (e) {
      out.textContent = e.message;
      out.classList.add('failed');
    }
  });
}

const lock = document.getElementById('lock');
lock.dataset.api = 'PATCH agents/locked-in';
lock.dataset.field = 'lockedIn';
bindSwitch(lock);
document.querySelectorAll('form[data-api]').forEach(bindForm);
document.querySelectorAll('input[data-api]:not(#lock)').forEach(bindSwitch);
const preview = document.getElementById('preview-button');
if (preview) bindPreview(preview);
