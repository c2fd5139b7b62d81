import { z } from 'zod';
import { guid, timestamp } from '../../../core/wire.js';

export const providerResponse = z
  .strictObject({
    guid,
    provider: z.string().describe('The provider kind'),
    nickname: z.string().nullable(),
    name: z.string().describe('The official SDK’s display name: the nickname, else the kind'),
    url: z.string().nullable(),
    default: z.boolean(),
    has_key: z.boolean().describe('Whether a key is stored; the key itself is never returned'),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Provider' });

/** `POST /v1/models/provider` (the official SDK's `models.addProvider`) answers with the provider's models. */
export const sdkProviderResponse = providerResponse.extend({ models: z.array(z.never()) });

export const modelResponse = z
  .strictObject({
    guid,
    name: z.string(),
    provider: guid,
    provider_kind: z.string(),
    reference: z.string().describe('How an Action names this model: `<nickname or kind>/<name>`'),
    default: z.boolean(),
    llm: z.string().describe('The official SDK’s name for `name`'),
    provider_guid: guid.describe('The official SDK’s name for `provider`'),
    created_at: timestamp,
  })
  .meta({ id: 'Model' });

/** `GET /v1/providers/kinds`: what a provider of each kind needs, from the kind's record. */
export const providerKindResponse = z
  .strictObject({
    name: z.string(),
    label: z.string(),
    key_required: z.boolean(),
    url_required: z.boolean(),
    default_url: z.string().nullable(),
    embeddings: z.boolean().describe('Whether the kind offers embedding models (a Context’s embedder)'),
    suggested_models: z.array(z.string()).describe('Model names to offer; any other may be typed'),
  })
  .meta({ id: 'ProviderKind' });

export const connectionTestResponse = z.strictObject({ ok: z.boolean(), message: z.string() });

export const keyValidationResponse = z.strictObject({ validated: z.boolean() });

export type ProviderResponse = z.output<typeof providerResponse>;
export type ModelResponse = z.output<typeof modelResponse>;
export type ProviderKindResponse = z.output<typeof providerKindResponse>;
export type ConnectionTest = z.output<typeof connectionTestResponse>;
