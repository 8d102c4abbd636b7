import { z } from "zod";
import { PixGatewayError } from "./pix-gateway-error.js";
import type { PixCharge, PixChargeInput, PixGateway, PixStatus } from "./pix-gateway.js";

export interface HttpPixGatewayOptions {
  /** PIX_API_URL, e.g. `https://api.abacatepay.com` (a trailing `/v1` is tolerated). */
  apiUrl: string;
  /** PIX_API_KEY, sent as `Authorization: Bearer …` and never put in an error message. */
  apiKey: string;
  /** PIX_DEV_MODE: the key is a dev-mode key, so payments can be simulated. */
  devMode: boolean;
  timeoutMs?: number;
}

/** The gateway keeps at most 37 characters of a charge description (v1 API). */
const MAX_DESCRIPTION = 37;
const MAX_ERROR_TEXT = 200;

const isoDate = z.string().refine((text) => !Number.isNaN(Date.parse(text)), "not a date");

const chargeSchema = z.object({
  id: z.string().min(1),
  amount: z.number().int(),
  status: z.string(),
  brCode: z.string().min(1),
  brCodeBase64: z.string().min(1),
  createdAt: isoDate,
  expiresAt: isoDate,
});

const checkSchema = z.object({ status: z.string() });

const refundSchema = z.object({ id: z.string().min(1) });

/** Every answer of the v1 API: `{data, error}`, one of them null. */
const envelopeSchema = z.object({
  data: z.unknown().optional(),
  error: z.union([z.string(), z.null()]).optional(),
});

type Envelope = z.infer<typeof envelopeSchema>;

/** One HTTP answer: what was asked (for messages), status and raw body. */
interface Answer {
  what: string;
  status: number;
  text: string;
}

/** The gateway's statuses in ours; REFUNDED (money returned) leaves the charge as good as cancelled. */
function toPixStatus(status: string): PixStatus {
  switch (status.toUpperCase()) {
    case "PENDING":
      return "PENDING";
    case "PAID":
      return "PAID";
    case "EXPIRED":
      return "EXPIRED";
    case "CANCELLED":
    case "CANCELED":
    case "REFUNDED":
      return "CANCELLED";
    default:
      throw new PixGatewayError(`PIX gateway returned an unknown charge status "${status.slice(0, 40)}"`);
  }
}

/**
 * The PIX gateway's HTTP API (AbacatePay-style v1): `POST /v1/pixQrCode/create` (with an `Idempotency-Key`),
 * `GET /v1/pixQrCode/check`, `POST /v1/pixQrCode/cancel`, `POST /v1/pixQrCode/refund` (the "devolução" of a paid
 * charge, with an `Idempotency-Key`), `POST /v1/pixQrCode/simulate-payment` (dev mode only), Bearer key, `{data,
 * error}` envelopes.
 */
export class HttpPixGateway implements PixGateway {
  readonly name = "http" as const;
  readonly canSimulate: boolean;
  private readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly timeoutMs: number;

  constructor(options: HttpPixGatewayOptions) {
    if (!options.apiKey) throw new Error("PIX_API_KEY is required with PIX_API_URL");
    this.baseUrl = options.apiUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
    this.apiKey = options.apiKey;
    this.canSimulate = options.devMode;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  async createCharge(input: PixChargeInput): Promise<PixCharge> {
    if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) {
      throw new PixGatewayError("PIX charge amount must be a positive number of cents");
    }
    // The v1 API takes a customer only with all of name, email, cellphone and taxId; we know two of them,
    // so the customer stays out and our reference rides in the metadata.
    const body = {
      amount: input.amountCents,
      expiresIn: input.expiresInSeconds,
      description: input.description.slice(0, MAX_DESCRIPTION),
      metadata: { externalId: input.reference },
    };
    const data = this.dataOf(await this.call("POST", "/v1/pixQrCode/create", body, input.idempotencyKey), chargeSchema);
    if (data.amount !== input.amountCents) {
      throw new PixGatewayError(`PIX gateway created charge ${data.id} for ${data.amount} cents instead of ${input.amountCents}`);
    }
    return {
      id: data.id,
      amountCents: data.amount,
      status: toPixStatus(data.status),
      brCode: data.brCode,
      brCodeBase64: data.brCodeBase64.startsWith("data:") ? data.brCodeBase64 : `data:image/png;base64,${data.brCodeBase64}`,
      expiresAt: new Date(data.expiresAt),
      createdAt: new Date(data.createdAt),
    };
  }

