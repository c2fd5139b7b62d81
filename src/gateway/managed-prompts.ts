import type { ServiceClient } from './service-client.js';

/** `action:<slug-or-guid>` or `action:<slug>@<environment>` in a request's `model`. */
const managedModel = /^action:([^@\s]+)(?:@([^@\s]+))?$/;

export type ManagedRequest = {
  body: Buffer;
  actionGuid: string;
  variables: unknown;
  /** The version the service rendered, and the environment it was deployed to. */
  version?: number;
  environment?: string;
  /** The workspace's provider credential, for a caller that sent none. */
  authorization?: string;
};

/** Whether the body names a managed prompt; cheap enough for every request (no parse otherwise). */
export function mayBeManaged(body: Buffer): boolean {
  return body.includes('"action:');
}

/**
 * A managed prompt (a Lectern extension, docs/api.md): the service renders the Action's messages, model and parameters
 * from the request's `variables` (its gateway payload, docs/api.md#runs); the caller's own `messages` follow
 * them, the caller's parameters win, and `variables` is not forwarded. Undefined for a plain request.
 */
export async function resolveManagedPrompt(
  service: ServiceClient,
  serviceKey: string | undefined,
  request: Record<string, unknown>,
): Promise<ManagedRequest | 'missing_key' | undefined> {
  const match = typeof request.model === 'string' ? managedModel.exec(request.model) : null;
  if (!match) return undefined;
  if (!serviceKey) return 'missing_key';
  const [, action, environment] = match;
  const { variables, messages, model: _managed, ...parameters } = request;
  const payload = await service.gatewayPayload(serviceKey, action!, {
    input: variables ?? {},
    ...(environment && { environment }),
  });
  const {
    headers,
    messages: rendered,
    ...defaults
  } = payload as {
    headers: Record<string, string>;
    messages: unknown[];
  } & Record<string, unknown>;
  const body = {
    ...defaults,
    ...parameters,
    messages: [...rendered, ...(Array.isArray(messages) ? messages : [])],
  };
  return {
    body: Buffer.from(JSON.stringify(body)),
    actionGuid: headers['x-svc-action-guid']!,
    variables: variables ?? {},
    ...(headers['x-svc-action-version'] && { version: Number(headers['x-svc-action-version']) }),
    ...(headers['x-svc-action-environment'] && { environment: headers['x-svc-action-environment'] }),
    authorization: headers.Authorization,
  };
}
