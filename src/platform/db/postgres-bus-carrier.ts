import postgres from "postgres";
import type { BusCarrier } from "../instance-bus.js";
import type { DatabaseWaits } from "./database.js";

/** Waits between attempts to LISTEN again after the connection was lost, doubling up to the last. */
const RELISTEN_DELAYS_MS = [100, 200, 400, 800, 1600, 3200];
/** How often the listening connection is asked whether it still carries anything, and how long its answer may take. */
const HEARTBEAT_EVERY_MS = 5_000;
const HEARTBEAT_ANSWER_WITHIN_MS = 3_000;

/**
 * LISTEN on a connection of its own at `listenUrl` (the pool's connections come and go, and a transaction-mode pooler
 * would drop the LISTEN with the transaction), NOTIFY through the pool. When the listening
 * connection closes (a restart, a network cut, an administrator's pg_terminate_backend) the carrier says it is not
 * live at once and LISTENs again, on a new connection, until that succeeds. A connection that goes quiet without
 * closing (its host or a NAT on the way gone without a reset: TCP would take many minutes to tell) would leave the
 * carrier live and deaf, and other instances' session revocations unheard: a heartbeat statement on it unanswered
 * within HEARTBEAT_ANSWER_WITHIN_MS counts as its loss. The listening connections are named after the channel, so
 * PostgreSQL's list of sessions tells how many instances listen.
 */
export function postgresCarrier(listenUrl: string, pool: postgres.Sql, channel: string, waits: DatabaseWaits): BusCarrier {
  const quoted = `"${channel.replace(/"/g, '""')}"`;
  let deliver: (payload: string) => void = () => undefined;
  let live: (live: boolean) => void = () => undefined;
  let closed = false;
  let listening: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;
  let attempt = 0;
  /** The listening connection's backend, left out of the peers. */
  let ownPid = 0;
  const onnotify = (name: string, payload: string) => {
    if (name === channel) deliver(payload);
  };
  const openListener = (): postgres.Sql => {
    const client = postgres(listenUrl, {
      ...waits,
      max: 1,
      max_lifetime: null,
      fetch_types: false,
      onnotice: () => undefined,
      connection: { application_name: channel },
      // What postgres.js's own `listen` is built on, absent from its types; its `listen` hides the connection's loss.
      ...({ onnotify } as object),
      onclose: () => {
        if (closed || client !== listener) return;
        live(false);
        listenSoon();
      },
    });
    return client;
  };
  let listener = openListener();
  const heartbeat = setInterval(() => void checkListener(), HEARTBEAT_EVERY_MS);
  heartbeat.unref();
  const checkListener = async () => {
    if (closed || retry || listening || ownPid === 0) return;
    const checked = listener;
    const answered = await Promise.race([
      checked
        .unsafe("select 1", [], { prepare: false })
        .simple()
        .then(
          () => true,
          // A failure is the connection's loss, which onclose handles.
          () => true,
        ),
      new Promise<boolean>((resolve) => setTimeout(resolve, HEARTBEAT_ANSWER_WITHIN_MS, false).unref()),
    ]);
    if (answered || closed || checked !== listener) return;
    listener = openListener();
    void checked.end({ timeout: 0 }).catch(() => undefined);
    // Its backend may live on for hours (the server hears nothing either), still listening: it would count as a peer
    // and hold back the server's notification queue.
    void pool.unsafe("select pg_terminate_backend($1)", [ownPid]).catch(() => undefined);
    ownPid = 0;
    live(false);
    listenSoon();
  };
  const listen = () =>
    (listening ??= listener
      .unsafe(`listen ${quoted}; select pg_backend_pid() as pid`, [], { prepare: false })
      .simple()
      .then(
        (results) => {
          ownPid = Number((results as unknown as { pid: number }[][])[1][0].pid);
          attempt = 0;
          live(true);
        },
        () => listenSoon(),
      )
      .finally(() => (listening = undefined)));
  const listenSoon = () => {
    if (closed || retry || listening) return;
    const delay = RELISTEN_DELAYS_MS[Math.min(attempt++, RELISTEN_DELAYS_MS.length - 1)];
    retry = setTimeout(() => {
      retry = undefined;
      void listen();
    }, delay);
    retry.unref();
  };
  return {
    async open(onPayload, onLive) {
      deliver = onPayload;
      live = onLive;
      await listen();
    },
    // Through `unsafe`, the statements take the pool's own way with statements (prepared, or sent in one round trip
    // behind a transaction-mode pooler), which its tagged templates would bypass.
    async send(payload) {
      await pool.unsafe("select pg_notify($1, $2)", [channel, payload]);
    },
    async peers() {
      const [row] = await pool.unsafe<{ n: number }[]>(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = $1 and pid <> $2",
        [channel, ownPid],
      );
      return row.n;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      await listener.end({ timeout: 5 });
    },
  };
}
