// A terminal in the page: xterm.js (a WebJar) drawing the sandbox's exec WebSocket, the same socket `stockade
// sandbox exec` uses. Frames are binary, the first byte the channel (docs/platform.md, "Interactive exec").
import { h } from '../../dom.js';
import { socketUrl } from '../../api.js';
import { stylesheet } from './style.js';

const XTERM = '/ui/assets/vendor/xterm/4.9.0/';
const FIT = '/ui/assets/vendor/xterm-addon-fit/0.3.0/lib/xterm-addon-fit.js';
const STDIN = 0, STDOUT = 1, STDERR = 2, EXIT = 3, RESIZE = 4, STARTED = 5;
const encoder = new TextEncoder();

/**
 * xterm.js 4.9 ships as a UMD bundle that sets `window.Terminal` when no module system is around; importing it
 * as a module runs it that way. Its stylesheet is a file of the WebJar, so the strict CSP needs no exception.
 */
async function xterm() {
  stylesheet(XTERM + 'css/xterm.css');
  await import(XTERM + 'lib/xterm.js');
  await import(FIT);
  return { Terminal: window.Terminal, FitAddon: window.FitAddon.FitAddon };
}

function frame(channel, bytes) {
  const out = new Uint8Array(bytes.length + 1);
  out[0] = channel;
  out.set(bytes, 1);
  return out;
}

/** Why the platform closed the socket, in words: 4409 not running, 4000 + status for a refusal. */
function closeReason(event) {
  if (event.code === 4409) return `The sandbox is not running (${event.reason || 'not running'}). Start it first.`;
  if (event.code >= 4000 && event.code < 5000) return `The platform refused the terminal (HTTP ${event.code - 4000}${event.reason ? ': ' + event.reason : ''}).`;
  if (event.code === 1000) return 'The terminal session ended.';
  return `The connection closed (${event.code}${event.reason ? ': ' + event.reason : ''}).`;
}

/**
 * Opens a shell in the sandbox on a pseudo-terminal and shows it in `host`. Returns `close()`. `status(text)` gets
 * the session's state in words (started, exit status, why it closed) for a live region; `escape()` is called on
 * Shift+Escape, the way out of the terminal for keyboard users (the terminal itself keeps Tab).
 */
export async function openTerminal(host, { projectId, sandboxId, label, status, escape }) {
  const { Terminal, FitAddon } = await xterm();
  const term = new Terminal({ screenReaderMode: true, convertEol: false, cursorBlink: true, scrollback: 2000 });
  const fit = new FitAddon();
  term.loadAddon(fit);
  const box = h('div', { class: 'terminal', role: 'region', 'aria-label': label });
  host.replaceChildren(box);
  term.open(box);
  // xterm 4.9 gives its screen-reader rows role="listitem" inside a role="document": a list item needs a list
  // (axe: aria-required-parent); later xterm releases fixed this upstream the same way
  box.querySelector('.xterm-accessibility-tree')?.setAttribute('role', 'list');
  fit.fit();
  const url = new URL(socketUrl(`/projects/${projectId}/sandboxes/${sandboxId}/exec`));
  url.searchParams.set('tty', 'true');
  url.searchParams.set('cols', String(term.cols));
  url.searchParams.set('rows', String(term.rows));
  const ws = new WebSocket(url.toString());
  ws.binaryType = 'arraybuffer';
  let started = false;
  const pending = [];
  const send = bytes => (started && ws.readyState === WebSocket.OPEN ? ws.send(bytes) : pending.push(bytes));
  term.onData(data => send(frame(STDIN, encoder.encode(data))));
  term.onResize(({ cols, rows }) => send(frame(RESIZE, encoder.encode(JSON.stringify({ cols, rows })))));
  term.attachCustomKeyEventHandler(e => {
    if (e.type === 'keydown' && e.key === 'Escape' && e.shiftKey) {
      escape?.();
      return false;
    }
    return true;
  });
  ws.onmessage = e => {
    const bytes = new Uint8Array(e.data);
    if (bytes.length === 0) return;
    if (bytes[0] === STARTED) {
      started = true;
      status('Terminal connected.');
      pending.splice(0).forEach(b => ws.send(b));
    } else if (bytes[0] === STDOUT || bytes[0] === STDERR) {
      term.write(bytes.subarray(1));
    } else if (bytes[0] === EXIT && bytes.length >= 5) {
      const code = new DataView(bytes.buffer, bytes.byteOffset + 1, 4).getInt32(0);
      status(`The shell exited with status ${code}.`);
      ws.close(1000);
    }
  };
  ws.onclose = e => status(closeReason(e));
  ws.onerror = () => status('The terminal connection failed.');
  const onWindowResize = () => fit.fit();
  window.addEventListener('resize', onWindowResize);
  // views have no unmount hook: a terminal whose view was replaced (the person went elsewhere) ends its session
  const watch = setInterval(() => box.isConnected || session.close(), 2000);
  term.focus();
  const session = {
    close() {
      clearInterval(watch);
      window.removeEventListener('resize', onWindowResize);
      if (ws.readyState <= WebSocket.OPEN) ws.close(1000);
      term.dispose();
      host.replaceChildren();
    },
  };
  return session;
}
