import { chownSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/klu-sdk.js';
import { podman, podmanSucceeds } from '../helpers/podman.js';
import { eventually, temporaryDirectory } from '../helpers/test-app.js';

// The image itself (CI's container pass: LECTERN_TEST_IMAGE names it, vitest.config.ts collects this
// folder only then): it runs as its own user, answers its health check, serves `serve` and
// `gateway`, and stops cleanly on SIGTERM. test/scale runs the multi-node tests against it too.
const image = process.env.LECTERN_TEST_IMAGE!;
const apiKey = 'lec_container_image_key_0123456789abcdefgh';
const started: string[] = [];

/** A detached container of the image on the host's network; answers its name. */
function run(name: string, environment: Record<string, string>, args: string[] = [], volume?: string) {
  const variables = Object.entries(environment).flatMap(([variable, value]) => [
    '--env',
    `${variable}=${value}`,
  ]);
  podman(
    'run',
    '--detach',
    '--name',
    name,
    '--network',
    'host',
    ...(volume ? ['--volume', volume] : []),
    ...variables,
    image,
    ...args,
  );
  started.push(name);
  return name;
}

afterAll(() => {
  for (const name of started) podmanSucceeds('rm', '--force', name);
});

describe('the container image', () => {
  it('declares a non-root user, the /data volume, a health check and its entry point', () => {
    const [config] = JSON.parse(podman('image', 'inspect', image)) as Array<{
      Config: any;
      Healthcheck: { Test: string[] };
      Size: number;
    }>;
    expect(config!.Config.User).toBe('lectern');
    expect(Object.keys(config!.Config.Volumes)).toEqual(['/data']);
    expect(config!.Healthcheck.Test.join(' ')).toContain('/healthz');
    expect(config!.Config.Entrypoint).toEqual(['node', 'dist/main.js']);
    expect(config!.Config.Env.join('\n')).not.toMatch(/SECRET=|API_KEY=|PASSWORD=/);
    console.log(`image size: ${(config!.Size / 1e6).toFixed(0)} MB`);
  });

  it('serves on the embedded database as uid 10001, answers its health check, and stops on SIGTERM', async () => {
    const port = await freePort();
    const data = temporaryDirectory();
    chownSync(data, 10001, 10001);
    const name = run(
      'lectern-image-serve',
      { PORT: String(port), HOST: '127.0.0.1', LECTERN_INIT_API_KEY: apiKey },
      [],
      `${data}:/data`,
    );
    await eventually(
      async () =>
        (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.ok ? true : undefined,
      60_000,
    );
    expect(podman('exec', name, 'id', '-u')).toBe('10001');
    expect(podmanSucceeds('healthcheck', 'run', name)).toBe(true);
    const me = await fetch(`http://127.0.0.1:${port}/v1/me`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(me.status).toBe(200);
    const stopping = performance.now();
    podman('stop', '--time', '35', name);
    expect(performance.now() - stopping).toBeLessThan(30_000);
    expect(podman('inspect', name, '--format', '{{.State.ExitCode}}')).toBe('0');
    expect(podman('logs', name)).toContain('"signal":"SIGTERM"');
  }, 120_000);

  it('runs the gateway from the same image, and its health check asks the gateway', async () => {
    const port = await freePort();
    // PORT names a free port on which nothing listens: only the gateway can make the check pass.
    const idle = await freePort();
    const name = run(
      'lectern-image-gateway',
      { GATEWAY_PORT: String(port), PORT: String(idle), HOST: '127.0.0.1' },
      ['gateway'],
    );
    await eventually(
      async () =>
        (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.ok ? true : undefined,
      60_000,
    );
    expect(podmanSucceeds('healthcheck', 'run', name)).toBe(true);
  }, 120_000);
});
