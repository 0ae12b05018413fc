// The chat page: new and resumed threads, a turn streamed as it is produced, and the thread's live stream, which
// brings every stored message (webhook and heartbeat deliveries included) into the open thread as it arrives.
import { call, status } from './app.js';

const section = document.getElementById('thread');
const list = document.getElementById('messages');

document.getElementById('new-thread').addEventListener('click', async () => {
  try {
    const t = await call('POST', 'agents/threads', { title: 'New chat' });
    location.assign(new URL(`chat/${encodeURIComponent(t.id)}`, document.baseURI));
  } catch (e) {
    status(e.message, true);
  }
});

/** A message bubble; its text is set as text, so markup in a reply shows as written. */
function bubble(kind, text, id) {
  const li = document.createElement('li');
  li.className = `msg ${kind}`;
  li.textContent = text;
  if (id !== undefined) li.dataset.id = id;
  list.append(li);
  li.scrollIntoView({ block: 'end' });
  return li;
}

let turning = false; // a turn of this page is streaming
let pending = null; // the text step being streamed, before it is stored
const early = new Set(); // assistant texts the live stream delivered before the turn's stream said `step`

function stored(entry) {
  if (list.querySelector(`[data-id="${entry.id}"]`)) return;
  const kind = entry.kind.toLowerCase().replace('_', '-');
  if (kind === 'reply' || kind === 'step') {
    const echo = [...list.querySelectorAll('.echo')].find((e) => e.dataset.text === entry.text);
    if (echo) echo.remove();
    else if (turning) early.add(entry.text);
  }
  const li = bubble(kind, entry.text, entry.id);
  if (entry.error) li.classList.add('error');
}

function live(threadId, after) {
  const source = new EventSource(new URL(`agents/threads/${encodeURIComponent(threadId)}/live/${after}`,
    document.baseURI));
  source.addEventListener('entry', (ev) => stored(JSON.parse(ev.data)));
  source.addEventListener('open', () => section.classList.add('live'));
}

function delta(text) {
  if (!pending) pending = bubble('reply streaming', '');
  pending.textContent += text;
}

function step(text) {
  if (early.delete(text)) {
    if (pending) pending.remove();
  } else {
    if (!pending) pending = bubble('reply streaming', '');
    pending.textContent = text;
    pending.classList.replace('streaming', 'echo');
    pending.dataset.text = text;
  }
  pending = null;
}

function context(percent) {
  const el = document.getElementById('context');
  if (!el) return;
  if (percent === null || percent === undefined) el.hidden = true;
  else el.textContent = `Context: ${percent}%`;
}

const handlers = {
  delta: (d) => delta(d.text),
  step: (d) => step(d.text),
  tool: (d) => status(`Tool ${d.name}${d.error ? ' failed' : ' ran'}.`, d.error),
  done: (d) => { context(d.contextPercent); status(''); },
  error: (d) => status(d.detail, true),
};

/** Reads a text/event-stream answer of fetch (EventSource cannot POST) and hands each event to `handlers`. */
async function events(res) {
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let name = 'message';
      const data = [];
      for (const line of frame.split('\n')) {
        if (line.startsWith('event: ')) name = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (handlers[name] && data.length) handlers[name](JSON.parse(data.join('\n')));
    }
  }
}

async function send(threadId, text) {
  const res = await fetch(new URL(`agents/threads/${encodeURIComponent(threadId)}/messages`, document.baseURI), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ text }),
  });
  const type = res.headers.get('content-type') || '';
  if (type.startsWith('text/event-stream')) return events(res);
  const data = await res.json(); // a slash command's answer, or a problem
  if (!res.ok) throw new Error(data.detail || `the runtime answered ${res.status}`);
  status(text.startsWith('/') ? `${text.split(/\s+/)[0]} done.` : '');
  return undefined;
}

if (section) {
  const threadId = section.dataset.thread;
  live(threadId, section.dataset.last);
  const form = document.getElementById('composer');
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const text = form.elements.text.value.trim();
    if (!text || turning) return; // one turn at a time: its stream and the live view are matched step by step
    form.elements.text.value = '';
    form.classList.add('busy');
    turning = true;
    try {
      await send(threadId, text);
    } catch (e) {
      status(e.message, true);
    } finally {
      if (pending) { pending.remove(); pending = null; }
      turning = false;
      early.clear();
      form.classList.remove('busy');
    }
  });
  const verbose = document.getElementById('verbose');
  verbose.addEventListener('change', async () => {
    try {
      await call('PATCH', 'agents/verbose', { verbose: verbose.checked });
      location.reload(); // what the thread shows depends on verbose
    } catch (e) {
      verbose.checked = !verbose.checked;
      status(e.message, true);
    }
  });
}
