import postgres from "postgres";
import type { Db as EngineDb } from "pg-boss";
import { THROUGH_TRANSACTION_POOLER, type DatabaseConnection } from "../db/database.js";
import { arrayLiteral } from "../db/array-literal.js";
import { postgresCarrier } from "../db/postgres-bus-carrier.js";

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
    ...(connection.sessions ? {} : THROUGH_TRANSACTION_POOLER),
  });
  /** What must have run in every session that runs pg-boss's statements (only a TestClock asks for any). */
  let sessionStatements: string[] = [];
  const listeners = new Set<{ close(): Promise<void> }>();

  return {
    async executeSql(text, values = []) {
      if (values.length > 0 && sessionStatements.length === 0) return { rows: [...(await client.unsafe(text, values.map(asText)))] };
      // Without values a text may be several statements, a `BEGIN … COMMIT` among them, which postgres.js runs only on
      // a connection of its own; one that fails midway would leave it in the aborted transaction, so it is rolled back.
      const reserved = await client.reserve();
      try {
        if (sessionStatements.length > 0) await reserved.unsafe(sessionStatements.join(";\n"));
        return { rows: rowsOf(await reserved.unsafe(text, values.map(asText))) };
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

/**
 * A value as node-postgres sends it, as text the server casts to the statement's type: pg-boss's statements were
 * written for that (`$2::uuid[]` given a JavaScript array, `$3::jsonb` an object).
 */
function asText(value: unknown): string | Buffer | null {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return arrayLiteral(value, (item) => asText(item) as string);
  if (typeof value === "object") return JSON.stringify(value);
  return String(value as string | number | boolean | bigint);
}

/** The rows of a text of one statement or several (postgres.js answers one result per statement that returned rows). */
function rowsOf(result: postgres.RowList<postgres.Row[]> | postgres.RowList<postgres.Row[]>[]): postgres.Row[] {
  return result.length > 0 && Array.isArray(result[0]) ? (result as postgres.Row[][]).flat() : [...(result as postgres.Row[])];
}
