import { gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeUser } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";
import { rowsOf } from "../helpers/database.js";
import { startUnmigratedApp, type UnmigratedApp } from "../helpers/unmigrated-app.js";

const t = useTestApp();

const NOT_FOUND = { message: "Recurso não encontrado", success: false };

/** Nothing that looks like a stack trace, a stack property or a source path. */
function expectNoStack(text: string) {
  expect(text).not.toMatch(/stack/i);
  expect(text).not.toMatch(/\bat \S.*:\d+:\d+/);
  expect(text).not.toMatch(/node_modules|file:\/\/|\.ts:\d+/);
}

describe("health", () => {
  it("answers GET /healthz 200 {status: ok}", async () => {
    const res = await t.get("/healthz");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
  });

  it("answers GET /readyz 200 when the database is reachable and migrated", async () => {
    const res = await t.get("/readyz");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ready" });
  });
});

describe("metrics", () => {
  it("serves Prometheus text with the request duration histogram labelled by route and status", async () => {
    await t.get("/healthz");
    await t.get("/api/users/profile");
    const res = await t.get("/metrics");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).toContain("# TYPE http_request_duration_seconds histogram");
    expect(res.text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} \d+$/m);
    expect(res.text).toMatch(/^http_request_duration_seconds_bucket\{le="[\d.]+",method="GET",route="\/users\/profile",status="401"\} \d+$/m);
    expect(res.text).toMatch(/^process_cpu_user_seconds_total \d/m);
  });

  it("labels unknown paths as one route, so random URLs cannot blow up the series", async () => {
    const unmatched = async () => {
      const text = (await t.get("/metrics")).text;
      return Number(/^http_request_duration_seconds_count\{method="GET",route="unmatched",status="404"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    };
    const before = await unmatched();
    await t.get("/no/such/page-1");
    await t.get("/no/such/page-2");
    expect(await unmatched()).toBe(before + 2);
    expect((await t.get("/metrics")).text).not.toContain("page-1");
  });
});

describe("unknown routes", () => {
  it.each(["/nothing-here", "/api-not", "/uploads/0123456789abcdef0123456789abcdef.png", "/api/nothing-here"])(
    "answers 404 Recurso não encontrado to GET %s",
    async (url) => {
      const res = await t.get(url, { invalidRequest: true });
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(res.body).toEqual(NOT_FOUND);
    },
  );

  it("routes a REST path whatever the case of its segments and with a trailing slash, as Express matches paths", async () => {
    const categories = await t.get("/api/exercises/categories");
    expect(categories.status).toBe(200);
    for (const url of ["/api/EXERCISES/categories", "/api/Exercises/Categories/"]) {
      // Not the document's spelling of the path: outside what the contract checker matches.
      const res = await t.get(url, { invalidRequest: true });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(categories.body);
    }
    expect((await t.get("/api/USERS/profile", { invalidRequest: true })).status).toBe(401);
  });

  it("answers 404 to a method a known path does not serve", async () => {
    const res = await t.delete("/healthz");
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });
});

describe("security headers", () => {
  it.each(["/healthz", "/api/users/profile", "/nothing-here"])("sets helmet's headers on %s", async (url) => {
    const res = await t.get(url);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(res.headers.get("strict-transport-security")).toMatch(/^max-age=\d+/);
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    expect(res.headers.get("x-powered-by")).toBeNull();
  });

  it("sets them on GraphQL answers too", async () => {
    const res = await t.post("/graphql", { body: { query: "{ me { id } }" } });
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(res.headers.get("x-powered-by")).toBeNull();
  });
});

