import type { IncomingMessage } from "node:http";
import { connect, type Socket } from "node:net";
import { WebSocket } from "ws";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TestApp, useTestApp } from "../helpers/test-app.js";

// Short limits, so a test sees them bite; the connection checks then run every 125 ms.
const t = useTestApp({ HTTP_HEADERS_TIMEOUT_MS: "500", HTTP_REQUEST_TIMEOUT_MS: "1000", HTTP_KEEP_ALIVE_TIMEOUT_MS: "2000" });
const bounded = new TestApp({ MAX_CONNECTIONS_PER_ADDRESS: "3" });
// The default bound (the other apps of the tests have none).
const crowded = new TestApp({ MAX_CONNECTIONS_PER_ADDRESS: "" });
beforeAll(() => Promise.all([bounded.start(), crowded.start()]));
afterAll(() => Promise.all([bounded.stop(), crowded.stop()]));

/** A raw TCP client: what it received, and when the server closed it. */
interface RawClient {
  socket: Socket;
  received: () => string;
  /** The error the connection ended with (a reset), if any. */
  error: () => Error | undefined;
  closed: Promise<void>;
}

const clients: RawClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.socket.destroy();
});

async function open(app: TestApp): Promise<RawClient> {
  const { hostname, port } = new URL(app.baseUrl);
  const socket = connect(Number(port), hostname);
  let text = "";
  let failure: Error | undefined;
  socket.on("data", (chunk) => (text += String(chunk)));
  // A connection the server resets is an expected outcome here.
  socket.on("error", (error) => (failure = error));
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  const client = { socket, received: () => text, error: () => failure, closed };
  clients.push(client);
  return client;
}

/** Writes `bytes` one every 200 ms until the connection closes; how many were written. */
async function trickle(client: RawClient, bytes: string): Promise<number> {
  let written = 0;
  let open = true;
  void client.closed.then(() => (open = false));
  while (open && written < bytes.length) {
    client.socket.write(bytes[written]);
    written += 1;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return written;
}

/** Sends a GET on an open connection and waits for the whole answer (a JSON body), leaving the connection open. */
async function getOn(client: RawClient, path: string): Promise<string> {
  const before = client.received().length;
  client.socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
  while (!/\r\n\r\n.*}$/s.test(client.received().slice(before))) {
    await Promise.race([new Promise((resolve) => client.socket.once("data", resolve)), client.closed]);
    if (client.socket.destroyed) break;
  }
  return client.received().slice(before);
}

describe("a client too slow to send its request", () => {
  it("is answered 408 and disconnected when it trickles its body a byte every 200 ms", async () => {
    const client = await open(t);
    const body = "x".repeat(10_000);
    client.socket.write(`POST /api/users/register HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    const written = await trickle(client, body);
    expect(written).toBeLessThan(body.length);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
  }, 20_000);

  it("is answered 408 and disconnected when it never finishes its headers", async () => {
    const client = await open(t);
    client.socket.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\n");
    const header = "X-Slow: " + "a".repeat(10_000);
    const written = await trickle(client, header);
    expect(written).toBeLessThan(header.length);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
  }, 20_000);

  it("is disconnected when it connects and sends nothing", async () => {
    const client = await open(t);
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
  }, 20_000);

  it("still gets its answer over a connection kept alive for the configured time", async () => {
    const client = await open(t);
    const answer = await getOn(client, "/healthz");
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toMatch(/^Keep-Alive: timeout=2\r$/m);
  });
});

/**
 * Three connections to `bounded` that it answers: all it takes from this address. The server frees a test's
 * connections a moment after they close, so one opened too soon may be refused: another is opened then.
 */
async function holdTheBound(): Promise<RawClient[]> {
  const held: RawClient[] = [];
  while (held.length < 3) {
    const client = await open(bounded);
    if ((await getOn(client, "/healthz")).startsWith("HTTP/1.1 200 ")) held.push(client);
  }
  return held;
}

describe("connections from one address", () => {
  it("answers one past the bound 503 with Retry-After over HTTP and closes it, while the allowed ones keep working, and takes new ones once some close", async () => {
    // Each allowed connection answers, so the server has counted all three before the next one arrives.
    const allowed = await holdTheBound();

    const extra = await open(bounded);
    extra.socket.write("GET /api/users/profile HTTP/1.1\r\nHost: localhost\r\n\r\n");
    await extra.closed;
    expect(extra.error()).toBeUndefined();
    const answer = extra.received();
    expect(answer).toMatch(/^HTTP\/1\.1 503 /);
    expect(answer).toMatch(/^Retry-After: 5\r$/m);
    expect(answer).toMatch(/^Connection: close\r$/m);
    expect(answer).toMatch(/^X-Request-Id: \S+\r$/m);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({
      message: "Muitas conexões deste endereço. Tente novamente em instantes.",
      success: false,
    });

    // Through the OpenAPI check of the tests: any operation declares this answer.
    const refused = await bounded.fetch("/api/users/profile");
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");

    expect(await getOn(allowed[1], "/healthz")).toMatch(/^HTTP\/1\.1 200 /);

    allowed[0].socket.destroy();
    await allowed[0].closed;
    // The server sees the close a moment after the client: a new connection is taken once it has.
    let next = await open(bounded);
    while (!(await getOn(next, "/healthz")).startsWith("HTTP/1.1 200 ")) next = await open(bounded);
    expect(next.socket.destroyed).toBe(false);
  });

  it("refuses a WebSocket past the bound with 503 over HTTP", async () => {
    await holdTheBound();
    const socket = new WebSocket(bounded.baseUrl.replace(/^http/, "ws") + "/graphql", "graphql-transport-ws");
    socket.on("error", () => undefined);
    const refusal = await new Promise<IncomingMessage | undefined>((resolve) => {
      socket.on("unexpected-response", (_request, response) => resolve(response));
      socket.on("close", () => resolve(undefined));
    });
    expect(refusal?.statusCode).toBe(503);
    expect(refusal?.headers["retry-after"]).toBe("5");
    socket.terminate();
  });

  it("closes one past the bound that trickles its request head before it is done: it cannot hold a connection", async () => {
    await holdTheBound();
    const extra = await open(bounded);
    extra.socket.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\n");
    const header = "X-Slow: " + "a".repeat(10_000);
    expect(await trickle(extra, header)).toBeLessThan(header.length);
  }, 20_000);

  it("answers 250 clients behind one address (a gym's Wi-Fi) at the default bound, each on its own kept-alive connection", async () => {
    const phones = await Promise.all(Array.from({ length: 250 }, () => open(crowded)));
    const answers = await Promise.all(phones.map((phone) => getOn(phone, "/healthz")));
    expect(answers.filter((answer) => answer.startsWith("HTTP/1.1 200 "))).toHaveLength(250);
    expect(phones.every((phone) => !phone.socket.destroyed)).toBe(true);
  }, 20_000);
});
