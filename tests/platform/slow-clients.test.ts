import { connect, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TestApp, useTestApp } from "../helpers/test-app.js";

// Short limits, so a test sees them bite; the connection checks then run every 125 ms.
const t = useTestApp({ HTTP_HEADERS_TIMEOUT_MS: "500", HTTP_REQUEST_TIMEOUT_MS: "1000", HTTP_KEEP_ALIVE_TIMEOUT_MS: "2000" });
const bounded = new TestApp({ MAX_CONNECTIONS_PER_ADDRESS: "3" });
beforeAll(() => bounded.start());
afterAll(() => bounded.stop());

/** A raw TCP client: what it received, and when the server closed it. */
interface RawClient {
  socket: Socket;
  received: () => string;
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
  socket.on("data", (chunk) => (text += String(chunk)));
  // A connection the server resets is an expected outcome here.
  socket.on("error", () => undefined);
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  const client = { socket, received: () => text, closed };
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

describe("connections from one address", () => {
  it("refuses those past the bound while the allowed ones keep working, and takes new ones once some close", async () => {
    const allowed = await Promise.all([open(bounded), open(bounded), open(bounded)]);
    // Each allowed connection answers, so the server has counted all three before the next one arrives.
    for (const client of allowed) expect(await getOn(client, "/healthz")).toMatch(/^HTTP\/1\.1 200 /);

    const extra = await open(bounded);
    extra.socket.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n");
    await extra.closed;
    expect(extra.received()).toBe("");

    expect(await getOn(allowed[1], "/healthz")).toMatch(/^HTTP\/1\.1 200 /);

    allowed[0].socket.destroy();
    await allowed[0].closed;
    // The server sees the close a moment after the client: a new connection is taken once it has.
    let next = await open(bounded);
    while (!(await getOn(next, "/healthz")).startsWith("HTTP/1.1 200 ")) next = await open(bounded);
    expect(next.socket.destroyed).toBe(false);
  });
});
