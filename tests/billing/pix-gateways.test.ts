import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isValidBrCode, parseEmv } from "../../src/modules/billing/gateways/pix/br-code.js";
import { HttpPixGateway } from "../../src/modules/billing/gateways/pix/http-pix-gateway.js";
import { PixGatewayError } from "../../src/modules/billing/gateways/pix/pix-gateway-error.js";
import type { PixChargeInput } from "../../src/modules/billing/gateways/pix/pix-gateway.js";
import { SandboxPixGateway } from "../../src/modules/billing/gateways/pix/sandbox-pix-gateway.js";
import { ManualClock } from "../../src/platform/clock.js";
import { FakePixGateway } from "../helpers/fake-pix-gateway.js";

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const API_KEY = "abc_dev_Sup3rS3cretKeyForTests";

const input = (overrides: Partial<PixChargeInput> = {}): PixChargeInput => ({
  amountCents: 4990,
  description: "Assinatura Premium Mensal - Fitness Training",
  reference: "sub_42",
  customer: { name: "Ana Souza", email: "ana@example.com" },
  expiresInSeconds: 3600,
  idempotencyKey: randomUUID(),
  ...overrides,
});

function expectPngDataUrl(dataUrl: string): void {
  expect(dataUrl).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
  const bytes = Buffer.from(dataUrl.slice("data:image/png;base64,".length), "base64");
  expect(bytes.subarray(0, 8).equals(PNG_MAGIC)).toBe(true);
}

/** The error a promise rejects with (fails the test when it resolves). */
async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    return error as Error;
  }
  throw new Error("expected the call to fail");
}

function expectNoKey(error: Error): void {
  const seen = [error.message, error.stack ?? "", String(error.cause ?? ""), JSON.stringify(error)].join("\n");
  expect(seen).not.toContain(API_KEY);
}

