import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { CARD_EVENT_TOLERANCE_SECONDS, signCardEvent, verifyCardEvent } from "../../src/modules/billing/gateways/card/card-event-signature.js";
import { FakeStripe } from "../helpers/fake-stripe.js";

const SECRET = "whsec_test_card_webhook_secret";
const NOW = 1_750_000_000;
const event = {
  id: "evt_1",
  object: "event",
  type: "invoice.payment_succeeded",
  data: { object: { id: "in_1", amount_paid: 4990, currency: "brl", metadata: { subscriptionId: "42" } } },
};
const body = Buffer.from(JSON.stringify(event));

function v1(raw: Buffer | string, secret: string, t: number): string {
  return createHmac("sha256", secret).update(`${t}.${raw.toString()}`).digest("hex");
}

describe("signCardEvent", () => {
  it("writes t=<unix>,v1=<hex HMAC-SHA256(secret, t.body)>", () => {
    expect(signCardEvent(body, SECRET, NOW)).toBe(`t=${NOW},v1=${v1(body, SECRET, NOW)}`);
  });

  it("signs exactly as the Stripe SDK's test header does", () => {
    const sdkHeader = Stripe.webhooks.generateTestHeaderString({ payload: body.toString(), secret: SECRET, timestamp: NOW });
    expect(signCardEvent(body, SECRET, NOW)).toBe(sdkHeader);
    expect(signCardEvent(body.toString(), SECRET, NOW)).toBe(sdkHeader);
  });
});

