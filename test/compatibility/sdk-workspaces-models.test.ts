import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sdkKinds, useSdkWorkspace } from '../helpers/klu-sdk.js';
import { newWorkspace } from '../helpers/test-app.js';

// Every method of @kluai/core@0.0.46's workspaces, models and fineTune clients, through the SDK. The
// openai key check is answered by a local server standing in for the vendor (OPENAI_BASE_URL).
let vendor: Server;
let vendorUrl: string;
beforeAll(async () => {
  vendor = createServer((request, response) => {
    const good = request.url === '/v1/models' && request.headers.authorization === 'Bearer sk-good';
    response.writeHead(good ? 200 : 401, { 'content-type': 'application/json' });
    response.end(good ? '{"object":"list","data":[]}' : '{"error":{"message":"bad key"}}');
  });
  await new Promise<void>((resolve) => vendor.listen(0, '127.0.0.1', resolve));
  vendorUrl = `http://127.0.0.1:${(vendor.address() as { port: number }).port}/v1`;
});
afterAll(() => new Promise((resolve) => vendor.close(resolve)));
// Each test runs against Klu's own SDK and against Lectern's drop-in client (@lectern/client/klu).
describe.each(sdkKinds)('with the %s SDK', (kind) => {
  const sdk = useSdkWorkspace(() => ({ OPENAI_BASE_URL: vendorUrl }), { kind });

  describe('workspaces', () => {
    it('getCurrent, get, paginator, update, getApps, getContexts, getModels', async () => {
      const current = await sdk.klu.workspaces.getCurrent();
      expect(current).toMatchObject({ guid: sdk.context.client.workspaceGuid, name: expect.any(String) });
      expect((await sdk.klu.workspaces.get(current.guid)).guid).toBe(current.guid);
      expect((await sdk.klu.workspaces.paginator.fetchAll()).map((item) => item.guid)).toEqual([
        current.guid,
      ]);
      expect((await sdk.klu.workspaces.update(current.guid, { name: 'Renamed by SDK' } as never)).name).toBe(
        'Renamed by SDK',
      );

      const app = await sdk.klu.apps.create({ name: 'listed', appType: 'chat' });
      const library = await sdk.klu.contexts.create({ name: 'listed', description: '' });
      const model = await sdk.klu.models.create({
        provider: 'mock',
        llm: 'echo',
        default: false,
        key: 'unused',
      });
      expect((await sdk.klu.workspaces.getApps(current.guid)).map((item) => item.guid)).toContain(app.guid);
      expect((await sdk.klu.workspaces.getContexts(current.guid)).map((item) => item.guid)).toContain(
        library.guid,
      );
      expect((await sdk.klu.workspaces.getModels(current.guid)).map((item) => item.guid)).toContain(
        model.guid,
      );
    });

    it('never reaches another workspace (404), and leaves creating and deleting workspaces to the operator (403)', async () => {
      const other = await newWorkspace(sdk.context.test);
      await expect(sdk.klu.workspaces.get(other.workspaceGuid)).rejects.toThrow(/not found/);
      await expect(sdk.klu.workspaces.getApps(other.workspaceGuid)).rejects.toThrow(/not found/);
      await expect(sdk.klu.workspaces.create({ name: 'mine', slug: 'mine' })).rejects.toThrow(/403/);
      await expect(sdk.klu.workspaces.delete(sdk.context.client.workspaceGuid)).rejects.toThrow(/403/);
      const refused = await sdk.context.client.post('/v1/workspace', { name: 'mine' });
      expect(refused.body.message).toMatch(/instance operator.*POST \/admin\/v1\/workspaces/);
    });
  });

  describe('models and providers', () => {
    it('create (a provider from kind and key), get, getAllModels, getDefault, delete; update is refused by the SDK', async () => {
      const created = await sdk.klu.models.create({
        provider: 'OpenAI',
        llm: 'gpt-4o-mini',
        default: true,
        key: 'sk-x',
      });
      expect(created).toMatchObject({ llm: 'gpt-4o-mini', default: true, providerGuid: expect.any(String) });
      expect((await sdk.klu.models.get(created.guid)).llm).toBe('gpt-4o-mini');
      expect((await sdk.klu.models.getAllModels()).map((model) => model.guid)).toContain(created.guid);
      expect((await sdk.klu.models.getDefault()).guid).toBe(created.guid);
      const second = await sdk.klu.models.create({
        provider: created.providerGuid,
        llm: 'gpt-4.1',
        default: true,
      } as never);
      expect((await sdk.klu.models.getDefault()).guid).toBe(second.guid);
      await expect((sdk.klu.models as unknown as { update(): Promise<unknown> }).update()).rejects.toThrow(
        /not yet supported/,
      );
      await sdk.klu.models.delete(second.guid);
      await expect(sdk.klu.models.get(second.guid)).rejects.toThrow(/not found/);
      // The provider record holds the key encrypted; it is never shown.
      const providers = await sdk.context.client.get('/v1/providers');
      expect(JSON.stringify(providers.body)).not.toContain('sk-x');
    });

    it('addProvider, getProviders, getProviderModels, updateProvider, deleteProvider', async () => {
      const added = await sdk.klu.models.addProvider('anthropic', 'sk-ant-test', undefined, 'claude', false);
      expect(added).toMatchObject({ provider: 'anthropic', nickname: 'claude', name: 'claude', models: [] });
      expect(JSON.stringify(added)).not.toContain('sk-ant-test');
      expect((await sdk.klu.models.getProviders()).map((provider) => provider.guid)).toContain(added.guid);
      // The SDK asks at /v1/models/provider/ for a provider's models (its path has no placeholder): the list.
      expect(Array.isArray(await sdk.klu.models.getProviderModels(added.guid))).toBe(true);
      const updated = await sdk.klu.models.updateProvider(added.guid, 'claude-main', true);
      expect(updated.data).toMatchObject({ nickname: 'claude-main', default: true, has_key: true });
      await sdk.klu.models.deleteProvider(added.guid);
      expect((await sdk.klu.models.getProviders()).map((provider) => provider.guid)).not.toContain(
        added.guid,
      );
    });

    it('validateProviderApiKey asks the vendor (here OPENAI_BASE_URL) and says whether it took the key', async () => {
      expect(await sdk.klu.models.validateProviderApiKey('sk-good', 'openai' as never)).toBe(true);
      expect(await sdk.klu.models.validateProviderApiKey('sk-bad', 'openai' as never)).toBe(false);
      expect(await sdk.klu.models.validateProviderApiKey('anything', 'mock' as never)).toBe(true);
      const unknown = await sdk.context.client.post('/v1/models/validate', {
        api_key: 'x',
        provider: 'nope',
      });
      expect(unknown.status).toBe(400);
    });
  });

  describe('fine-tuning', () => {
    it('answers every fineTune method 501 not_supported', async () => {
      const guid = '00000000-0000-4000-8000-000000000000';
      for (const call of [
        () => sdk.klu.fineTune.get(guid),
        () => sdk.klu.fineTune.update(guid, { name: 'x' }),
        () => sdk.klu.fineTune.delete(guid),
        () => sdk.klu.fineTune.process(guid, 'davinci'),
        () => sdk.klu.fineTune.readStatus(guid),
      ]) {
        await expect(call()).rejects.toThrow(/501/);
      }
      // create is refused by the SDK itself, before any request.
      await expect((sdk.klu.fineTune as unknown as { create(): Promise<unknown> }).create()).rejects.toThrow(
        /not yet supported/,
      );
      const direct = await sdk.context.client.get(`/v1/finetune/${guid}/status/`);
      expect(direct.status).toBe(501);
      expect(direct.body.error).toMatchObject({
        code: 'not_supported',
        message: 'Fine-tuning is not supported by Lectern',
      });
    });
  });
});
