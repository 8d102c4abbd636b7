import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { BusCarrier } from "../../src/platform/instance-bus.js";
import { openDatabase, type DatabaseHandle } from "../../src/platform/db/database.js";
import { useTemplateClone } from "../helpers/database.js";
import { withDatabase } from "../helpers/global-setup.js";
import { tcpRelay, type TcpRelay } from "../helpers/tcp-relay.js";

/*
 * The instance bus on PostgreSQL (LISTEN on a connection of its own, NOTIFY through the pool), with its listening
 * connection relayed by the test: what the carrier does when that connection goes quiet without closing, as it does
 * when a NAT or a firewall on the way forgets it, or the host leaves the network (no reset: TCP takes many minutes to
 * tell). Meanwhile the other instances' session revocations would go unheard, with the carrier still saying it is live.
 */
const databaseUrl = process.env.DATABASE_URL;

describe.skipIf(!databaseUrl)("the instance bus on PostgreSQL", () => {
  const database = useTemplateClone("bus_carrier");
  let relay: TcpRelay;
  let handles: DatabaseHandle[] = [];
  let carriers: BusCarrier[] = [];

  beforeAll(async () => {
    relay = await tcpRelay(Number(new URL(databaseUrl!).port || 5432));
  });
  afterAll(async () => {
    await Promise.all(carriers.map((carrier) => carrier.close()));
    await Promise.all(handles.map((handle) => handle.close()));
    await relay?.close();
  });

  const listeners = async (admin: postgres.Sql) =>
    Number((await admin`select count(*)::int as n from pg_stat_activity where datname = ${database.name} and application_name = 'instance_bus'`)[0].n);

  it("takes a listening connection that went quiet for lost within seconds, says so, and hears the others again on a new one", async () => {
    const direct = withDatabase(databaseUrl!, database.name);
    const relayed = new URL(direct);
    relayed.port = String(relay.port);
    // This instance listens through the relay; the other one sends straight to the server.
    const listening = await openDatabase({ databaseUrl: direct, directUrl: relayed.toString() });
    const sending = await openDatabase({ databaseUrl: direct });
    handles = [listening, sending];
    const deaf = listening.busCarrier();
    const other = sending.busCarrier();
    carriers = [deaf, other];
    const heard: string[] = [];
    const lives: boolean[] = [];
    await deaf.open(
      (payload) => heard.push(payload),
      (live) => lives.push(live),
    );
    await other.open(
      () => undefined,
      () => undefined,
    );
    await other.send("before");
    await vi.waitFor(() => expect(heard).toEqual(["before"]));
    expect(lives).toEqual([true]);
    expect(await listeners(database.admin())).toBe(2);

    relay.freeze();
    await other.send("unheard");
    // The heartbeat's bounds (5 s apart, 3 s to answer), with room for a loaded machine.
    await vi.waitFor(() => expect(lives).toEqual([true, false, true]), { timeout: 15_000, interval: 100 });
    await other.send("after");
    await vi.waitFor(() => expect(heard.at(-1)).toBe("after"));
    expect(heard).not.toContain("unheard");
    // The quiet connection's backend, which the server could keep for hours, is gone: it would count as a peer.
    await vi.waitFor(async () => expect(await listeners(database.admin())).toBe(2));
    expect(await other.peers()).toBe(1);
  }, 30_000);
});
