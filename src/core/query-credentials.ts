/**
 * Query parameters that carry a credential: signed URLs' tokens (`X-Amz-Signature`, `token`), and
 * keys some clients put in the URL (`?api_key=`, `?key=`, `?access_token=`…). Matched by name, with
 * any case or separator, and by suffix (`service_key`, `x-svc-api-key`).
 */
const credentialInQuery =
  /([?&](?:[\w.-]*[-_.])?(?:token|accesstoken|authtoken|signature|sig|key|apikey|secret|password|passwd|auth|authorization|credentials?)=)[^&#]*/gi;

/** The text with the value of every credential-named query parameter replaced: for logs and records. */
export function withoutQueryCredentials(text: string): string {
  return text.replace(credentialInQuery, '$1[redacted]');
}
