import { z } from 'zod';
import { isProviderKind, providerKindSpec, providerKinds } from '../../../llm/provider-kinds.js';

/**
 * A provider's base URL: paths are appended to it, so a query or fragment would smuggle the request
 * somewhere else, and credentials belong in `key`, never in a URL that logs and lists show.
 */
const httpUrl = z
  .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
  .max(2_000)
  // Refinements run even when the URL check failed: only a parsable URL is looked into.
  .refine(
    (value) => !URL.canParse(value) || (!value.includes('?') && !value.includes('#')),
    'must be a base URL without a query or fragment',
  )
  .refine((value) => {
    if (!URL.canParse(value)) return true;
    const url = new URL(value);
    return url.username === '' && url.password === '';
  }, 'must not carry credentials (give the key as "key")');

const nickname = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'letters, digits, "_", "." and "-", at most 64 characters')
  .refine((value) => !isProviderKind(value), 'must not be a provider kind name');

const providerKey = z.string().min(1).max(8_192);

export const createProviderBody = z
  .strictObject({
    provider: z.enum(providerKinds),
    key: providerKey.optional(),
    url: httpUrl.optional(),
    nickname: nickname.optional(),
    default: z.boolean().optional(),
  })
  .refine((body) => !providerKindSpec(body.provider).urlRequired || body.url !== undefined, {
    message: 'required for this provider',
    path: ['url'],
  });

export const updateProviderBody = z.strictObject({
  key: providerKey.nullable().optional(),
  url: httpUrl.nullable().optional(),
  nickname: nickname.nullable().optional(),
  default: z.boolean().optional(),
});

/** A provider kind as the official SDK may write it (`"OpenAI"`). */
const providerKind = z
  .string()
  .transform((kind) => kind.toLowerCase())
  .pipe(z.enum(providerKinds));

const modelName = z.string().trim().min(1).max(200);

/**
 * `POST /v1/models`: a model record of a provider. The official SDK's shape is accepted too: `llm` for
 * `name`, `provider` as a kind or nickname, `default`, and `key`/`url`, which add a provider first.
 */
export const createModelBody = z
  .strictObject({
    provider: z
      .string()
      .min(1)
      .max(100)
      .describe('The provider GUID, or a provider nickname or kind of the workspace'),
    name: modelName.optional(),
    llm: modelName.optional().describe('The official SDK’s name for `name`'),
    default: z.boolean().optional().describe('Make this the workspace’s default model'),
    key: providerKey.optional().describe('With a kind as `provider`: a new provider with this key'),
    url: httpUrl.optional(),
  })
  .refine((body) => (body.name === undefined) !== (body.llm === undefined), {
    message: 'give the model name as "name" (or "llm"), once',
    path: ['name'],
  });

/** The official SDK's `""` for "no nickname". */
const sdkNickname = z
  .union([z.literal(''), nickname])
  .transform((value) => (value === '' ? null : value))
  .optional();

/** `POST /v1/models/provider` (the official SDK's `models.addProvider`). */
export const sdkProviderBody = z
  .strictObject({
    provider: providerKind,
    key: providerKey.optional(),
    url: httpUrl.optional(),
    nickname: sdkNickname,
    default: z.boolean().optional(),
  })
  .refine((body) => !providerKindSpec(body.provider).urlRequired || body.url !== undefined, {
    message: 'required for this provider',
    path: ['url'],
  });

/** `PUT /v1/models/provider/{guid}` (`models.updateProvider`): the SDK always sends a nickname, "" for none. */
export const sdkProviderUpdateBody = z.strictObject({
  key: providerKey.optional(),
  url: httpUrl.optional(),
  nickname: sdkNickname,
  default: z.boolean().optional(),
});

/** `POST /v1/models/validate` (`models.validateProviderApiKey`). */
export const validateKeyBody = z.strictObject({ api_key: providerKey, provider: providerKind });

export type CreateProviderInput = z.infer<typeof createProviderBody>;
export type UpdateProviderInput = z.infer<typeof updateProviderBody>;
export type CreateModelInput = z.infer<typeof createModelBody>;
export type SdkProviderInput = z.infer<typeof sdkProviderBody>;