describe("CORS", () => {
  it("answers a preflight for POST /api/users/login with the allowed origin, method and headers", async () => {
    const res = await t.request("OPTIONS", "/api/users/login", {
      headers: {
        origin: "https://app.fitness.test",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,authorization,idempotency-key",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("idempotency-key");
    expect(res.headers.get("access-control-max-age")).toBe("600");
  });

  it("lets a browser read Retry-After, Content-Disposition, Idempotent-Replayed and X-Request-Id on a cross-origin answer", async () => {
    const res = await t.post("/api/users/login", { headers: { origin: "https://app.fitness.test" }, body: { email: "x@example.com", password: "segredo1" } });
    expect(res.status).toBe(404);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toBe("Retry-After,Content-Disposition,Idempotent-Replayed,X-Request-Id");
  });
});

describe("request bodies", () => {
  it("answers 413 Requisição muito grande to a GraphQL body over 1 MB", async () => {
    const res = await t.post("/graphql", { body: { query: "{ me { id } }", variables: { padding: "x".repeat(1_100_000) } } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: "Requisição muito grande", success: false });
  });

  it("refuses a NUL character in a text field as a validation error on both surfaces, writing nothing", async () => {
    const body = { name: "Ana\u0000", email: "ana@example.com", password: "segredo1", userType: "ALUNO", requestLocation: "WEB", confirmed: true };
    const rest = await t.post("/api/users/register", { body });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({ message: "Validation failed", success: false, errors: [{ field: "name", message: "Caractere inválido" }] });

    const gql = await t.graphql("mutation ($input: RegisterInput!) { register(input: $input) { userId } }", { input: body });
    expect(gql.errors![0].extensions).toEqual({ code: "BAD_USER_INPUT", status: 400, errors: rest.body.errors });

    const login = await t.post("/api/users/login", { body: { email: "ana\u0000@example.com", password: "segredo1" } });
    expect(login.status).toBe(400);
    expect(login.body.errors).toEqual([{ field: "email", message: "Caractere inválido" }]);
    const [row] = rowsOf<{ n: number }>(await t.db.execute(sql`select count(*)::int as n from users`));
    expect(row.n).toBe(0);
    expect(t.logLines.join("")).not.toContain("unhandled error");
  });
});

describe("bodies and paths a library refuses before any handler runs", () => {
  it.each([
    ["gzip", "gzip"],
    ["deflate", "deflate"],
    ["br", "br"],
  ])("answers 400 in the error shape to a %s-encoded body that does not inflate, registering nobody", async (_label, encoding) => {
    const res = await t.post("/api/users/register", {
      invalidRequest: true,
      raw: "isto não está comprimido",
      headers: { "content-type": "application/json", "content-encoding": encoding },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Requisição inválida", success: false });
    const [row] = rowsOf<{ n: number }>(await t.db.execute(sql`select count(*)::int as n from users`));
    expect(row.n).toBe(0);
    expect(t.logLines.join("")).not.toContain("unhandled error");
  });

  it("still reads a gzip-encoded body that does inflate", async () => {
    const body = JSON.stringify({ name: "Ana", email: "ana@example.com", password: "segredo1", userType: "ALUNO", requestLocation: "WEB", confirmed: true });
    const res = await t.post("/api/users/register", {
      invalidRequest: true,
      raw: gzipSync(body),
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    expect(res.status).toBe(201);
    expect(res.body.user.email).toBe("ana@example.com");
  });

  it.each(["/api/users/%E0%A4%A", "/api/users/%", "/api/users/%ZZ/update-profile-photo"])(
    "answers 400 Parâmetro inválido: id to a path parameter whose percent-encoding is broken: %s",
    async (url) => {
      const user = await makeUser(t);
      const res = await t.request(url.endsWith("photo") ? "POST" : "GET", url, { token: user.token, invalidRequest: true });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: "Parâmetro inválido: id", success: false });
      expect(t.logLines.join("")).not.toContain("unhandled error");
    },
  );
});

describe("an unexpected server failure", () => {
  let broken: UnmigratedApp;
  beforeAll(async () => {
    broken = await startUnmigratedApp();
  });
  afterAll(() => broken?.stop());

  it("answers 500 with the bare error shape, no stack, and logs the cause", async () => {
    const res = await fetch(`${broken.baseUrl}/api/users/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "ana@example.com", password: "segredo1" }),
    });
    const text = await res.text();
    expect(res.status).toBe(500);
    expect(JSON.parse(text)).toEqual({ message: "Erro interno do servidor", success: false });
    expectNoStack(text);
    const logged = broken.logLines.join("");
    expect(logged).toContain("unhandled error");
    expect(logged).toContain("does not exist");
    // The password of the failed request does not reach the log either.
    expect(logged).not.toContain("segredo1");
  });

  it("keeps the query string of a failed request, which may carry a token, out of the log", async () => {
    const secret = "c2VjcmV0LWNvbmZpcm1hdGlvbi10b2tlbi1kbyBub3QgbG9n";
    const res = await fetch(`${broken.baseUrl}/api/users/confirm-email?token=${secret}`);
    expect(res.status).toBe(500);
    const logged = broken.logLines.join("");
    expect(logged).toContain("/api/users/confirm-email");
    expect(logged).not.toContain(secret);
  });

  it("answers /readyz 503 while /healthz stays 200 when the migrations are not applied", async () => {
    const ready = await fetch(`${broken.baseUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: "unavailable" });
    expect((await fetch(`${broken.baseUrl}/healthz`)).status).toBe(200);
  });
});
