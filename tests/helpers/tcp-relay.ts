import { createServer, Socket, type Server } from "node:net";

/** A TCP relay of the test's own in front of a server on 127.0.0.1. */
export interface TcpRelay {
  port: number;
  /**
   * `true`: like a host that left the network, passes nothing more on the connections it relays (no reset, no close:
   * they just go quiet) and accepts new ones without ever answering them; `false`: speaks again on all of them.
   */
  silent(on: boolean): void;
  /**
   * The connections relayed so far go quiet for good (as a NAT or a firewall that forgot them: no reset, no close),
   * while new ones are relayed as before.
   */
  freeze(): void;
  close(): Promise<void>;
}

export async function tcpRelay(port: number): Promise<TcpRelay> {
  let quiet = false;
  const sockets = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  const hush = ([client, upstream]: [Socket, Socket]) => {
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  };
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => undefined);
    if (quiet) return client.pause();
    const upstream = new Socket();
    const pair: [Socket, Socket] = [client, upstream];
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
    upstream.connect(port, "127.0.0.1", () => {
      pairs.add(pair);
      if (quiet) return;
      client.pipe(upstream);
      upstream.pipe(client);
    });
    upstream.on("close", () => (pairs.delete(pair), client.destroy()));
    client.on("close", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    silent(on) {
      quiet = on;
      for (const pair of pairs) {
        if (on) hush(pair);
        else {
          pair[0].pipe(pair[1]);
          pair[1].pipe(pair[0]);
        }
      }
    },
    freeze() {
      for (const pair of pairs) hush(pair);
      pairs.clear();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
