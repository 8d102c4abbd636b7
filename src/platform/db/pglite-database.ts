import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { BusCarrier } from "../instance-bus.js";
import { dataDirFolders } from "../config.js";
import { inSpan, statementAttributes, tracingEnabled } from "../tracing.js";
import { claimDataDirectory, type DataDirClaim } from "./data-dir-claim.js";
import { BUS_CHANNEL, migrationsApplied, queryObservers, type DatabaseHandle, type DatabaseOptions, type Db } from "./database.js";
import { migrationsFolder } from "./paths.js";

/** The embedded database (no DATABASE_URL): loaded by `openDatabase` only when it is the one used. */
export async function openPglite(options: DatabaseOptions): Promise<DatabaseHandle> {
  let client = options.pglite;
  let claim: DataDirClaim | undefined;
  if (!client) {
    const dir = dataDirFolders(options.dataDir ?? "./data").pglite;
    mkdirSync(dir, { recursive: true });
    claim = await claimDataDirectory(dir);
    client = new PGlite(dir);
  }
  const observers = queryObservers();
  const db = drizzlePglite(tracingStatements(client), { logger: observers.logger }) as unknown as Db;
  const pglite = client;
  return {
    db,
    kind: "pglite",
    connection: { kind: "pglite", pglite },
    migrate: () => migratePglite(drizzlePglite(pglite), { migrationsFolder }),
    isReady: () => migrationsApplied(db),
    observeQueries: observers.observeQueries,
    busCarrier: () => pgliteCarrier(pglite, BUS_CHANNEL),
    dataDirClaim: claim,
    close: async () => {
      if (!claim) return;
      await pglite.close();
      await claim.release();
    },
  };
}

/** With tracing on, a span per statement (`query`), in transactions too; the database object is otherwise unchanged. */
function tracingStatements<Client extends Pick<PGlite, "query" | "transaction">>(client: Client): Client {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === "query") {
        return ((text: string, ...rest: unknown[]) => {
          const run = () => (target.query as (...args: unknown[]) => Promise<unknown>).call(target, text, ...rest);
          return tracingEnabled() ? inSpan(`${statementAttributes(text)["db.operation.name"]} postgresql`, statementAttributes(text), run) : run();
        }) as PGlite["query"];
      }
      if (property === "transaction") {
        return ((work: (tx: unknown) => Promise<unknown>) =>
          target.transaction((tx) => work(tracingStatements(tx as unknown as Pick<PGlite, "query" | "transaction">)))) as PGlite["transaction"];
      }
      // Its own methods run on the database itself (its private fields are not the proxy's).
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** PGlite is this process's database: its notifications are delivered in-process and never lost. */
function pgliteCarrier(pglite: PGlite, channel: string): BusCarrier {
  let unlisten: (() => Promise<void>) | undefined;
  return {
    async open(deliver, live) {
      unlisten = await pglite.listen(channel, deliver);
      live(true);
    },
    async send(payload) {
      await pglite.query("select pg_notify($1, $2)", [channel, payload]);
    },
    // Its notifications are delivered before the NOTIFY's query resolves.
    peers: async () => 0,
    async close() {
      // The database may be closed already: its owner stops it after the app.
      if (!pglite.closed) await unlisten?.();
    },
  };
}
