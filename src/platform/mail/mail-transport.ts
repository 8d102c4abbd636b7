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
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** SMTP when `smtpUrl` is set; otherwise each message is written as an `.eml` file under `mailDir`. */
export function createMailTransport(smtpUrl: string | undefined, mailDir: string): MailTransport {
  if (smtpUrl) {
    const transporter = nodemailer.createTransport(smtpUrl);
    return {
      send: async (mail) => {
        await transporter.sendMail(mail);
      },
      close: () => transporter.close(),
    };
  }
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    send: async (mail) => {
      const info = await transporter.sendMail(mail);
      await mkdir(mailDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID()}.eml`;
      await writeFile(path.join(mailDir, name), info.message as Buffer);
    },
    close: () => transporter.close(),
  };
}