describe("SandboxPixGateway", () => {
  it("creates a PENDING charge with a valid BR Code for the amount and a PNG QR code", async () => {
    const clock = new ManualClock(new Date("2025-03-01T12:00:00Z"));
    const gateway = new SandboxPixGateway({ clock });
    expect(gateway.name).toBe("sandbox");
    expect(gateway.canSimulate).toBe(true);

    const charge = await gateway.createCharge(input());

    expect(charge.id).toMatch(/^pix_char_[0-9a-f]{20}$/);
    expect(charge).toMatchObject({ amountCents: 4990, status: "PENDING" });
    expect(charge.createdAt).toEqual(new Date("2025-03-01T12:00:00Z"));
    expect(charge.expiresAt).toEqual(new Date("2025-03-01T13:00:00Z"));
    expect(isValidBrCode(charge.brCode)).toBe(true);
    const fields = Object.fromEntries(parseEmv(charge.brCode).map((f) => [f.id, f.value]));
    expect(fields["54"]).toBe("49.90");
    expect(fields["62"]).toBe(`0520${charge.id.slice("pix_char_".length)}`);
    expectPngDataUrl(charge.brCodeBase64);
    expect(await gateway.checkStatus(charge.id)).toBe("PENDING");
  });

  it("gives every charge its own id", async () => {
    const gateway = new SandboxPixGateway();
    const [a, b] = await Promise.all([gateway.createCharge(input()), gateway.createCharge(input())]);
    expect(a.id).not.toBe(b.id);
    expect(a.brCode).not.toBe(b.brCode);
  });

  it("marks a charge PAID when a payment is simulated, and again is a no-op", async () => {
    const gateway = new SandboxPixGateway();
    const charge = await gateway.createCharge(input());
    await gateway.simulatePayment(charge.id);
    expect(await gateway.checkStatus(charge.id)).toBe("PAID");
    await gateway.simulatePayment(charge.id);
    expect(await gateway.checkStatus(charge.id)).toBe("PAID");
  });

  it("reports EXPIRED once the clock passes expiresAt and refuses to pay it", async () => {
    const clock = new ManualClock(new Date("2025-03-01T12:00:00Z"));
    const gateway = new SandboxPixGateway({ clock });
    const charge = await gateway.createCharge(input({ expiresInSeconds: 600 }));
    clock.advance(599_999);
    expect(await gateway.checkStatus(charge.id)).toBe("PENDING");
    clock.advance(1);
    expect(await gateway.checkStatus(charge.id)).toBe("EXPIRED");
    await expect(gateway.simulatePayment(charge.id)).rejects.toThrow(PixGatewayError);
    expect(await gateway.checkStatus(charge.id)).toBe("EXPIRED");
  });

  it("keeps a paid charge PAID after its expiry", async () => {
    const clock = new ManualClock();
    const gateway = new SandboxPixGateway({ clock });
    const charge = await gateway.createCharge(input({ expiresInSeconds: 60 }));
    await gateway.simulatePayment(charge.id);
    clock.advance(3_600_000);
    expect(await gateway.checkStatus(charge.id)).toBe("PAID");
  });

  it("answers null for an unknown id and refuses to pay it", async () => {
    const gateway = new SandboxPixGateway();
    expect(await gateway.checkStatus("pix_char_unknown")).toBeNull();
    await expect(gateway.simulatePayment("pix_char_unknown")).rejects.toThrow(/not found/);
  });

  it("does not let callers mutate its stored charge", async () => {
    const gateway = new SandboxPixGateway();
    const charge = await gateway.createCharge(input());
    charge.status = "PAID";
    expect(await gateway.checkStatus(charge.id)).toBe("PENDING");
  });

  it("answers the same charge to the same idempotency key, also to concurrent requests", async () => {
    const gateway = new SandboxPixGateway();
    const same = input();
    const [a, b] = await Promise.all([gateway.createCharge(same), gateway.createCharge(same)]);
    const c = await gateway.createCharge(same);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect((await gateway.createCharge(input())).id).not.toBe(a.id);
  });

  it("cancels a PENDING charge, which can then not be paid; a paid one stays PAID; an unknown id is null", async () => {
    const gateway = new SandboxPixGateway();
    const pending = await gateway.createCharge(input());
    expect(await gateway.cancelCharge(pending.id)).toBe("CANCELLED");
    await expect(gateway.simulatePayment(pending.id)).rejects.toThrow(PixGatewayError);
    const paid = await gateway.createCharge(input());
    await gateway.simulatePayment(paid.id);
    expect(await gateway.cancelCharge(paid.id)).toBe("PAID");
    expect(await gateway.cancelCharge("pix_char_unknown")).toBeNull();
  });

  it("refuses non-integer or non-positive amounts", async () => {
    const gateway = new SandboxPixGateway();
    await expect(gateway.createCharge(input({ amountCents: 49.9 }))).rejects.toThrow(PixGatewayError);
    await expect(gateway.createCharge(input({ amountCents: 0 }))).rejects.toThrow(PixGatewayError);
  });
});

