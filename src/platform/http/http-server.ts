import { createServer, type RequestListener, type Server } from "node:http";

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

/**
 * The service's HTTP server: a client too slow to send its headers or body is answered 408 and disconnected, an idle
 * connection is closed, and one address cannot hold more than its share of connections.
 */
export function createHttpServer(limits: HttpServerLimits, handler?: RequestListener): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node enforces the two timeouts above only when it looks, every 30 s by default: a slow client would keep
      // its connection that much past them.
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(limits.headersTimeoutMs / 4)),
    },
    handler,
  );
  if (limits.maxConnectionsPerAddress > 0) boundConnectionsPerAddress(server, limits.maxConnectionsPerAddress);
  return server;
}

/** Closes at once any connection past `max` open ones from the same remote address. */
function boundConnectionsPerAddress(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on("connection", (socket) => {
    const address = socket.remoteAddress;
    // Gone before it was counted.
    if (address === undefined) return;
    const count = open.get(address) ?? 0;
    if (count >= max) {
      socket.destroy();
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
