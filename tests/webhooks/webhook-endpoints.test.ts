import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { makeStudent, makeTrainer, makeUser } from "../factories/users.js";
import { rowsOf } from "../helpers/database.js";
import { useTestApp } from "../helpers/test-app.js";
import { createEndpoint } from "./support.js";

const ADMIN_EMAIL = "admin-endpoints@example.com";
const t = useTestApp({ ADMIN_EMAILS: ADMIN_EMAIL });
const URL_A = "https://hooks.example.com/fitness";

describe("webhook endpoints", () => {
  it("registers an endpoint and shows its secret only then; the database keeps it sealed", async () => {
    const trainer = await makeTrainer(t);
    const res = await t.post("/api/webhook-endpoints", {
      token: trainer.token,
      body: { url: URL_A, events: ["training_execution.created", "personal_record.achieved"], description: "Painel" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      url: URL_A,
      events: ["training_execution.created", "personal_record.achieved"],
      description: "Painel",
      enabled: true,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      createdAt: t.clock.now().toISOString(),
      updatedAt: t.clock.now().toISOString(),
    });
    const { secret, ...endpoint } = res.body;
    const read = await t.get(`/api/webhook-endpoints/${endpoint.id}`, { token: trainer.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(endpoint);

    const stored = rowsOf<Record<string, unknown>>(await t.db.execute(sql`select * from webhook_endpoints`));
    const dump = JSON.stringify(stored);
    expect(dump).not.toContain(secret.slice("whsec_".length));
    expect(dump).not.toContain(Buffer.from(secret.slice("whsec_".length), "base64").toString("hex"));
  });

  it("lists the caller's endpoints as a page; an administrator's listing has everyone's", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const admin = await makeUser(t, { email: ADMIN_EMAIL });
    const mine = await createEndpoint(t, trainer, URL_A, ["invite.updated"]);
    t.clock.advance(1000);
    const other = await createEndpoint(t, student, URL_A, ["link.updated"]);

    const page = await t.get("/api/webhook-endpoints", { token: trainer.token });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ totalElements: 1, number: 0, size: 20, first: true, last: true });
    expect(page.body.content.map((e: { id: number }) => e.id)).toEqual([mine.id]);
    expect(page.body.content[0]).not.toHaveProperty("secret");

    const all = await t.get("/api/webhook-endpoints", { token: admin.token });
    expect(all.body.content.map((e: { id: number }) => e.id)).toEqual([other.id, mine.id]);
    expect((await t.get(`/api/webhook-endpoints/${mine.id}`, { token: admin.token })).status).toBe(200);
    expect((await t.get("/api/webhook-endpoints?sort=secret,asc", { invalidRequest: true, token: trainer.token })).body.message).toBe(
      "Parâmetro inválido: sort",
    );
  });

  it("answers the pages after the first (their statement has an OFFSET, the first page's has none)", async () => {
    const trainer = await makeTrainer(t);
    const ids: number[] = [];
    for (const suffix of ["a", "b", "c"]) {
      ids.push((await createEndpoint(t, trainer, `${URL_A}/${suffix}`, ["invite.updated"])).id);
      t.clock.advance(1000);
    }
    const pageOf = async (page: number) => {
      const res = await t.get(`/api/webhook-endpoints?size=1&page=${page}&sort=id,asc`, { token: trainer.token });
      expect(res.status).toBe(200);
      return res.body as { content: { id: number }[]; totalElements: number; number: number; last: boolean };
    };
    const pages = [await pageOf(0), await pageOf(1), await pageOf(2), await pageOf(3)];
    expect(pages.map((page) => page.content.map((e) => e.id))).toEqual([[ids[0]], [ids[1]], [ids[2]], []]);
    expect(pages.map((page) => [page.number, page.totalElements, page.last])).toEqual([
      [0, 3, false],
      [1, 3, false],
      [2, 3, true],
      [3, 3, true],
    ]);
  });

  it("changes, rotates, tests and deletes an endpoint", async () => {
    const student = await makeStudent(t);
    const endpoint = await createEndpoint(t, student, URL_A, ["invite.updated"]);
    t.clock.advance(1000);
    const changed = await t.patch(`/api/webhook-endpoints/${endpoint.id}`, {
      token: student.token,
      body: { events: ["link.updated", "plan_assignment.updated"], description: "  ", enabled: false },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      url: URL_A,
      events: ["link.updated", "plan_assignment.updated"],
      description: null,
      enabled: false,
      updatedAt: t.clock.now().toISOString(),
    });

    const rotated = await t.post(`/api/webhook-endpoints/${endpoint.id}/rotate-secret`, { token: student.token });
    expect(rotated.status).toBe(200);
    expect(Object.keys(rotated.body)).toEqual(["secret"]);

    const ping = await t.post(`/api/webhook-endpoints/${endpoint.id}/test`, { token: student.token });
    expect(ping.status).toBe(202);
    expect(ping.body).toMatchObject({ eventType: "ping", status: "PENDING", attempts: 0, lastStatusCode: null, deliveredAt: null });
    const deliveries = await t.get(`/api/webhook-endpoints/${endpoint.id}/deliveries`, { token: student.token });
    expect(deliveries.body.content).toEqual([ping.body]);

    expect((await t.delete(`/api/webhook-endpoints/${endpoint.id}`, { token: student.token })).status).toBe(204);
    expect((await t.get(`/api/webhook-endpoints/${endpoint.id}`, { token: student.token })).status).toBe(404);
  });

  it("answers 401 without a token, 403 to another user, 404 for an unknown endpoint or delivery, 400 for a bad id", async () => {
    const owner = await makeTrainer(t);
    const other = await makeTrainer(t);
    const endpoint = await createEndpoint(t, owner, URL_A, ["invite.updated"]);
    const ping = await t.post(`/api/webhook-endpoints/${endpoint.id}/test`, { token: owner.token });

    expect((await t.get("/api/webhook-endpoints")).status).toBe(401);
    expect((await t.post("/api/webhook-endpoints", { body: { url: URL_A, events: ["invite.updated"] } })).status).toBe(401);
    const paths = [
      ["GET", `/api/webhook-endpoints/${endpoint.id}`],
      ["PATCH", `/api/webhook-endpoints/${endpoint.id}`],
      ["DELETE", `/api/webhook-endpoints/${endpoint.id}`],
      ["POST", `/api/webhook-endpoints/${endpoint.id}/rotate-secret`],
      ["POST", `/api/webhook-endpoints/${endpoint.id}/test`],
      ["GET", `/api/webhook-endpoints/${endpoint.id}/deliveries`],
      ["POST", `/api/webhook-endpoints/${endpoint.id}/deliveries/${ping.body.id}/retry`],
    ];
    for (const [method, path] of paths) {
      const res = await t.request(method, path, { token: other.token, body: method === "PATCH" ? { description: "x" } : undefined });
      expect([path, res.status, res.body]).toEqual([path, 403, { message: "Acesso negado", success: false }]);
      const missing = await t.request(method, path.replace(String(endpoint.id), "999999"), {
        token: owner.token,
        body: method === "PATCH" ? { description: "x" } : undefined,
      });
      expect([path, missing.status, missing.body.message]).toEqual([path, 404, "Endpoint não encontrado"]);
      const malformed = await t.request(method, path.replace(String(endpoint.id), "abc"), {
        invalidRequest: true,
        token: owner.token,
        body: method === "PATCH" ? { description: "x" } : undefined,
      });
      expect([path, malformed.status, malformed.body]).toEqual([path, 400, { message: "Parâmetro inválido: id", success: false }]);
    }
    const unknownDelivery = await t.post(`/api/webhook-endpoints/${endpoint.id}/deliveries/999999/retry`, { token: owner.token });
    expect([unknownDelivery.status, unknownDelivery.body.message]).toEqual([404, "Entrega não encontrada"]);
    // Nothing changed for the stranger's tries.
    expect((await t.get(`/api/webhook-endpoints/${endpoint.id}`, { token: owner.token })).body.description).toBe("painel");
  });

  it("refuses an invalid body with every problem at once", async () => {
    const user = await makeStudent(t);
    const res = await t.post("/api/webhook-endpoints", {
      invalidRequest: true,
      token: user.token,
      body: { url: "ftp://example.com/x", events: ["invite.updated", "payment.refunded"], description: "x".repeat(2001) },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Validation failed");
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["description", "events[1]", "url"]);

    const long = await t.post("/api/webhook-endpoints", {
      invalidRequest: true,
      token: user.token,
      body: { url: `https://example.com/${"a".repeat(2040)}`, events: [] },
    });
    expect(long.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["events", "url"]);
    const repeated = await t.post("/api/webhook-endpoints", {
      invalidRequest: true,
      token: user.token,
      body: { url: URL_A, events: ["link.updated", "link.updated"] },
    });
    expect(repeated.body.errors).toEqual([{ field: "events", message: "Eventos repetidos" }]);
    const patch = await t.patch(`/api/webhook-endpoints/${(await createEndpoint(t, user, URL_A, ["link.updated"])).id}`, {
      invalidRequest: true,
      token: user.token,
      body: { url: "notaurl", enabled: "yes" },
    });
    expect(patch.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["enabled", "url"]);
  });

  it("is described in the OpenAPI document", async () => {
    const document = (await t.get("/api/openapi.json")).body;
    for (const path of [
      "/webhook-endpoints",
      "/webhook-endpoints/{id}",
      "/webhook-endpoints/{id}/rotate-secret",
      "/webhook-endpoints/{id}/test",
      "/webhook-endpoints/{id}/deliveries",
      "/webhook-endpoints/{id}/deliveries/{deliveryId}/retry",
    ]) {
      expect(Object.keys(document.paths), path).toContain(path);
    }
    expect(Object.keys(document.paths["/webhook-endpoints/{id}"])).toEqual(["get", "patch", "delete"]);
  });
});
