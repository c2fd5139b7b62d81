import { renderTemplate, templateParseError } from '@lectern/prompt-templates';
import type { OutboundFetch } from '../../../../platform/outbound-fetch.js';
import { OutboundFetchError } from '../../../../platform/outbound-guard.js';
import { descriptionDefinition, SkillFailedError, type SkillType, truncateOutput } from '../skill-type.js';

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const inputPlaceholder = /\{\{-?\s*input\s*-?\}\}/g;

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * An HTTP endpoint as a tool, called through the SSRF guard (docs/security.md): private and metadata
 * addresses are refused unless LECTERN_OUTBOUND_ALLOW names them. In `url` the input is URL-encoded;
 * in `body` it is the raw text (`{{ input | json }}` writes it as a JSON string).
 */
export function httpRequestSkillType(fetch: OutboundFetch): SkillType {
  return {
    guid: '6f1d3a52-4c1e-4b8a-9e0a-000000000001',
    name: 'http_request',
    description: 'Calls an HTTP endpoint with the input and answers the response body.',
    inputDescription: 'The text to send to the endpoint (a query, an identifier, a message).',
    metadata: [
      {
        name: 'url',
        required: true,
        type: 'url',
        value: null,
        description: 'The http(s) URL to call; {{input}} in it is replaced by the URL-encoded input.',
      },
      {
        name: 'method',
        required: false,
        type: 'select',
        value: 'GET',
        options: methods,
        description: 'The HTTP method.',
      },
      {
        name: 'headers',
        required: false,
        type: 'headers',
        value: {},
        secret: true,
        description: 'Request headers, an object of strings; stored encrypted and redacted on reads.',
      },
      {
        name: 'body',
        required: false,
        type: 'text',
        value: null,
        description:
          'The request body template: {{input}} is the raw input, {{input | json}} the input as a JSON string. Without it, POST, PUT and PATCH send {"input": "<input>"}.',
      },
      descriptionDefinition,
    ],
    check(settings) {
      const url = (settings.url as string).replace(inputPlaceholder, 'input');
      const parsed = URL.canParse(url) ? new URL(url) : undefined;
      if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
        return { entry: 'url', reason: 'must be an http or https URL' };
      }
      const body = settings.body as string | null;
      if (body !== null) {
        if (settings.method === 'GET') return { entry: 'body', reason: 'a GET request has no body' };
        const error = templateParseError(body);
        if (error) return { entry: 'body', reason: `template does not parse: ${error}` };
      }
      return undefined;
    },
    async execute(settings, input, execution) {
      const method = settings.method as string;
      const headers = { ...(settings.headers as Record<string, string>) };
      const encoded = encodeURIComponent(input);
      const url = (settings.url as string).replace(inputPlaceholder, () => encoded);
      let body: string | undefined;
      if (settings.body !== null) {
        try {
          body = await renderTemplate(settings.body as string, { input });
        } catch (error) {
          // A render that runs out of its budget (or fails) is the Skill's failure, shown as its result.
          throw new SkillFailedError(`the body template failed: ${(error as Error).message.split('\n')[0]}`);
        }
      } else if (method !== 'GET' && method !== 'DELETE') body = JSON.stringify({ input });
      if (body !== undefined && !hasHeader(headers, 'content-type')) {
        headers['content-type'] = isJson(body) ? 'application/json' : 'text/plain; charset=utf-8';
      }
      try {
        const response = await fetch(url, {
          method,
          headers,
          body,
          signal: execution.signal,
          acceptErrorStatus: true,
        });
        const text = response.bytes.toString('utf8');
        if (response.status >= 400) {
          throw new SkillFailedError(`the endpoint answered ${response.status}: ${text.slice(0, 500)}`);
        }
        return truncateOutput(text);
      } catch (error) {
        if (error instanceof OutboundFetchError)
          throw new SkillFailedError(`HTTP request failed: ${error.message}`);
        throw error;
      }
    },
  };
}
