import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { makeStudent } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";
import { createEndpoint, deliverWebhooks, deliveriesOf, Receiver } from "./support.js";

// Production mode: https only, and no address inside the service's network (contract §14.1).
const t = useTestApp({ NODE_ENV: "production", PUBLIC_BASE_URL: "https://api.fitness.test", ALLOW_SANDBOX_PAYMENTS: "true" });
/** A public address literal: accepted without asking DNS (never connected to here). */
const PUBLIC_URL = "https://93.184.215.14/hooks";

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
});

describe("webhook URLs in production", () => {
  it.each([
    ["http://93.184.215.14/hooks", "A URL deve usar https"],
    ["https://localhost/hooks", "Endereço não permitido para webhooks"],
    ["https://127.0.0.1/hooks", "Endereço não permitido para webhooks"],
    ["https://127.1.2.3:8443/hooks", "Endereço não permitido para webhooks"],
    ["https://0.0.0.0/hooks", "Endereço não permitido para webhooks"],
    ["https://10.1.2.3/hooks", "Endereço não permitido para webhooks"],
    ["https://172.16.5.4/hooks", "Endereço não permitido para webhooks"],
    ["https://192.168.0.10/hooks", "Endereço não permitido para webhooks"],
    ["https://100.64.0.1/hooks", "Endereço não permitido para webhooks"],
    ["https://169.254.169.254/latest/meta-data/", "Endereço não permitido para webhooks"],
    ["https://[::1]/hooks", "Endereço não permitido para webhooks"],
    ["https://[::]/hooks", "Endereço não permitido para webhooks"],
    ["https://[::ffff:127.0.0.1]/hooks", "Endereço não permitido para webhooks"],
    ["https://[::ffff:a9fe:a9fe]/hooks", "Endereço não permitido para webhooks"],
    ["https://[fe80::1]/hooks", "Endereço não permitido para webhooks"],
    ["https://[fc00::1]/hooks", "Endereço não permitido para webhooks"],
    ["https://[fd00:ec2::254]/hooks", "Endereço não permitido para webhooks"],
    ["https://name-that-does-not-resolve.invalid/hooks", "Não foi possível resolver o endereço da URL"],
    // IPv6 forms that carry a refused IPv4 address inside.
    ["https://[::127.0.0.1]/hooks", "Endereço não permitido para webhooks"], // IPv4-compatible; URLs write it [::7f00:1]
    ["https://[::a9fe:a9fe]/hooks", "Endereço não permitido para webhooks"],
    ["https://[::ffff:0:a00:1]/hooks", "Endereço não permitido para webhooks"], // SIIT
    ["https://[64:ff9b::127.0.0.1]/hooks", "Endereço não permitido para webhooks"], // NAT64
    ["https://[64:ff9b::a9fe:a9fe]/hooks", "Endereço não permitido para webhooks"],
    ["https://[64:ff9b:1::5db8:d70e]/hooks", "Endereço não permitido para webhooks"], // local-use NAT64, whatever inside
    ["https://[2002:7f00:1::1]/hooks", "Endereço não permitido para webhooks"], // 6to4
    ["https://[2002:c0a8:101::]/hooks", "Endereço não permitido para webhooks"],
    ["https://[2001:0:5ef5:79fb::80ff:fffe]/hooks", "Endereço não permitido para webhooks"], // Teredo, client 127.0.0.1
    ["https://[2001:0:a00:1::a246:28f1]/hooks", "Endereço não permitido para webhooks"], // Teredo, server 10.0.0.1
    ["https://[2001:db8:1::5efe:a00:1]/hooks", "Endereço não permitido para webhooks"], // ISATAP
    ["https://[2001:db8:1::200:5efe:c0a8:1]/hooks", "Endereço não permitido para webhooks"],
  ])("refuses %s at registration", async (url, message) => {
    const user = await makeStudent(t);
    const res = await t.post("/api/webhook-endpoints", { token: user.token, body: { url, events: ["invite.updated"] } });
    expect([res.status, res.body.errors]).toEqual([400, [{ field: "url", message }]]);
  });

  it.each([["https://[::ffff:93.184.215.14]/hooks"], ["https://[64:ff9b::5db8:d70e]/hooks"], ["https://[2002:5db8:d70e::1]/hooks"]])(
    "accepts %s, an IPv6 form of a public IPv4 address",
    async (url) => {
      const user = await makeStudent(t);
      const res = await t.post("/api/webhook-endpoints", { token: user.token, body: { url, events: ["invite.updated"] } });
      expect(res.status).toBe(201);
    },
  );

  it("accepts a public https URL, and refuses a private one when it is changed to it", async () => {
    const user = await makeStudent(t);
    const endpoint = await createEndpoint(t, user, PUBLIC_URL, ["invite.updated"]);
    const res = await t.patch(`/api/webhook-endpoints/${endpoint.id}`, { token: user.token, body: { url: "https://[::1]:8443/x" } });
    expect([res.status, res.body.errors]).toEqual([400, [{ field: "url", message: "Endereço não permitido para webhooks" }]]);
  });

  it.each([["localhost"], ["127.0.0.1"], ["[::1]"], ["[::ffff:127.0.0.1]"], ["[::127.0.0.1]"], ["[2002:7f00:1::1]"]])(
    "checks the address again at delivery: a URL that now leads to %s is not connected to",
    async (host) => {
      const user = await makeStudent(t);
      const r = await new Receiver(t.clock).start();
      receivers.push(r);
      const endpoint = await createEndpoint(t, user, PUBLIC_URL, ["invite.updated"]);
      // As if its name resolved elsewhere by now: the stored URL points at the receiver on loopback.
      const port = new URL(r.url).port;
      await t.db.execute(sql`update webhook_endpoints set url = ${`https://${host}:${port}/hooks`} where id = ${endpoint.id}`);
      await t.post(`/api/webhook-endpoints/${endpoint.id}/test`, { token: user.token });
      await deliverWebhooks(t);
      const [delivery] = await deliveriesOf(t, user, endpoint.id);
      expect(delivery).toMatchObject({ status: "PENDING", attempts: 1, lastStatusCode: null, lastError: "Endereço não permitido para webhooks" });
      expect(r.received).toHaveLength(0);
    },
  );
});