  async checkStatus(id: string): Promise<PixStatus | null> {
    return this.statusOf(await this.call("GET", `/v1/pixQrCode/check?id=${encodeURIComponent(id)}`));
  }

  async cancelCharge(id: string): Promise<PixStatus | null> {
    return this.statusOf(await this.call("POST", `/v1/pixQrCode/cancel?id=${encodeURIComponent(id)}`, {}));
  }

  async refundCharge(id: string, amountCents: number, idempotencyKey: string): Promise<{ refundId: string }> {
    const path = `/v1/pixQrCode/refund?id=${encodeURIComponent(id)}`;
    const data = this.dataOf(await this.call("POST", path, { amount: amountCents }, idempotencyKey), refundSchema);
    return { refundId: data.id };
  }

  /** The charge status an answer carries; null for an id the gateway does not know. */
  private statusOf(answer: Answer): PixStatus | null {
    // An id the gateway does not know: a 404, or a 2xx envelope carrying an error and no data.
    if (answer.status === 404) return null;
    if (answer.status >= 200 && answer.status < 300) {
      const envelope = this.envelopeOf(answer);
      if (envelope.error && (envelope.data === null || envelope.data === undefined)) return null;
    }
    return toPixStatus(this.dataOf(answer, checkSchema).status);
  }

  async simulatePayment(id: string): Promise<void> {
    if (!this.canSimulate) throw new PixGatewayError("PIX payments can be simulated only in dev mode");
    const path = `/v1/pixQrCode/simulate-payment?id=${encodeURIComponent(id)}`;
    this.dataOf(await this.call("POST", path, { metadata: {} }), z.unknown());
  }

  /** One request; throws on network failure or timeout. */
  private async call(method: "GET" | "POST", path: string, body?: unknown, idempotencyKey?: string): Promise<Answer> {
    const what = `${method} ${path.split("?")[0]}`;
    try {
      const response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.apiKey}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: "error",
      });
      return { what, status: response.status, text: await response.text() };
    } catch (error) {
      const reason = error instanceof Error && error.name === "TimeoutError" ? "timed out" : "could not be reached";
      throw new PixGatewayError(`PIX gateway ${what} ${reason}`, { cause: this.redact(error) });
    }
  }

  /** The answer's `{data, error}` envelope; a body that is not one is an error. */
  private envelopeOf({ what, status, text }: Answer): Envelope {
    let json: unknown;
    try {
      json = text === "" ? {} : JSON.parse(text);
    } catch {
      throw new PixGatewayError(`PIX gateway ${what} answered HTTP ${status} with a body that is not JSON: ${this.clip(text)}`, { status });
    }
    const envelope = envelopeSchema.safeParse(json);
    if (!envelope.success) {
      throw new PixGatewayError(`PIX gateway ${what} answered HTTP ${status} with an unexpected body: ${this.clip(text)}`, { status });
    }
    return envelope.data;
  }

  /** The envelope's data checked against `schema`; non-2xx answers and `error` envelopes become errors. */
  private dataOf<T>(answer: Answer, schema: z.ZodType<T>): T {
    const { what, status } = answer;
    const envelope = this.envelopeOf(answer);
    if (status < 200 || status >= 300 || envelope.error) {
      const detail = envelope.error ? `: ${this.clip(envelope.error)}` : "";
      throw new PixGatewayError(`PIX gateway ${what} failed with HTTP ${status}${detail}`, { status });
    }
    const data = schema.safeParse(envelope.data);
    if (!data.success) {
      throw new PixGatewayError(`PIX gateway ${what} answered without the expected data`, { status });
    }
    return data.data;
  }

  /** Gateway text made safe for an error message: the key removed, one line, at most 200 characters. */
  private clip(text: string): string {
    const safe = text.split(this.apiKey).join("[redacted]").replace(/\s+/g, " ").trim();
    return safe.length > MAX_ERROR_TEXT ? `${safe.slice(0, MAX_ERROR_TEXT)}…` : safe;
  }

  /** A network error as a cause, with the key scrubbed from its message should it ever appear there. */
  private redact(error: unknown): unknown {
    if (error instanceof Error && error.message.includes(this.apiKey)) return new Error(this.clip(error.message));
    return error;
  }
}