describe("HttpPixGateway against the fake PIX API", () => {
  const devFake = new FakePixGateway({ apiKey: API_KEY, devMode: true });
  const prodFake = new FakePixGateway({ apiKey: API_KEY, devMode: false });
  let devUrl = "";
  let prodUrl = "";

  beforeAll(async () => {
    devUrl = await devFake.start();
    prodUrl = await prodFake.start();
  });
  afterEach(() => {
    devFake.reset();
    prodFake.reset();
  });
  afterAll(async () => {
    await devFake.stop();
    await prodFake.stop();
  });

  const devGateway = () => new HttpPixGateway({ apiUrl: devUrl, apiKey: API_KEY, devMode: true });

  it("creates a charge: amount in cents, Bearer key, expiry and reference sent; response mapped", async () => {
    const gateway = devGateway();
    expect(gateway.name).toBe("http");

    const charge = await gateway.createCharge(input());

    const [request] = devFake.requestsTo("/v1/pixQrCode/create");
    expect(request.method).toBe("POST");
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.body).toEqual({
      amount: 4990,
      expiresIn: 3600,
      description: "Assinatura Premium Mensal - Fitness T",
      metadata: { externalId: "sub_42" },
    });
    const stored = devFake.charges.get(charge.id)!;
    expect(charge).toEqual({
      id: stored.id,
      amountCents: 4990,
      status: "PENDING",
      brCode: stored.brCode,
      brCodeBase64: stored.brCodeBase64,
      expiresAt: new Date(stored.expiresAt),
      createdAt: new Date(stored.createdAt),
    });
    expect(isValidBrCode(charge.brCode)).toBe(true);
    expectPngDataUrl(charge.brCodeBase64);
  });

  it("sends the idempotency key, and the gateway answers a repeated key with the charge it made", async () => {
    const gateway = devGateway();
    const same = input();
    const [a, b] = await Promise.all([gateway.createCharge(same), gateway.createCharge(same)]);
    const c = await gateway.createCharge(same);
    expect(devFake.requestsTo("/v1/pixQrCode/create").map((r) => r.headers["idempotency-key"])).toEqual(Array(3).fill(same.idempotencyKey));
    expect([b.id, c.id]).toEqual([a.id, a.id]);
    expect(devFake.charges.size).toBe(1);
  });

  it("cancels a charge: POST /v1/pixQrCode/cancel?id=, the status after it; null for an id the gateway does not know", async () => {
    const gateway = devGateway();
    const pending = await gateway.createCharge(input());
    expect(await gateway.cancelCharge(pending.id)).toBe("CANCELLED");
    const [cancel] = devFake.requestsTo("/v1/pixQrCode/cancel");
    expect([cancel.method, cancel.query, cancel.headers.authorization]).toEqual(["POST", { id: pending.id }, `Bearer ${API_KEY}`]);
    expect(devFake.charges.get(pending.id)!.status).toBe("CANCELLED");

    const paid = await gateway.createCharge(input());
    devFake.setStatus(paid.id, "PAID");
    expect(await gateway.cancelCharge(paid.id)).toBe("PAID");
    expect(await gateway.cancelCharge("pix_char_unknown")).toBeNull();
    devFake.answerNext({ status: 500, body: JSON.stringify({ data: null, error: "boom" }) });
    await expect(gateway.cancelCharge(pending.id)).rejects.toThrow(PixGatewayError);
  });

  it("refunds a paid charge in full, once per idempotency key; refuses an unpaid one", async () => {
    const gateway = devGateway();
    const charge = await gateway.createCharge(input());
    await expect(gateway.refundCharge(charge.id, 4990, "refund:unpaid")).rejects.toThrow(PixGatewayError);
    devFake.setStatus(charge.id, "PAID");

    const first = await gateway.refundCharge(charge.id, 4990, `refund:${charge.id}`);
    expect(await gateway.refundCharge(charge.id, 4990, `refund:${charge.id}`)).toEqual(first);
    const [request] = devFake.requestsTo("/v1/pixQrCode/refund").filter((r) => r.headers["idempotency-key"] === `refund:${charge.id}`);
    expect([request.method, request.query, request.body]).toEqual(["POST", { id: charge.id }, { amount: 4990 }]);
    expect(devFake.refunds).toEqual([{ id: first.refundId, chargeId: charge.id, amount: 4990 }]);
    expect(await gateway.checkStatus(charge.id)).toBe("CANCELLED"); // REFUNDED at the gateway
  });

  it("tolerates a trailing slash or /v1 in PIX_API_URL", async () => {
    for (const apiUrl of [`${devUrl}/`, `${devUrl}/v1`, `${devUrl}/v1/`]) {
      await new HttpPixGateway({ apiUrl, apiKey: API_KEY, devMode: true }).createCharge(input());
    }
    expect(devFake.requests.map((r) => r.path)).toEqual(Array(3).fill("/v1/pixQrCode/create"));
  });

  it("maps the gateway's status on check", async () => {
    const gateway = devGateway();
    const charge = await gateway.createCharge(input());
    expect(await gateway.checkStatus(charge.id)).toBe("PENDING");
    const check = devFake.requestsTo("/v1/pixQrCode/check")[0];
    expect(check).toMatchObject({ method: "GET", query: { id: charge.id } });
    expect(check.headers.authorization).toBe(`Bearer ${API_KEY}`);

    for (const [status, expected] of [
      ["PAID", "PAID"],
      ["EXPIRED", "EXPIRED"],
      ["CANCELLED", "CANCELLED"],
      ["REFUNDED", "CANCELLED"],
    ] as const) {
      devFake.setStatus(charge.id, status);
      expect(await gateway.checkStatus(charge.id)).toBe(expected);
    }
  });

  it("reports EXPIRED when the gateway expires the charge", async () => {
    const gateway = devGateway();
    const charge = await gateway.createCharge(input({ expiresInSeconds: 0.001 }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await gateway.checkStatus(charge.id)).toBe("EXPIRED");
  });

  it("answers null for an id the gateway does not know (404 or an error envelope)", async () => {
    const gateway = devGateway();
    expect(await gateway.checkStatus("pix_char_nope")).toBeNull();
    devFake.answerNext({ status: 200, body: JSON.stringify({ data: null, error: "QRCode not found" }) });
    expect(await gateway.checkStatus("pix_char_nope")).toBeNull();
    devFake.answerNext({ status: 404, body: "<html>Not Found</html>", contentType: "text/html" });
    expect(await gateway.checkStatus("pix_char_nope")).toBeNull();
  });

  it("simulates a payment in dev mode", async () => {
    const gateway = devGateway();
    expect(gateway.canSimulate).toBe(true);
    const charge = await gateway.createCharge(input());
    await gateway.simulatePayment(charge.id);
    const [request] = devFake.requestsTo("/v1/pixQrCode/simulate-payment");
    expect(request).toMatchObject({ method: "POST", query: { id: charge.id }, body: { metadata: {} } });
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(devFake.charges.get(charge.id)!.status).toBe("PAID");
    expect(await gateway.checkStatus(charge.id)).toBe("PAID");
  });

  it("refuses to simulate without dev mode, without calling the gateway", async () => {
    const gateway = new HttpPixGateway({ apiUrl: prodUrl, apiKey: API_KEY, devMode: false });
    expect(gateway.canSimulate).toBe(false);
    const charge = await gateway.createCharge(input());
    await expect(gateway.simulatePayment(charge.id)).rejects.toThrow(/dev mode/);
    expect(prodFake.requestsTo("/simulate-payment")).toHaveLength(0);
    expect(prodFake.charges.get(charge.id)!.status).toBe("PENDING");
  });

  it("raises the gateway's refusal when it is not in dev mode after all", async () => {
    const gateway = new HttpPixGateway({ apiUrl: prodUrl, apiKey: API_KEY, devMode: true });
    const charge = await gateway.createCharge(input());
    const error = await failureOf(gateway.simulatePayment(charge.id));
    expect(error).toBeInstanceOf(PixGatewayError);
    expect(error.message).toMatch(/HTTP 400.*modo de desenvolvimento/);
    expect(prodFake.charges.get(charge.id)!.status).toBe("PENDING");
  });

  it("raises a 401 without repeating the key, even when the gateway echoes it", async () => {
    const wrong = new HttpPixGateway({ apiUrl: devUrl, apiKey: API_KEY + "x", devMode: true });
    const error = await failureOf(wrong.createCharge(input()));
    expect(error).toBeInstanceOf(PixGatewayError);
    expect((error as PixGatewayError).status).toBe(401);
    expect(error.message).toMatch(/POST \/v1\/pixQrCode\/create failed with HTTP 401/);
    expect(error.message).toContain("[redacted]");
    expect(error.message).not.toContain(API_KEY);

    // A 401 on check is an error, not an unknown id.
    const checkError = await failureOf(wrong.checkStatus("pix_char_1"));
    expect((checkError as PixGatewayError).status).toBe(401);
    expect(checkError.message).not.toContain(API_KEY);
  });

  it("raises 500s and error envelopes with the gateway's message", async () => {
    const gateway = devGateway();
    devFake.answerNext({ status: 500, body: JSON.stringify({ data: null, error: `boom ${API_KEY}` }) });
    const error = await failureOf(gateway.createCharge(input()));
    expect(error.message).toMatch(/HTTP 500: boom \[redacted\]/);
    expectNoKey(error);

    devFake.answerNext({ status: 200, body: JSON.stringify({ data: null, error: "amount inválido" }) });
    const envelopeError = await failureOf(gateway.createCharge(input()));
    expect(envelopeError.message).toMatch(/HTTP 200: amount inválido/);

    devFake.answerNext({ status: 503, body: JSON.stringify({ data: null, error: "down" }) });
    expectNoKey(await failureOf(gateway.checkStatus("pix_char_1")));
  });

  it("raises on bodies that are not JSON or not the expected shape", async () => {
    const gateway = devGateway();
    devFake.answerNext({ status: 200, body: "<html>gateway</html>", contentType: "text/html" });
    const garbage = await failureOf(gateway.createCharge(input()));
    expect(garbage).toBeInstanceOf(PixGatewayError);
    expect(garbage.message).toMatch(/not JSON/);
    expectNoKey(garbage);

    devFake.answerNext({ status: 200, body: JSON.stringify({ data: { id: "pix_char_1" }, error: null }) });
    expect((await failureOf(gateway.createCharge(input()))).message).toMatch(/without the expected data/);

    devFake.answerNext({ status: 200, body: "[1,2]" });
    expect((await failureOf(gateway.createCharge(input()))).message).toMatch(/unexpected body/);

    devFake.answerNext({ status: 200, body: JSON.stringify({ data: { status: "WEIRD" }, error: null }) });
    expect((await failureOf(gateway.checkStatus("pix_char_1"))).message).toMatch(/unknown charge status/);
  });

  it("refuses a charge created for another amount", async () => {
    const gateway = devGateway();
    const data = {
      id: "pix_char_x",
      amount: 100,
      status: "PENDING",
      devMode: true,
      brCode: "000201",
      brCodeBase64: "data:image/png;base64,AAAA",
      platformFee: 80,
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
      expiresAt: new Date().toISOString(),
    };
    devFake.answerNext({ status: 200, body: JSON.stringify({ data, error: null }) });
    await expect(gateway.createCharge(input())).rejects.toThrow(/100 cents instead of 4990/);
  });

  it("times out a gateway that does not answer", async () => {
    const gateway = new HttpPixGateway({ apiUrl: devUrl, apiKey: API_KEY, devMode: true, timeoutMs: 50 });
    devFake.answerNext({ status: 200, body: "{}", delayMs: 500 });
    const error = await failureOf(gateway.checkStatus("pix_char_1"));
    expect(error.message).toMatch(/timed out/);
    expectNoKey(error);
  });

  it("raises when the gateway cannot be reached", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const gateway = new HttpPixGateway({ apiUrl: `http://127.0.0.1:${port}`, apiKey: API_KEY, devMode: true });
    const error = await failureOf(gateway.createCharge(input()));
    expect(error).toBeInstanceOf(PixGatewayError);
    expect(error.message).toMatch(/POST \/v1\/pixQrCode\/create could not be reached/);
    expectNoKey(error);
  });

  it("needs an API key", () => {
    expect(() => new HttpPixGateway({ apiUrl: devUrl, apiKey: "", devMode: false })).toThrow(/PIX_API_KEY/);
  });
});
