import { createTransport } from "nodemailer";
import { config } from "~/config.server";

export type Mail = { to: string; subject: string; text: string; headers?: Record<string, string> };
export type SendMail = (message: Mail) => Promise<void>;

/**
 * A sender through the SMTP server at `url` (smtp://user:pass@host:587, smtps://…); without a URL,
 * one that writes each message to the server log instead.
 */
export function mailer(url: string | undefined): SendMail {
  if (!url) {
    return async (message) => {
      console.info(`[mail] to ${message.to}: ${message.subject}\n${message.text}`);
    };
  }
  const transport = createTransport(url);
  return async (message) => {
    await transport.sendMail({ from: config.MAIL_FROM, ...message });
  };
}

/** Sends through SMTP when SMTP_URL is set; otherwise writes the message to the server log. */
export const sendMail: SendMail = mailer(config.SMTP_URL);
