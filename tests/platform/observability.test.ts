import { afterAll, describe, expect, it, vi } from "vitest";
import { makeUser } from "../factories/users.js";
import { OtlpReceiver, type ReceivedSpan } from "../helpers/otlp-receiver.js";
import { useTestApp } from "../helpers/test-app.js";

// Contract §16: with OTEL_EXPORTER_OTLP_ENDPOINT, traces of HTTP, GraphQL and PostgreSQL statements go to that OTLP
// endpoint (here a local receiver); /metrics counts GraphQL operations.
const receiver = new OtlpReceiver();
await receiver.start();
afterAll(() => receiver.stop());
const t = useTestApp({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";

/** The spans of one trace, once its server span has arrived. */
async function traceOf(traceId: string, serverSpanName: string): Promise<ReceivedSpan[]> {
  await vi.waitFor(() => expect(receiver.spans.some((span) => span.traceId === traceId && span.name === serverSpanName)).toBe(true), { timeout: 10_000 });
  return receiver.spans.filter((span) => span.traceId === traceId);
}

describe("traces", () => {
  it("follow a GraphQL request from the caller's trace through the operation to its SQL, with no bound value", async () => {
    const ana = await makeUser(t, { email: "ana.traced@example.com" });
    const answer = await t.post("/graphql", {
      token: ana.token,
      body: { query: "{ me { id email } }" },
      headers: { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` },
    });
    expect(answer.body).toEqual({ data: { me: { id: ana.id, email: "ana.traced@example.com" } } });

    const spans = await traceOf(TRACE_ID, "POST /graphql");
    const server = spans.find((span) => span.name === "POST /graphql")!;
    expect(server).toMatchObject({ parentSpanId: CALLER_SPAN, kind: 2, attributes: { "http.route": "/graphql", "http.response.status_code": 200 } });
    const operation = spans.find((span) => span.name === "query me")!;
    expect(operation.parentSpanId).toBe(server.spanId);
    expect(spans.find((span) => span.name === "Query.me")?.parentSpanId).toBe(operation.spanId);
    const statements = spans.filter((span) => span.attributes["db.system.name"] === "postgresql");
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.every((span) => span.kind === 3 && typeof span.attributes["db.query.text"] === "string")).toBe(true);
    // Statements carry their text, never the values bound to it (an e-mail, a token's id, a password hash).
    expect(JSON.stringify(spans)).not.toContain("ana.traced@example.com");
    expect(JSON.stringify(spans)).not.toContain(ana.token);
  });

  it("keep a span per resolver when a repeated document runs as its compiled plan", async () => {
    const bia = await makeUser(t, { email: "bia.traced@example.com" });
    const query = "query Again { me { id } }";
    // From its second run a document runs as a graphql-jit plan (src/graphql/compiled-execution.ts).
    for (const traceId of ["5bf92f3577b34da6a3ce929d0e0e4731", "5bf92f3577b34da6a3ce929d0e0e4732", "5bf92f3577b34da6a3ce929d0e0e4733"]) {
      const answer = await t.post("/graphql", { token: bia.token, body: { query }, headers: { traceparent: `00-${traceId}-${CALLER_SPAN}-01` } });
      expect(answer.body).toEqual({ data: { me: { id: bia.id } } });
      const spans = await traceOf(traceId, "POST /graphql");
      const operation = spans.find((span) => span.name === "query me")!;
      expect(operation).toBeDefined();
      expect(spans.find((span) => span.name === "Query.me")?.parentSpanId).toBe(operation.spanId);
    }
  });

  it("name a REST request by its route and mark a server failure only on 5xx", async () => {
    const traceId = "0af7651916cd43dd8448eb211c80319c";
    const answer = await t.get("/api/users/profile", { headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01` } });
    expect(answer.status).toBe(401);
    const [server] = (await traceOf(traceId, "GET /api/users/profile")).filter((span) => span.name === "GET /api/users/profile");
    expect(server.attributes).toMatchObject({ "http.route": "/api/users/profile", "http.response.status_code": 401 });
    expect(server.status?.code ?? 0).not.toBe(2);
  });
});

describe("/metrics", () => {
  it("counts GraphQL operations by type, root field and outcome", async () => {
    const ana = await makeUser(t);
    await t.graphql("{ me { id } }", {}, ana.token);
    await t.graphql("{ me { id } }");
    const text = (await t.get("/metrics")).text;
    expect(text).toMatch(/graphql_operation_duration_seconds_count\{type="query",root_field="me",outcome="ok"\} [1-9]/);
    expect(text).toMatch(/graphql_operation_duration_seconds_count\{type="query",root_field="me",outcome="error"\} [1-9]/);
    expect(text).toContain("# TYPE job_queue_depth gauge");
  });

  it("reads each job's queue depth from the running job engine", async () => {
    await t.app.jobs.start();
    try {
      const text = (await t.get("/metrics")).text;
      for (const job of ["mail-delivery", "webhook-delivery", "subscription-renewals"]) {
        expect(text).toMatch(new RegExp(`job_queue_depth\\{job="${job}",state="queued"\\} \\d+`));
        expect(text).toMatch(new RegExp(`job_queue_depth\\{job="${job}",state="active"\\} \\d+`));
      }
    } finally {
      await t.app.jobs.stop();
    }
  });
});
