/**
 * Every `error.code` the API answers (docs/api.md#errors): a closed list, so a new code is a
 * deliberate change a reviewer sees here, and a misspelt one does not compile. Clients switch on them.
 */
export const errorCodes = [
  // Input
  'validation_error',
  'invalid_request',
  'invalid_url',
  'uri_too_long',
  'invalid_json',
  'invalid_content_length',
  'unsupported_content_type',
  'unsupported_encoding',
  'invalid_gzip',
  'invalid_protobuf',
  'payload_too_large',
  'idempotency_key_reused',
  // Who asks
  'unauthorized',
  'forbidden',
  'cross_site_request',
  // What is there
  'not_found',
  'conflict',
  'version_conflict',
  'used_by_release_gate',
  'idempotency_key_in_use',
  'stream_consumed',
  'method_not_allowed',
  'not_supported',
  // Limits
  'rate_limited',
  'too_many_sign_ins',
  'too_many_event_streams',
  'ingest_busy',
  'api_key_limit',
  'webhook_limit',
  // Work that failed
  'provider_error',
  'run_failed',
  'workflow_failed',
  'block_failed',
  'block_skipped',
  'skill_failed',
  'gate_failed',
  'response_mismatch',
  // Parts that do not answer
  'queue_unavailable',
  'identity_provider_unavailable',
  'internal_error',
] as const;

export type ErrorCode = (typeof errorCodes)[number];
