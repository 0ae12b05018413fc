// Writes the differential test cases PriceTableDifferentialTest checks: for each model row of our providers,
// the package's own calcPrice result (matched row id and total USD) for fixed usages and dates. Usage:
//   node expected.mjs /tmp/genai-prices > ../src/test/resources/dev/stockade/inference/price-cases.json
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const packageDir = join(process.argv[2], 'node_modules', '@pydantic', 'genai-prices');
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
const { calcPrice, findProvider } = await import(pathToFileURL(join(packageDir, 'dist', 'index.js')).href);

// genai-prices counts input_tokens with the cache included; the test converts to Stockade's buckets.
const usages = [
  { at: '2026-01-15T12:00:00Z', usage: { input_tokens: 1000, cache_read_tokens: 100, cache_write_tokens: 50,
    cache_write_1h_tokens: 20, output_tokens: 10, output_reasoning_tokens: 4, web_searches: 3 } },
  { at: '2026-11-01T00:00:00Z', usage: { input_tokens: 300000, cache_read_tokens: 20000, cache_write_tokens: 1000,
    output_tokens: 5000 } },
  // A realtime voice turn: audio and image parts (each modality's count includes its cached part, as the
  // package's realtime extractor reads OpenAI's usage).
  { at: '2026-06-01T12:00:00Z', usage: { input_tokens: 5000, cache_read_tokens: 2000, input_audio_tokens: 3000,
    cache_audio_read_tokens: 1200, input_image_tokens: 500, cache_image_read_tokens: 300, output_tokens: 800,
    output_audio_tokens: 600 } },
];
const extraNames = {
  aws: ['us.anthropic.claude-3-5-haiku-20241022-v1:0', 'eu.anthropic.claude-sonnet-4-5-20250929-v1:0',
    'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-20250514-v1:0',
    'amazon.nova-pro-v1:0', 'meta.llama3-3-70b-instruct-v1:0'],
  azure: ['gpt-4o', 'gpt-4.1-mini', 'claude-sonnet-4-5', 'o3-mini', 'deepseek-chat', 'deepseek-reasoner'],
  anthropic: ['claude-3-5-sonnet-20241022', 'claude-sonnet-4-5-20250929', 'Claude-Opus-4-6 '],
  openai: ['gpt-4o-2024-08-06', 'gpt-5', 'text-embedding-3-small'],
  openrouter: ['anthropic/claude-sonnet-4.5', 'openai/gpt-4o'],
};
const cases = [];
let skipped = 0;
for (const provider of ['anthropic', 'aws', 'azure', 'openai', 'openrouter']) {
  const names = [...findProvider({ providerId: provider }).models.map((m) => m.id), ...extraNames[provider]];
  for (const model of names) {
    for (const { at, usage } of usages) {
      let result;
      try {
        result = calcPrice(usage, model, { providerId: provider, timestamp: new Date(at) });
      } catch (e) {
        skipped++;
        continue;
      }
      cases.push([provider, model, at, usage.input_tokens, usage.cache_read_tokens ?? 0,
        usage.cache_write_tokens ?? 0, usage.cache_write_1h_tokens ?? 0, usage.output_tokens,
        usage.output_reasoning_tokens ?? 0, result ? result.provider.id : null, result ? result.model.id : null,
        result ? result.total_price : null, usage.web_searches ?? 0, usage.input_audio_tokens ?? 0,
        usage.cache_audio_read_tokens ?? 0, usage.output_audio_tokens ?? 0, usage.input_image_tokens ?? 0,
        usage.cache_image_read_tokens ?? 0]);
    }
  }
}
process.stdout.write(JSON.stringify({ source: `npm ${manifest.name}@${manifest.version}`, skipped,
  columns: ['provider', 'model', 'at', 'input_total', 'cache_read', 'cache_write', 'cache_write_1h', 'output',
    'output_reasoning', 'matched_provider', 'matched_model', 'total_usd', 'web_searches', 'input_audio',
    'cache_audio_read', 'output_audio', 'input_image', 'cache_image_read'], cases }) + '\n');
