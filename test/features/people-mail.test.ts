import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addPerson,
  ownAddressPerSignIn,
  sameOrigin,
  signedInPerson,
  uniqueAddress,
} from '../helpers/people.js';
import { eventually, request, useTestWorkspace } from '../helpers/test-app.js';

// Invitations and password resets are e-mailed through a real SMTP server (smtp-server, in this
// process) when SMTP_URL is set; the link is shown to the inviter either way.
type Received = { to: string[]; text: string };
const received: Received[] = [];
let smtp: SMTPServer;
let port = 0;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let text = '';
      stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((each) => each.address), text });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  port = (smtp.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

const context = useTestWorkspace(() => ({
  ...ownAddressPerSignIn,
  SMTP_URL: `smtp://127.0.0.1:${port}`,
  LECTERN_MAIL_FROM: 'Lectern <lectern@example.com>',
}));

/** The mail's body with its quoted-printable soft line breaks joined. */
const bodyOf = (mail: Received) => mail.text.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

describe('mail', () => {
  it('e-mails an invitation with its single-use link', async () => {
    const { client } = await signedInPerson(context.test, context.client.workspaceGuid, 'admin');
    const email = `mailed-${Date.now()}@example.com`;
    const invited = await client.post('/v1/members', { email, role: 'viewer' });
    expect(invited.status).toBe(201);
    expect(invited.body.emailed).toBe(true);
    const mail = await eventually(async () => received.find((each) => each.to.includes(email)), 10_000);
    expect(bodyOf(mail)).toContain(invited.body.invite_url);
    expect(mail.text).toMatch(/^From: Lectern <lectern@example\.com>/m);
  });

  it('e-mails a password reset link', async () => {
    const { client } = await signedInPerson(context.test, context.client.workspaceGuid, 'admin');
    const person = await addPerson(context.test, context.client.workspaceGuid, 'viewer');
    const issued = await client.post(`/v1/members/${person.id}/password_reset`, {});
    expect(issued.body.emailed).toBe(true);
    const mail = await eventually(
      async () => received.find((each) => each.to.includes(person.email)),
      10_000,
    );
    expect(bodyOf(mail)).toContain(issued.body.reset_url);
  });

  it('e-mails a forgotten-password link to the person, and nothing for an unknown address', async () => {
    const person = await addPerson(context.test, context.client.workspaceGuid, 'owner');
    const unknown = `unknown-${Date.now()}@example.com`;
    for (const email of [person.email, unknown]) {
      const asked = await request(
        context.test.app,
        'POST',
        '/console/v1/password_reset/request',
        { email },
        {
          ...sameOrigin,
          'x-forwarded-for': uniqueAddress(),
        },
      );
      expect(asked.status).toBe(202);
    }
    const mail = await eventually(
      async () => received.find((each) => each.to.includes(person.email)),
      10_000,
    );
    const url = /http\S*reset-password\?token=\S+/.exec(bodyOf(mail))?.[0];
    expect(url).toBeDefined();
    const used = await request(
      context.test.app,
      'POST',
      '/console/v1/password_reset',
      { token: new URL(url!).searchParams.get('token'), password: 'chosen from the e-mail' },
      { ...sameOrigin, 'x-forwarded-for': uniqueAddress() },
    );
    expect(used.status).toBe(200);
    // The mail to the owner was sent after the unknown address's request, which sent none.
    expect(received.some((each) => each.to.includes(unknown))).toBe(false);
  });
});
