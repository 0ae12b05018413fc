// Dumps the price data of @pydantic/genai-prices (MIT) for the providers Stockade serves into the JSON
// resource PriceTable reads. Usage (see ../../docs/inference-wire.md):
//   npm install --prefix /tmp/genai-prices @pydantic/genai-prices@0.1.8
//   node dump.mjs /tmp/genai-prices > ../src/main/resources/dev/stockade/inference/prices.json
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const prefix = process.argv[2];
if (!prefix) {
  console.error('usage: node dump.mjs <npm prefix holding @pydantic/genai-prices>');
  process.exit(2);
}
const packageDir = join(prefix, 'node_modules', '@pydantic', 'genai-prices');
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
const { findProvider } = await import(pathToFileURL(join(packageDir, 'dist', 'index.js')).href);

// Our backends price through these data providers; azure falls back to the next four as the package does.
const providerIds = ['anthropic', 'aws', 'azure', 'openai', 'openrouter', 'deepseek', 'x-ai', 'moonshotai'];
const pick = (object, keys) => Object.fromEntries(keys.filter((k) => object[k] !== undefined).map((k) => [k, object[k]]));

const providers = providerIds.map((id) => {
  const provider = findProvider({ providerId: id });
  if (!provider || provider.id !== id) throw new Error(`provider ${id} missing from the package`);
  return {
    ...pick(provider, ['id', 'name', 'pricing_urls', 'provider_match', 'model_match', 'fallback_model_providers']),
    models: provider.models.map((model) => pick(model, ['id', 'match', 'context_window', 'deprecated', 'prices'])),
  };
});

const document = {
  source: `npm ${manifest.name}@${manifest.version}`,
  homepage: manifest.homepage,
  licence: manifest.license ?? 'MIT',
  licenceNotice: readFileSync(join(packageDir, 'LICENSE'), 'utf8').split('\n').filter((l) => l.startsWith('Copyright'))[0],
  units: 'prices in USD per million tokens (*_mtok); tiers by total input tokens; start_date constraints',
  providers,
};
process.stdout.write(JSON.stringify(document, null, 1) + '\n');
