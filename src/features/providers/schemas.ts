import { z } from 'zod';
import { guid } from '../../http/params.js';
import { isProviderKind, providerKinds, urlRequiredKinds } from '../../llm/provider-kinds.js';

const httpUrl = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).max(2_000);

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
  .refine((body) => !urlRequiredKinds.has(body.provider) || body.url !== undefined, {
    message: 'required for this provider',
    path: ['url'],
  });

export const updateProviderBody = z.strictObject({
  key: providerKey.nullable().optional(),
  url: httpUrl.nullable().optional(),
  nickname: nickname.nullable().optional(),
  default: z.boolean().optional(),
});

export const createModelBody = z.strictObject({
  provider: guid,
  name: z.string().trim().min(1).max(200),
});

export type CreateProviderInput = z.infer<typeof createProviderBody>;
export type UpdateProviderInput = z.infer<typeof updateProviderBody>;
export type CreateModelInput = z.infer<typeof createModelBody>;
