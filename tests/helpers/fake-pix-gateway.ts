import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { buildPixBrCode } from "../../src/modules/billing/gateways/pix/br-code.js";
import { qrPngDataUrl } from "../../src/modules/billing/gateways/pix/qr-code.js";
import { Arrivals, RequestHold } from "./request-hold.js";

export type FakePixStatus = "PENDING" | "PAID" | "EXPIRED" | "CANCELLED" | "REFUNDED";

/** A charge as the fake keeps it (the `data` of its answers, plus what it was created with). */
export interface FakePixCharge {
  id: string;
  amount: number;
  status: FakePixStatus;
  devMode: boolean;
  brCode: string;
  brCodeBase64: string;
  platformFee: number;
  description: string | null;
  metadata: Record<string, unknown> | null;
  customer: Record<string, unknown> | null;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
}

export interface FakePixRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage["headers"];
  /** Parsed JSON body (undefined when empty, the raw text when not JSON). */
  body: unknown;
}

/** A canned answer for the next request, whatever it is (500s, garbage bodies, slow answers). */
export interface FakePixOverride {
  status: number;
  /** Sent as is. */
  body: string;
  contentType?: string;
  delayMs?: number;
  /** Only for a request whose path ends with this (e.g. "/cancel"); others pass it by. */
  path?: string;
}

const MAX_DESCRIPTION = 37;

/**
 * A local stand-in for the PIX gateway's v1 HTTP API (AbacatePay-style) on 127.0.0.1: `POST
 * /v1/pixQrCode/create`, `GET /v1/pixQrCode/check?id=`, `POST /v1/pixQrCode/cancel?id=` (a PENDING charge becomes
 * CANCELLED; any other keeps its status), `POST /v1/pixQrCode/refund?id=` (a PAID charge's money returned, once per
 * `Idempotency-Key`: the charge becomes REFUNDED), `POST /v1/pixQrCode/simulate-payment?id=` (dev mode only),
 * `Authorization: Bearer <apiKey>` (401 otherwise), answers `{data, error}`. A create with an `Idempotency-Key`
 * already used answers the charge that key made.
 */
export class FakePixGateway {
  readonly charges = new Map<string, FakePixCharge>();
  readonly requests: FakePixRequest[] = [];
  /** Refunds made, in order: the money the gateway returned. */
  readonly refunds: Array<{ id: string; chargeId: string; amount: number }> = [];
  url = "";
  private server!: Server;
  private readonly overrides: FakePixOverride[] = [];
  /** The charge id each idempotency key made (a promise while it is being made, so concurrent requests share it). */
  private readonly byKey = new Map<string, Promise<string>>();
  private readonly refundsByKey = new Map<string, { id: string; chargeId: string; amount: number }>();
  private held: RequestHold | null = null;
  /** When set, a create makes a new charge whatever its `Idempotency-Key` (a gateway that keeps no keys). */
  ignoreIdempotencyKeys = false;
  private readonly arrivals = new Arrivals((suffix) => this.requestsTo(suffix).length);

  constructor(readonly options: { apiKey: string; devMode: boolean }) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        send(res, 500, { data: null, error: `fake failure: ${String(error)}` });
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The next request (to `override.path`, when given) gets this answer instead of the API's (queued: one per request). */
  answerNext(override: FakePixOverride): void {
    this.overrides.push(override);
  }

  /** Moves a charge to another status (as the gateway would on payment, expiry, cancel or refund). */
  setStatus(id: string, status: FakePixStatus): void {
    const charge = this.charges.get(id);
    if (!charge) throw new Error(`fake PIX gateway: no charge ${id}`);
    charge.status = status;
    charge.updatedAt = new Date().toISOString();
  }

  /** Requests whose path ends with `suffix` (e.g. "/create"). */
  requestsTo(suffix: string): FakePixRequest[] {
    return this.requests.filter((r) => r.path.endsWith(suffix));
  }