describe("verifyCardEvent", () => {
  it("returns the event of a correctly signed body", async () => {
    expect(await verifyCardEvent(body, signCardEvent(body, SECRET, NOW), SECRET, NOW)).toEqual(event);
  });

  it("accepts a string body too", async () => {
    expect(await verifyCardEvent(body.toString(), signCardEvent(body, SECRET, NOW), SECRET, NOW)).toEqual(event);
  });

  it("refuses a tampered body", async () => {
    const header = signCardEvent(body, SECRET, NOW);
    const tampered = Buffer.from(body.toString().replace("4990", "1"));
    expect(await verifyCardEvent(tampered, header, SECRET, NOW)).toBeNull();
    expect(await verifyCardEvent(Buffer.concat([body, Buffer.from(" ")]), header, SECRET, NOW)).toBeNull();
  });

  it("refuses a signature made with another secret", async () => {
    expect(await verifyCardEvent(body, signCardEvent(body, "whsec_other", NOW), SECRET, NOW)).toBeNull();
  });

  it("refuses a signed timestamp that does not match the one in the header", async () => {
    const header = `t=${NOW + 1},v1=${v1(body, SECRET, NOW)}`;
    expect(await verifyCardEvent(body, header, SECRET, NOW)).toBeNull();
  });

  it("accepts a timestamp up to 5 minutes old and refuses an older one", async () => {
    const tolerance = CARD_EVENT_TOLERANCE_SECONDS;
    expect(tolerance).toBe(300);
    expect(await verifyCardEvent(body, signCardEvent(body, SECRET, NOW - 300), SECRET, NOW)).toEqual(event);
    expect(await verifyCardEvent(body, signCardEvent(body, SECRET, NOW - 301), SECRET, NOW)).toBeNull();
    expect(await verifyCardEvent(body, signCardEvent(body, SECRET, NOW - 86_400), SECRET, NOW)).toBeNull();
  });

  it("accepts a timestamp up to 5 minutes ahead and refuses a later one", async () => {
    expect(await verifyCardEvent(body, signCardEvent(body, SECRET, NOW + 300), SECRET, NOW)).toEqual(event);
    expect(await verifyCardEvent(body, signCardEvent(body, SECRET, NOW + 301), SECRET, NOW)).toBeNull();
    expect(await verifyCardEvent(body, signCardEvent(body, SECRET, NOW + 86_400), SECRET, NOW)).toBeNull();
  });

  it("follows the clock it is given, not the machine's", async () => {
    const header = signCardEvent(body, SECRET, 1_000_000);
    expect(await verifyCardEvent(body, header, SECRET, 1_000_100)).toEqual(event);
    expect(await verifyCardEvent(body, header, SECRET, Math.floor(Date.now() / 1000))).toBeNull();
  });

  it("accepts a header with several v1 signatures when one matches (secret rotation)", async () => {
    const good = v1(body, SECRET, NOW);
    const old = v1(body, "whsec_old", NOW);
    expect(await verifyCardEvent(body, `t=${NOW},v1=${old},v1=${good}`, SECRET, NOW)).toEqual(event);
    expect(await verifyCardEvent(body, `t=${NOW},v1=${good},v1=${old}`, SECRET, NOW)).toEqual(event);
    expect(await verifyCardEvent(body, `t=${NOW},v1=${old},v1=${"0".repeat(64)}`, SECRET, NOW)).toBeNull();
  });

  it("ignores other schemes and tolerates spaces after commas", async () => {
    const good = v1(body, SECRET, NOW);
    expect(await verifyCardEvent(body, `t=${NOW}, v0=${"a".repeat(64)}, v1=${good}`, SECRET, NOW)).toEqual(event);
    expect(await verifyCardEvent(body, `t=${NOW},v0=${good}`, SECRET, NOW)).toBeNull();
  });

  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["garbage", "nonsense"],
    ["no timestamp", `v1=${"a".repeat(64)}`],
    ["no signature", `t=${NOW}`],
    ["empty signature", `t=${NOW},v1=`],
    ["non-numeric timestamp", `t=abc,v1=${"a".repeat(64)}`],
    ["timestamp with junk", `t=${NOW}x,v1=${"a".repeat(64)}`],
    ["two timestamps", `t=${NOW},t=${NOW},v1=${"a".repeat(64)}`],
    ["entry without =", `t=${NOW},v1`],
  ])("refuses a %s header", async (_what, header) => {
    expect(await verifyCardEvent(body, header, SECRET, NOW)).toBeNull();
  });

  it("refuses a fractional timestamp even with a matching signature", async () => {
    const header = signCardEvent(body, SECRET, NOW).replace(`t=${NOW}`, `t=${NOW}.0`);
    expect(await verifyCardEvent(body, header, SECRET, NOW)).toBeNull();
  });

  it("refuses everything when the secret is empty", async () => {
    expect(await verifyCardEvent(body, signCardEvent(body, "", NOW), "", NOW)).toBeNull();
    expect(await verifyCardEvent(body, signCardEvent(body, "  ", NOW), "  ", NOW)).toBeNull();
  });

  it.each([
    ["not JSON", "{not json"],
    ["an array", "[]"],
    ["an object without id/type/data", '{"foo":1}'],
    ["an event without data.object", '{"id":"evt_1","type":"x","data":{}}'],
    ["an empty body", ""],
  ])("refuses a correctly signed body that is %s", async (_what, raw) => {
    expect(await verifyCardEvent(Buffer.from(raw), signCardEvent(raw, SECRET, NOW), SECRET, NOW)).toBeNull();
  });
});

describe("FakeStripe.sendWebhook", () => {
  it("delivers a signed event that verifyCardEvent accepts", async () => {
    const received: { headers: IncomingHttpHeaders; body: Buffer }[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks/card`;
    try {
      const sent = FakeStripe.event("customer.subscription.deleted", { id: "sub_1", object: "subscription", metadata: { subscriptionId: "42" } });
      const answer = await new FakeStripe().sendWebhook(url, sent, { secret: SECRET });
      expect(answer.status).toBe(200);

      const [delivery] = received;
      expect(delivery.headers["content-type"]).toMatch(/^application\/json/);
      const now = Math.floor(Date.now() / 1000);
      const verified = await verifyCardEvent(delivery.body, delivery.headers["card-signature"] as string, SECRET, now);
      expect(verified).toMatchObject({ id: sent.id, type: "customer.subscription.deleted", data: { object: { id: "sub_1" } } });

      await new FakeStripe().sendWebhook(url, sent, { secret: SECRET, headerName: "Stripe-Signature", timestampSeconds: NOW });
      expect(received[1].headers["stripe-signature"]).toBe(signCardEvent(received[1].body, SECRET, NOW));
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
