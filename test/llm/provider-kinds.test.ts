import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { providerKindEnvironment } from '../../src/core/provider-kind-names.js';
import { generationCost } from '../../src/llm/prices.js';
import {
  createEmbeddingModel,
  createLanguageModel,
  offersEmbeddings,
  providerKinds,
} from '../../src/llm/provider-kinds.js';
import { useTestWorkspace } from '../helpers/test-app.js';

// One record per provider kind: what the API lists, what the console offers, which environment
// variables serve it, how its price and its models are found all come from that record.

describe('provider kind records', () => {
  it('give every kind a language model through the same interface', async () => {
    for (const kind of providerKinds) {
      const model = await createLanguageModel(kind, kind === 'mock' ? 'echo' : 'some-model', {
        apiKey: 'sk-test',
        baseUrl: 'http://127.0.0.1:9/v1',
      });
      expect(model.specificationVersion, kind).toBe('v3');
    }
  });

  it('make embedding models for the kinds that offer them, and refuse the rest with a 400 naming the field', async () => {
    for (const kind of providerKinds) {
      const creating = createEmbeddingModel(kind, 'some-embedder', {
        apiKey: 'sk-test',
        baseUrl: 'http://127.0.0.1:9/v1',
      });
      if (offersEmbeddings(kind)) await expect(creating).resolves.toBeDefined();
      else await expect(creating).rejects.toMatchObject({ status: 400, field: 'embeddingModel' });
    }
  });

  it('price the mock from its record and the vendors from the bundled table', async () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 1_000_000 };
    expect(await generationCost('mock', 'echo', usage)).toEqual({ input: 1, output: 2, generation: 3 });
    const openai = await generationCost('openai', 'gpt-4o-mini', usage);
    expect(openai?.generation).toBeGreaterThan(0);
    expect(await generationCost('openai', 'no-such-model-anywhere', usage)).toBeUndefined();
  });

  it('name the environment variables that serve a kind without a provider record', () => {
    const config = loadConfig({
      ANTHROPIC_API_KEY: 'sk-ant-operator',
      OPENAI_API_KEY: 'sk-operator',
      OPENAI_BASE_URL: 'http://proxy.internal/v1',
      GOOGLE_GENERATIVE_AI_API_KEY: ' ',
    });
    expect(config.providerFallbacks).toEqual({
      openai: { key: 'sk-operator', url: 'http://proxy.internal/v1' },
      anthropic: { key: 'sk-ant-operator' },
    });
    expect(config.providerUrls).toEqual({ openai: 'http://proxy.internal/v1' });
    expect(providerKindEnvironment.google?.key).toBe('GOOGLE_GENERATIVE_AI_API_KEY');
  });
});

const context = useTestWorkspace();

describe('GET /v1/providers/kinds', () => {
  it('lists every kind with what a provider of it needs', async () => {
    const response = await context.client.get('/v1/providers/kinds');
    expect(response.status).toBe(200);
    expect(response.body.data.map((kind: { name: string }) => kind.name)).toEqual(providerKinds);
    const byName = Object.fromEntries(response.body.data.map((kind: { name: string }) => [kind.name, kind]));
    expect(byName.openai).toMatchObject({
      label: 'OpenAI',
      key_required: true,
      url_required: false,
      default_url: 'https://api.openai.com/v1',
      embeddings: true,
    });
    expect(byName['openai-compatible']).toMatchObject({
      key_required: false,
      url_required: true,
      default_url: null,
    });
    expect(byName.anthropic.embeddings).toBe(false);
    expect(byName.mock.suggested_models).toEqual(['echo', 'slow', 'error', 'tool', 'json']);
  });
});
