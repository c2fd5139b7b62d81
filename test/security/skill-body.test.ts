import { expect, it } from 'vitest';
import { useTestWorkspace } from '../helpers/test-app.js';

// Finding 14 (an http_request Skill): a body template that runs out of its render budget fails the
// Skill with a clear message, not the request with a 500. Nothing is sent anywhere.

const context = useTestWorkspace();

it('fails an http_request Skill whose body template exceeds its render budget, clearly', async () => {
  const created = await context.client.post('/v1/skills', {
    name: 'Runaway body',
    type: 'http_request',
    metadata: [
      { name: 'url', value: 'https://hooks.example.com/collect' },
      { name: 'method', value: 'POST' },
      { name: 'body', value: '{% for i in (1..100000000) %}{% assign j = i | plus: 1 %}{% endfor %}' },
    ],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const answer = await context.client.post(`/v1/skills/${created.body.guid}/prompt`, { prompt: 'x' });
  expect(answer.status).toBe(502);
  expect(answer.body.error.code).toBe('skill_failed');
  expect(answer.body.message).toMatch(
    /^the body template failed: the templates of one run may (render|produce)/,
  );
});
