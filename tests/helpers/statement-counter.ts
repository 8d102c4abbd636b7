/**
 * Counts the SQL statements servers send to PostgreSQL, whatever their driver, with no hook in the servers and no
 * server setting (pg_stat_statements needs shared_preload_libraries and a restart): a TCP proxy in front of
 * PostgreSQL that passes every byte through unchanged and reads the frontend protocol on the way. A statement is one
 * simple Query message ('Q') or one Execute of the extended protocol ('E'); BEGIN and COMMIT count like any other.
 * A Flush ('H') is a client waiting for an answer in the middle of a statement (postgres.js asking a statement's
 * parameter types before it binds them): one more round trip.
 *
 * The proxy is a hop of its own, so bench:api measures servers without it: it only serves the counting instances.
 */
import net from "node:net";

/** Untyped first messages that a StartupMessage follows on the same connection. */
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const QUERY = "Q".charCodeAt(0);
const EXECUTE = "E".charCodeAt(0);
const FLUSH = "H".charCodeAt(0);

export interface StatementCounter {
  /** `databaseUrl` with its host and port replaced by the proxy's. */
  url: string;
  /** Statements sent so far, by every connection. */
  statements(): number;
  /** Flush messages sent so far: round trips taken inside statements. */
  flushes(): number;
  close(): Promise<void>;
}

export async function startStatementCounter(databaseUrl: string): Promise<StatementCounter> {
  const upstream = new URL(databaseUrl);
  let statements = 0;
  let flushes = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const database = net.connect(Number(upstream.port || 5432), upstream.hostname);
    for (const socket of [client, database]) {
      sockets.add(socket);
      socket.setNoDelay(true);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => undefined);
    }
    client.on("close", () => database.destroy());
    database.on("close", () => client.destroy());
    const frontend = frontendScanner((type) => {
      if (type === QUERY || type === EXECUTE) statements++;
      else if (type === FLUSH) flushes++;
    });
    client.on("data", (chunk: Buffer) => {
      frontend(chunk);
      database.write(chunk);
    });
    database.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const proxied = new URL(databaseUrl);
  proxied.hostname = "127.0.0.1";
  proxied.port = String((server.address() as net.AddressInfo).port);
  return {
    url: proxied.toString(),
    statements: () => statements,
    flushes: () => flushes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Follows the frontend's message boundaries across chunks: untyped startup messages (length, code) until the
 * StartupMessage, then typed messages (type byte, length that counts itself); calls `onMessage` with each one's type.
 */
function frontendScanner(onMessage: (type: number) => void): (chunk: Buffer) => void {
  let startup = true;
  let header = Buffer.alloc(0);
  let skip = 0;
  return (chunk) => {
    let at = 0;
    while (at < chunk.length) {
      if (skip > 0) {
        const passed = Math.min(skip, chunk.length - at);
        skip -= passed;
        at += passed;
        continue;
      }
      const headerLength = startup ? 8 : 5;
      const taken = Math.min(headerLength - header.length, chunk.length - at);
      header = Buffer.concat([header, chunk.subarray(at, at + taken)]);
      at += taken;
      if (header.length < headerLength) return;
      if (startup) {
        const code = header.readInt32BE(4);
        startup = code === SSL_REQUEST || code === GSSENC_REQUEST;
        skip = header.readInt32BE(0) - 8;
      } else {
        onMessage(header[0]);
        skip = header.readInt32BE(1) - 4;
      }
      header = Buffer.alloc(0);
    }
  };
}
