import { writeFileSync } from 'node:fs';
import { makeSnapshot, type SnapshotPrompt } from '@lectern/prompt-templates';
import { ConfigError } from './config.js';

/**
 * `lectern prompts export`: the deployed prompts of the key's workspace as a snapshot file, read from
 * a running Lectern over its API (so it works beside a running embedded server, and from CI). A
 * client seeded with it serves prompts from its first call, without the network (docs/client.md).
 */
export async function exportPrompts(options: {
  baseUrl: string;
  apiKey: string | undefined;
  environment?: string;
  out?: string;
}): Promise<string> {
  if (!options.apiKey) throw new ConfigError('prompts export needs an API key: --key KEY or LECTERN_API_KEY');
  const url = new URL('/v1/prompts', options.baseUrl);
  if (options.environment) url.searchParams.set('environment', options.environment);
  const response = await fetch(url, { headers: { authorization: `Bearer ${options.apiKey}` } });
  const body = (await response.json()) as { data?: SnapshotPrompt[]; error?: { message?: string } };
  if (!response.ok || !body.data)
    throw new ConfigError(
      `GET ${url.pathname} answered ${response.status}: ${body.error?.message ?? 'no prompts'}`,
    );
  const text = `${JSON.stringify(makeSnapshot(body.data, options.environment ?? null), null, 2)}\n`;
  if (options.out) writeFileSync(options.out, text);
  else process.stdout.write(text);
  return `${body.data.length} prompt${body.data.length === 1 ? '' : 's'}`;
}
