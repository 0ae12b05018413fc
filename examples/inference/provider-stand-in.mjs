// A stand-in for an OpenAI-compatible model provider, for trying managed inference without a provider account.
// It answers POST /v1/chat/completions (whole, or streamed with the usage chunk when asked) with a fixed reply and
// reports 12 input and 5 output tokens. It is a stand-in, not a model: nothing here calls one.
// Usage: node examples/inference/provider-stand-in.mjs [port]   (default 4010)
import http from 'node:http';

const port = Number(process.argv[2] ?? 4010);
const usage = { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 };

http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => { body += c; });
  req.on('end', () => {
    if (req.method !== 'POST' || !req.url.startsWith('/v1/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'the stand-in serves POST /v1/chat/completions only' } }));
      return;
    }
    const call = JSON.parse(body || '{}');
    const model = call.model ?? 'gpt-4o-mini';
    const base = { id: 'chatcmpl-standin', created: Math.floor(Date.now() / 1000), model };
    if (!call.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ...base, object: 'chat.completion', usage,
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from the stand-in.' }, finish_reason: 'stop' }] }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (choices, extra = {}) => res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices, ...extra })}\n\n`);
    chunk([{ index: 0, delta: { role: 'assistant', content: 'Hello from ' }, finish_reason: null }]);
    chunk([{ index: 0, delta: { content: 'the stand-in.' }, finish_reason: 'stop' }]);
    if (call.stream_options?.include_usage) chunk([], { usage });
    res.end('data: [DONE]\n\n');
  });
}).listen(port, '127.0.0.1', () => console.log(`provider stand-in on http://127.0.0.1:${port}`));
