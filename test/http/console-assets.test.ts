import { existsSync, readdirSync } from 'node:fs';
import { expect, it } from 'vitest';
import { request, useTestWorkspace } from '../helpers/test-app.js';

// The console's build (dist/web, made by the test set-up when missing) served at `/` beside the API.
const context = useTestWorkspace();
const page = { accept: 'text/html,application/xhtml+xml' };

it('serves the console page at / and at any deep link, never cached, whatever the client accepts', async () => {
  // A browser, then curl (`*/*`) and a client that names no type at all.
  for (const headers of [page, { accept: '*/*' }, {}]) {
    for (const url of ['/', '/actions', '/actions/some-action/versions?tab=1']) {
      const response = await context.test.app.inject({ method: 'GET', url, headers });
      expect(response.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<div id="root"></div>');
    }
  }
});

it('caches the hashed assets for a year', async () => {
  expect(existsSync('dist/web/assets')).toBe(true);
  const script = readdirSync('dist/web/assets').find((name) => name.endsWith('.js'))!;
  const response = await context.test.app.inject({ method: 'GET', url: `/assets/${script}` });
  expect(response.statusCode).toBe(200);
  expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
});

it('leaves unknown API paths and non-page requests to the JSON 404', async () => {
  for (const url of ['/v1/nothing-here', '/admin/v1/x', '/console/v1/nothing', '/openapi.json/x']) {
    const response = await request(context.test.app, 'GET', url, undefined, page);
    expect(response.status, url).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  }
  for (const url of ['/missing.js', '/assets/missing.css', '/favicon.ico']) {
    const file = await request(context.test.app, 'GET', url, undefined, { accept: '*/*' });
    expect(file.status, url).toBe(404);
    expect(file.body.error.code).toBe('not_found');
  }
  // Only GET serves the page.
  expect((await request(context.test.app, 'POST', '/actions', {}, page)).status).toBe(404);
  // The API itself is unchanged.
  expect((await context.client.get('/v1/apps')).status).toBe(200);
  expect((await request(context.test.app, 'GET', '/healthz')).body).toEqual({ status: 'ok' });
});

it('sends a strict Content-Security-Policy and the other security headers on the console and the API', async () => {
  const first = await context.test.app.inject({ method: 'GET', url: '/settings', headers: page });
  const second = await context.test.app.inject({ method: 'GET', url: '/settings', headers: page });
  const policy = String(first.headers['content-security-policy']);
  expect(policy).toContain("default-src 'self'");
  expect(policy).toContain("script-src 'self';");
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).not.toContain('unsafe-inline');
  // The page names the style nonce its policy allows, a new one each time it is served.
  const nonce = /<meta name="csp-nonce" content="([^"]+)"/.exec(first.body)?.[1];
  expect(policy).toContain(`style-src 'self' 'nonce-${nonce}'`);
  expect(second.body).not.toContain(nonce);
  // The page is never served as a plain file, without its nonce.
  expect((await context.test.app.inject({ method: 'GET', url: '/index.html' })).body).not.toContain(
    '%CSP_NONCE%',
  );
  for (const response of [first, await context.test.app.inject({ method: 'GET', url: '/v1/apps' })]) {
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    // Plain HTTP (http://lectern.test): no HSTS, which browsers would ignore anyway.
    expect(response.headers['strict-transport-security']).toBeUndefined();
  }
});