  reset(): void {
    this.charges.clear();
    this.requests.length = 0;
    this.overrides.length = 0;
    this.byKey.clear();
    this.refunds.length = 0;
    this.refundsByKey.clear();
    this.held = null;
    this.ignoreIdempotencyKeys = false;
  }

  /** Holds create requests (after recording them) until released. */
  hold(safetyMs?: number): RequestHold {
    this.held = new RequestHold(safetyMs);
    return this.held;
  }

  /** Resolves once `count` requests whose path ends with `suffix` have arrived. */
  waitForRequests(suffix: string, count: number): Promise<void> {
    return this.arrivals.waitFor(suffix, count);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake");
    const text = await readBody(req);
    let body: unknown = undefined;
    if (text !== "") {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    this.requests.push({
      method: req.method ?? "GET",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body,
    });
    this.arrivals.arrived();
    if (this.held && url.pathname === "/v1/pixQrCode/create") await this.held.passed();

    const index = this.overrides.findIndex((queued) => !queued.path || url.pathname.endsWith(queued.path));
    const override = index >= 0 ? this.overrides.splice(index, 1)[0] : undefined;
    if (override) {
      if (override.delayMs) await new Promise((resolve) => setTimeout(resolve, override.delayMs));
      res.writeHead(override.status, { "content-type": override.contentType ?? "application/json" });
      res.end(override.body);
      return;
    }

    const auth = req.headers.authorization ?? "";
    if (auth !== `Bearer ${this.options.apiKey}`) {
      // Echoes the token it got, as careless APIs do, so tests can check the client never repeats it.
      send(res, 401, { data: null, error: `Token de autenticação inválido ou ausente (${auth})` });
      return;
    }

    const route = `${req.method} ${url.pathname}`;
    const id = url.searchParams.get("id") ?? "";
    if (route === "POST /v1/pixQrCode/create") return this.createOnce(res, body, req.headers["idempotency-key"]);
    if (route === "GET /v1/pixQrCode/check") {
      const charge = this.charges.get(id);
      if (!charge) return send(res, 404, { data: null, error: "QRCode Pix não encontrado" });
      this.expireIfDue(charge);
      return send(res, 200, { data: { status: charge.status, expiresAt: charge.expiresAt }, error: null });
    }
    if (route === "POST /v1/pixQrCode/cancel") {
      const charge = this.charges.get(id);
      if (!charge) return send(res, 404, { data: null, error: "QRCode Pix não encontrado" });
      this.expireIfDue(charge);
      if (charge.status === "PENDING") this.setStatus(id, "CANCELLED");
      return send(res, 200, { data: publicCharge(charge), error: null });
    }
    if (route === "POST /v1/pixQrCode/refund") return this.refund(res, id, body, req.headers["idempotency-key"]);
    if (route === "POST /v1/pixQrCode/simulate-payment") {
      if (!this.options.devMode) {
        return send(res, 400, { data: null, error: "Simulação disponível apenas em modo de desenvolvimento" });
      }
      const charge = this.charges.get(id);
      if (!charge) return send(res, 404, { data: null, error: "QRCode Pix não encontrado" });
      this.expireIfDue(charge);
      if (charge.status !== "PENDING" && charge.status !== "PAID") {
        return send(res, 400, { data: null, error: `QRCode Pix está ${charge.status}` });
      }
      this.setStatus(id, "PAID");
      return send(res, 200, { data: publicCharge(charge), error: null });
    }
    send(res, 404, { data: null, error: "Rota não encontrada" });
  }

  /** A create, or with a key already used the charge that key made (the same answer, no second charge). */
  private async createOnce(res: ServerResponse, body: unknown, key: string | string[] | undefined): Promise<void> {
    if (typeof key !== "string" || this.ignoreIdempotencyKeys) return send(res, ...(await this.create(body)));
    let made = this.byKey.get(key);
    if (!made) {
      made = this.create(body).then(([status, answer]) => {
        if (status !== 200) throw Object.assign(new Error("refused"), { answer: [status, answer] as const });
        return (answer as { data: { id: string } }).data.id;
      });
      this.byKey.set(key, made);
      made.catch(() => this.byKey.delete(key));
    }
    try {
      const charge = this.charges.get(await made)!;
      send(res, 200, { data: publicCharge(charge), error: null });
    } catch (error) {
      send(res, ...(error as { answer: readonly [number, unknown] }).answer);
    }
  }

  private async create(body: unknown): Promise<[number, unknown]> {
    const input = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
    const amount = input.amount;
    if (typeof amount !== "number" || !Number.isInteger(amount) || amount < 1) {
      return [400, { data: null, error: "amount deve ser um inteiro em centavos" }];
    }
    const expiresIn = input.expiresIn ?? 86_400;
    if (typeof expiresIn !== "number" || expiresIn <= 0) {
      return [400, { data: null, error: "expiresIn inválido" }];
    }
    const customer = input.customer as Record<string, unknown> | undefined;
    if (customer && !["name", "cellphone", "email", "taxId"].every((field) => typeof customer[field] === "string")) {
      return [400, { data: null, error: "customer exige name, cellphone, email e taxId" }];
    }
    const random = randomBytes(10).toString("hex");
    const brCode = buildPixBrCode({
      url: `fake-pix.example/qr/v2/${random}`,
      merchantName: "FAKE PIX GATEWAY",
      merchantCity: "SAO PAULO",
      amountCents: amount,
      txid: random,
    });
    const now = new Date();
    const charge: FakePixCharge = {
      id: `pix_char_${random}`,
      amount,
      status: "PENDING",
      devMode: this.options.devMode,
      brCode,
      brCodeBase64: await qrPngDataUrl(brCode),
      platformFee: 80,
      description: typeof input.description === "string" ? input.description.slice(0, MAX_DESCRIPTION) : null,
      metadata: (input.metadata as Record<string, unknown> | undefined) ?? null,
      customer: customer ?? null,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + expiresIn * 1000).toISOString(),
    };
    this.charges.set(charge.id, charge);
    return [200, { data: publicCharge(charge), error: null }];
  }

