import type { Base64Decoding } from './base64.js';

/** What the service's thread asks the payload worker (payload-worker.ts), and what it answers. */
export type PayloadRequest =
  | { id: number; kind: 'json'; bytes: Uint8Array }
  | { id: number; kind: 'base64'; text: string; maximumBytes: number };

export type PayloadAnswer =
  | { id: number; value: unknown }
  | { id: number; error: string }
  | { id: number; decoding: Base64Decoding };
