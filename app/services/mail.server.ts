import { createTransport } from "nodemailer";
import { config } from "~/config.server";

const transport = config.SMTP_URL ? createTransport(config.SMTP_URL) : null;

/** Sends through SMTP when SMTP_URL is set; otherwise writes the message to the server log. */
export async function sendMail(message: { to: string; subject: string; text: string }) {
  if (!transport) {
    console.info(`[mail] to ${message.to}: ${message.subject}\n${message.text}`);
    return;
  }
  await transport.sendMail({ from: config.MAIL_FROM, ...message });
}
