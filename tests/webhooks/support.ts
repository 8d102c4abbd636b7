import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { vi } from "vitest";
import type { Clock } from "../../src/platform/clock.js";
import type { TestApp } from "../helpers/test-app.js";
import type { MadeUser } from "../factories/users.js";

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
  /** The test clock when it arrived: the signature's timestamp is checked against it. */
  receivedAt: Date;
}

export type Answer = (req: IncomingMessage, res: ServerResponse) => void;

export const ok: Answer = (_req, res) => {
  res.writeHead(200).end("ok");
};
export const status =
  (code: number, headers: Record<string, string> = {}): Answer =>
  (_req, res) => {
    res.writeHead(code, headers).end(`status ${code}`);
  };
/** Never answers (the connection stays open until the receiver stops). */
export const never: Answer = () => undefined;

/**
 * A webhook receiver on loopback, speaking plain HTTP as an integrator's server would: it keeps every request, and
 * answers each with the next of `answers`, then with `otherwise`.
 */
export class Receiver {
  readonly received: ReceivedDelivery[] = [];
  answers: Answer[] = [];
  otherwise: Answer = ok;
  private server: Server | undefined;
  private port = 0;

  constructor(private readonly clock: Clock) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        this.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), receivedAt: this.clock.now() });
        (this.answers.shift() ?? this.otherwise)(req, res);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }

  /** The deliveries' bodies, parsed. */
  events(): { id: string; type: string; createdAt: string; data: any }[] {
    return this.received.map((delivery) => JSON.parse(delivery.body));
  }
}

/**
 * Verifies a delivery with the Standard Webhooks reference library (code that is not ours): the payload when `secret`
 * signed it, else the library's error. Its timestamp check reads the system time: it is set to the test clock at
 * receipt for the (synchronous) check.
 */
export function verifyWith(secret: string, delivery: ReceivedDelivery): unknown {
  vi.useFakeTimers({ toFake: ["Date"] });
  try {
    vi.setSystemTime(delivery.receivedAt);
    return new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
  } finally {
    vi.useRealTimers();
  }
}

/** POST /webhook-endpoints that must succeed: the answer (with its secret). */
export async function createEndpoint(t: TestApp, owner: MadeUser, url: string, events: string[], description = "painel") {
  const res = await t.post("/api/webhook-endpoints", { token: owner.token, body: { url, events, description } });
  if (res.status !== 201) throw new Error(`create endpoint failed: ${res.status} ${res.text}`);
  return res.body as { id: number; secret: string; url: string; events: string[]; enabled: boolean };
}

/** GET /webhook-endpoints/{id}/deliveries: the endpoint's deliveries, oldest first. */
export async function deliveriesOf(t: TestApp, owner: MadeUser, endpointId: number): Promise<any[]> {
  const res = await t.get(`/api/webhook-endpoints/${endpointId}/deliveries?size=100&sort=id,asc`, { token: owner.token });
  if (res.status !== 200) throw new Error(`deliveries failed: ${res.status} ${res.text}`);
  return res.body.content;
}

/** Runs the webhook worker once: pending events fanned out, due deliveries attempted. */
export const deliverWebhooks = (t: TestApp) => t.app.services.webhookDeliveries.runOnce();
