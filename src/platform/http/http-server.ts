import { createServer, type RequestListener, type Server, type ServerResponse } from "node:http";
import { Server as NetServer } from "node:net";
import type { Duplex } from "node:stream";
import { AppError } from "../errors.js";

/** How long a client may take over a request, and how many connections one address may hold (0: no bound). */
export interface HttpServerLimits {
  /** Time allowed to receive a request's headers. */
  headersTimeoutMs: number;
  /** Time allowed to receive a whole request, headers and body. */
  requestTimeoutMs: number;
  /** How long an idle kept-alive connection waits for its next request. */
  keepAliveTimeoutMs: number;
  maxConnectionsPerAddress: number;
}

/** All a connection past its address's cap may last: time to send its request head and read its 503. */
const PAST_CAP_CONNECTION_MS = 2_000;
/** What a client past the cap is told to wait: about when the address's idle kept-alive connections close. */
const PAST_CAP_RETRY_AFTER_SECONDS = 5;
export const TOO_MANY_CONNECTIONS = "Muitas conexões deste endereço. Tente novamente em instantes.";

/** Connections past their address's cap: each is answered 503 and closed (contract §17). */
const pastCap = new WeakSet<Duplex>();

/**
 * The refusal of a request that came on a connection past its address's cap: 503 with `Retry-After`, closing the
 * connection; undefined for any other connection.
 */
export function pastAddressCapError(socket: Duplex): AppError | undefined {
  if (!pastCap.has(socket)) return undefined;
  return new AppError(503, TOO_MANY_CONNECTIONS, { headers: { "Retry-After": String(PAST_CAP_RETRY_AFTER_SECONDS), Connection: "close" } });
}

/** The answers of each server whose headers are not written yet: a shutdown marks them (drainHttpServer). */
const unsentAnswers = new WeakMap<Server, Set<ServerResponse>>();
/** Servers shutting down: every answer they give closes its connection. */
const draining = new WeakSet<Server>();

/**
 * The service's HTTP server: a client too slow to send its headers or body is answered 408 and disconnected, an idle
 * connection is closed, and one address cannot hold more than its share of connections.
 */
export function createHttpServer(limits: HttpServerLimits, handler?: RequestListener): Server {
  const server = createServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Node enforces the two timeouts above only when it looks, every 30 s by default: a slow client would keep
    // its connection that much past them.
    connectionsCheckingInterval: Math.min(1_000, Math.ceil(limits.headersTimeoutMs / 4)),
  });
  // The first listener, before the application's: whatever answers a request (REST, GraphQL, an error, a 404) and
  // whenever, the answer of a draining server says so.
  const unsent = new Set<ServerResponse>();
  unsentAnswers.set(server, unsent);
  server.on("request", (_request, response) => {
    if (draining.has(server)) {
      response.setHeader("Connection", "close");
      return;
    }
    unsent.add(response);
    const sent = () => unsent.delete(response);
    response.once("finish", sent).once("close", sent);
  });
  if (handler) server.on("request", handler);
  if (limits.maxConnectionsPerAddress > 0) boundConnectionsPerAddress(server, limits.maxConnectionsPerAddress);
  return server;
}

/**
 * Shuts the server down without resetting a request (contract §16). Every answer from now on, and every one under way
 * whose headers are not written yet, carries `Connection: close`, so its connection closes right after it. For
 * `listenForMs` it still takes new connections: a load balancer that was told the instance is not ready (/readyz) may
 * still send some until its health checks notice, and a connection the system accepted for a server that then stops
 * listening is reset under the request already written on it. Then it stops listening (a new connection is refused,
 * which a client can safely retry elsewhere). A kept-alive connection that is idle is not closed: its client may be
 * sending a request on it at this very moment, and would see that request reset. It is closed by its next answer, or
 * by the keep-alive timeout its client was told (`Keep-Alive: timeout=…`). Resolves once every connection is closed.
 */
export async function drainHttpServer(server: Server, listenForMs = 0): Promise<void> {
  draining.add(server);
  for (const response of unsentAnswers.get(server) ?? []) {
    if (!response.headersSent) response.setHeader("Connection", "close");
  }
  if (listenForMs > 0) await new Promise((resolve) => setTimeout(resolve, listenForMs));
  // The TCP server's close: stops listening and waits for the connections. http.Server#close would also close
  // every idle connection at once.
  return new Promise((resolve) => NetServer.prototype.close.call(server, () => resolve()));
}

/**
 * Past `max` open connections from one remote address, a new one is not counted: its request is answered 503
 * (pastAddressCapError) rather than reset, so a phone behind a crowded NAT hears why, and it is closed after
 * PAST_CAP_CONNECTION_MS whatever it sends, so a client hoarding connections (slowloris) still holds at most `max`.
 */
function boundConnectionsPerAddress(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on("connection", (socket) => {
    const address = socket.remoteAddress;
    // Gone before it was counted.
    if (address === undefined) return;
    const count = open.get(address) ?? 0;
    if (count >= max) {
      pastCap.add(socket);
      const deadline = setTimeout(() => socket.destroy(), PAST_CAP_CONNECTION_MS);
      socket.once("close", () => clearTimeout(deadline));
      return;
    }
    open.set(address, count + 1);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
