import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface MailTransport {
  /** The longest one send may take: past it the send is aborted (its connection closed) and fails. */
  readonly maxSendMs: number;
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

const MAX_SEND_MS = 60_000;

/** SMTP when `smtpUrl` is set; otherwise each message is written as an `.eml` file under `mailDir`. */
export function createMailTransport(smtpUrl: string | undefined, mailDir: string): MailTransport {
  if (smtpUrl) {
    // A dead or silent server fails fast; the signal bounds the whole send, however slowly the server trickles.
    const transporter = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
    return {
      maxSendMs: MAX_SEND_MS,
      send: async (mail) => {
        await transporter.sendMail({ ...mail, signal: AbortSignal.timeout(MAX_SEND_MS) });
      },
      close: () => transporter.close(),
    };
  }
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    maxSendMs: MAX_SEND_MS,
    send: async (mail) => {
      const signal = AbortSignal.timeout(MAX_SEND_MS);
      const info = await transporter.sendMail({ ...mail, signal });
      await mkdir(mailDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID()}.eml`;
      await writeFile(path.join(mailDir, name), info.message as Buffer, { signal });
    },
    close: () => transporter.close(),
  };
}
