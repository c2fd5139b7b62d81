import type { Logger } from 'pino';

/** One e-mail: plain text, to one address. */
export type Mail = { to: string; subject: string; text: string };

/** Sends Lectern's few e-mails (invitations, password resets) when SMTP_URL is set. */
export type Mailer = { send(mail: Mail): Promise<void>; close(): void };

/**
 * A mailer over SMTP_URL (`smtp://user:pass@host:587`, `smtps://…`), from LECTERN_MAIL_FROM.
 * nodemailer is loaded only when a mailer is configured.
 */
export async function createMailer(smtpUrl: string, from: string, logger: Logger): Promise<Mailer> {
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
      // The address is personal data and the body holds a secret link: neither is logged.
      logger.info({ subject: mail.subject }, 'e-mail sent');
    },
    close: () => transport.close(),
  };
}
