import postgres from "postgres";
import type { Db as EngineDb } from "pg-boss";
import type { DatabaseConnection } from "../db/database.js";
import { untypedValue } from "../db/untyped-values.js";
import { postgresCarrier } from "../db/postgres-bus-carrier.js";

/**
 * Its values go as texts (untypedValue), which the server reads by the statement's types: sent with the statement, not
 * after asking the server their types (`describe: false`, patches/), in one round trip, and safely through a
 * transaction-mode pooler (THROUGH_TRANSACTION_POOLER in database.ts says why).
 */
const UNTYPED = { describe: false } as object;

/** pg-boss's database on PostgreSQL, and the end of its connections. */
export interface EngineDatabase extends EngineDb {
  close(): Promise<void>;
}

/**
 * pg-boss on postgres.js, the service's own driver, rather than on its built-in node-postgres pool: node-postgres takes
 * one host, so a multi-host `DATABASE_URL` (target_session_attrs=read-write) would leave the engine on a dead primary
 * after a failover, and it has none of the waits that keep a statement from hanging on an unreachable database.
 * `max` connections of its own (a LISTEN connection besides, when `connection.sessions`).
 */
export function engineDatabase(connection: Extract<DatabaseConnection, { kind: "postgres" }>, max: number): EngineDatabase {
  const client = postgres(connection.url, {
    ...connection.waits,
    max,
    onnotice: () => undefined,
    connection: { application_name: "pgboss" },
    // Its statements are many distinct texts run now and then: parsed each time, as node-postgres did.
    prepare: false,
  });
  /** What must have run in every session that runs pg-boss's statements (only a TestClock asks for any). */
  let sessionStatements: string[] = [];
  const listeners = new Set<{ close(): Promise<void> }>();

  return {
    async executeSql(text, values = []) {
      if (values.length > 0 && sessionStatements.length === 0) return { rows: [...(await client.unsafe(text, values.map(untypedValue), UNTYPED))] };
      // Without values a text may be several statements, a `BEGIN … COMMIT` among them, which postgres.js runs only on
      // a connection of its own; one that fails midway would leave it in the aborted transaction, so it is rolled back.
      const reserved = await client.reserve();
      try {
        if (sessionStatements.length > 0) await reserved.unsafe(sessionStatements.join(";\n"));
        return { rows: rowsOf(await reserved.unsafe(text, values.map(untypedValue), UNTYPED)) };
      } catch (error) {
        await reserved.unsafe("rollback").catch(() => undefined);
        throw error;
      } finally {
        reserved.release();
      }
    },
    async setSessionStatements(statements) {
      sessionStatements = statements;
    },
    ...(connection.sessions
      ? {
          async listen(channel: string, onNotification: (payload: string) => void, onReconnect: () => void) {
            const carrier = postgresCarrier(connection.url, client, channel, connection.waits);
            await carrier.open(onNotification, (live) => live && onReconnect());
            listeners.add(carrier);
            return {
              close: async () => {
                listeners.delete(carrier);
                await carrier.close();
              },
            };
          },
        }
      : {}),
    async close() {
      await Promise.all([...listeners].map((listener) => listener.close()));
      await client.end({ timeout: 5 });
    },
  };
}

/** The rows of a text of one statement or several (postgres.js answers one result per statement that returned rows). */
function rowsOf(result: postgres.RowList<postgres.Row[]> | postgres.RowList<postgres.Row[]>[]): postgres.Row[] {
  return result.length > 0 && Array.isArray(result[0]) ? (result as postgres.Row[][]).flat() : [...(result as postgres.Row[])];
}