  private refund(res: ServerResponse, id: string, body: unknown, key: string | string[] | undefined): void {
    if (typeof key !== "string") return send(res, 400, { data: null, error: "Idempotency-Key obrigatório" });
    const done = this.refundsByKey.get(key);
    if (done) return send(res, 200, { data: { ...done, status: "REFUNDED" }, error: null });
    const charge = this.charges.get(id);
    if (!charge) return send(res, 404, { data: null, error: "QRCode Pix não encontrado" });
    if (charge.status !== "PAID") return send(res, 400, { data: null, error: `QRCode Pix está ${charge.status}` });
    const amount = (body as { amount?: unknown } | undefined)?.amount;
    if (amount !== charge.amount) return send(res, 400, { data: null, error: "A devolução é do valor total" });
    const refund = { id: `pix_refund_${randomBytes(10).toString("hex")}`, chargeId: id, amount: charge.amount };
    this.refunds.push(refund);
    this.refundsByKey.set(key, refund);
    this.setStatus(id, "REFUNDED");
    send(res, 200, { data: { ...refund, status: "REFUNDED" }, error: null });
  }

  private expireIfDue(charge: FakePixCharge): void {
    if (charge.status === "PENDING" && Date.parse(charge.expiresAt) <= Date.now()) this.setStatus(charge.id, "EXPIRED");
  }
}

/** The `data` of create and simulate-payment answers. */
function publicCharge(charge: FakePixCharge) {
  const { id, amount, status, devMode, brCode, brCodeBase64, platformFee, createdAt, updatedAt, expiresAt } = charge;
  return { id, amount, status, devMode, brCode, brCodeBase64, platformFee, createdAt, updatedAt, expiresAt };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
