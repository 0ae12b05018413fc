// Runs inside a sandbox: the official openai SDK calls its model through the platform with only what the sandbox's
// environment holds (PLATFORM_INFERENCE_OPENAI_BASE_URL and _API_KEY, as the env plan and the provisioner set them),
// streams the answer, and prints one JSON line: {ok, text} or {ok: false, status, message}.
import OpenAI from 'openai';

const client = new OpenAI({
  baseURL: process.env.PLATFORM_INFERENCE_OPENAI_BASE_URL,
  apiKey: process.env.PLATFORM_INFERENCE_OPENAI_API_KEY,
});
try {
  const stream = await client.chat.completions.create({
    model: process.env.OPENAI_MODEL ?? 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
  });
  let text = '';
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta?.content ?? '';
  }
  console.log(JSON.stringify({ ok: true, text }));
} catch (e) {
  console.log(JSON.stringify({ ok: false, status: e.status ?? null, message: String(e.message ?? e) }));
  process.exitCode = 1;
}
