import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type Nodemailer from "nodemailer";

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

/**
 * SMTP when `smtpUrl` is set; otherwise each message is written as an `.eml` file under `mailDir`. nodemailer is
 * loaded with the first message to send: an instance may serve for hours without sending any.
 */
export function createMailTransport(smtpUrl: string | undefined, mailDir: string): MailTransport {
  if (smtpUrl) {
    // A dead or silent server fails fast; the signal bounds the whole send, however slowly the server trickles.
    const transporter = lazily(({ createTransport }) =>
      createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }),
    );
    return {
      maxSendMs: MAX_SEND_MS,
      send: async (mail) => {
        await (await transporter.get()).sendMail({ ...mail, signal: AbortSignal.timeout(MAX_SEND_MS) });
      },
      close: () => transporter.close(),
    };
  }
  const transporter = lazily(({ createTransport }) => createTransport({ streamTransport: true, buffer: true, newline: "unix" }));
  return {
    maxSendMs: MAX_SEND_MS,
    send: async (mail) => {
      const signal = AbortSignal.timeout(MAX_SEND_MS);
      const info = await (await transporter.get()).sendMail({ ...mail, signal });
      await mkdir(mailDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID()}.eml`;
      await writeFile(path.join(mailDir, name), info.message as Buffer, { signal });
    },
    close: () => transporter.close(),
  };
}

/** A transporter made (nodemailer loaded) when first asked for; closing one never made does nothing. */
function lazily<T extends { close(): void }>(create: (nodemailer: typeof Nodemailer) => T) {
  let made: Promise<T> | undefined;
  return {
    get: () => (made ??= import("nodemailer").then(({ default: nodemailer }) => create(nodemailer))),
    close: () =>
      void made?.then(
        (transporter) => transporter.close(),
        () => undefined,
      ),
  };
}
