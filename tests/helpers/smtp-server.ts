import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
}

/** A real SMTP server on loopback that keeps what it receives, parsed. */
export class TestSmtpServer {
  readonly received: ReceivedMail[] = [];
  /** When set, every message is refused with a temporary failure (to test retries). */
  refuseAll = false;
  private readonly server: SMTPServer;
  /** While set, a slow server: each message is read but not answered until `release()`. */
  private gate: { opened: Promise<void>; open: () => void } | undefined;
  private heldCount = 0;
  private holdWaiters: Array<{ count: number; wake: () => void }> = [];

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData: (stream, session, callback) => {
        if (this.refuseAll) {
          stream.resume();
          stream.on("end", () => callback(Object.assign(new Error("try later"), { responseCode: 451 })));
          return;
        }
        simpleParser(stream)
          .then(async (parsed) => {
            await this.answerWhenReleased();
            this.received.push({
              to: session.envelope.rcptTo.map((r) => r.address),
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
              subject: parsed.subject ?? "",
              text: parsed.text ?? "",
              html: typeof parsed.html === "string" ? parsed.html : "",
            });
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    const { port } = this.server.server.address() as AddressInfo;
    return `smtp://127.0.0.1:${port}`;
  }

  /** From now on each message waits, its send under way, until `release()`: a slow server. */
  hold(): void {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    this.gate = { opened, open };
  }

  /** Answers every held message and stops holding. */
  release(): void {
    this.gate?.open();
    this.gate = undefined;
  }

  /** Resolves once `count` messages are held at the same time. */
  whenHolding(count: number): Promise<void> {
    if (this.heldCount >= count) return Promise.resolve();
    return new Promise((wake) => this.holdWaiters.push({ count, wake }));
  }

  private async answerWhenReleased(): Promise<void> {
    if (!this.gate) return;
    this.heldCount++;
    for (const waiter of this.holdWaiters.filter((w) => this.heldCount >= w.count)) {
      this.holdWaiters.splice(this.holdWaiters.indexOf(waiter), 1);
      waiter.wake();
    }
    await this.gate.opened;
    this.heldCount--;
  }

  /** Messages received for `address`. */
  to(address: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.to.includes(address.toLowerCase()));
  }

  clear(): void {
    this.received.length = 0;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The first link of a message that starts with `prefix`. */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = new RegExp(`${escaped}[^\\s"<>]+`).exec(mail.text);
  if (!match) throw new Error(`no link starting with ${prefix} in:\n${mail.text}`);
  return match[0];
}
