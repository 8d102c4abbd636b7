import { AppError } from "../errors.js";
import { pgErrorWhere } from "./constraint-violation.js";

export const DATABASE_UNAVAILABLE = "Serviço temporariamente indisponível";
/** About what a reconnect to a restarted or promoted server takes. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * postgres.js's codes for a connection that is gone or never came (CONNECT_TIMEOUT also: no connection free in time;
 * TARGET_SESSION_ATTRS: no host of a multi-host URL is a writable primary, as during a failover; patches/).
 */
const DRIVER_CODES = new Set(["CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECT_TIMEOUT", "TARGET_SESSION_ATTRS"]);
/** The socket's own, counted only on an error the driver reports for a query (it adds `query`), not a mail or HTTP call's. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE"]);
/**
 * SQLSTATE: admin_shutdown, crash_shutdown, cannot_connect_now, class 08 (connection exceptions), and
 * read_only_sql_transaction (a write on a server that is, or has become, a standby: no writable primary here).
 */
const SQLSTATE = /^(57P0[123]|08[0-9A-Z]{3}|25006)$/;

/**
 * 503 with Retry-After when `error` is the database being out of reach (a restart, a failover, a backend terminated
 * under a transaction): the request may succeed when sent again, unlike a bug's 500.
 */
export function databaseUnavailable(error: unknown): AppError | null {
  return connectionLost(error) ? new AppError(503, DATABASE_UNAVAILABLE, { headers: { "Retry-After": String(RETRY_AFTER_SECONDS) } }) : null;
}

/** Whether `error` is the server out of reach or gone from under a statement, rather than the statement's own failure. */
export function connectionLost(error: unknown): boolean {
  return (
    pgErrorWhere(
      error,
      (e) => typeof e.code === "string" && (DRIVER_CODES.has(e.code) || SQLSTATE.test(e.code) || (SOCKET_CODES.has(e.code) && "query" in e)),
    ) !== null
  );
}

/** The pauses between attempts of a start step while the database is out of reach; the last one repeats. */
const START_RETRY_DELAYS_MS = [1_000, 2_000, 5_000];

/**
 * Runs `step`, a part of the start that needs the database, until it succeeds. While the database is out of reach it
 * calls `waiting` and tries again after a pause, so an instance started during an outage comes up when its database
 * does (contract §17: no database fault ends the process). Any other failure is the step's own, and is thrown.
 */
export async function onceReachable<T>(step: () => Promise<T>, waiting: (error: unknown, retryInMs: number) => void): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (!connectionLost(error)) throw error;
      const retryInMs = START_RETRY_DELAYS_MS[Math.min(attempt, START_RETRY_DELAYS_MS.length - 1)];
      waiting(error, retryInMs);
      await new Promise((resolve) => setTimeout(resolve, retryInMs));
    }
  }
}
