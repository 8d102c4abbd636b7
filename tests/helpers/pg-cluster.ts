import { execFile } from "node:child_process";
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "./ports.js";

const run = promisify(execFile);

/** Debian's PostgreSQL server programs (`initdb`, `pg_ctl`, `pg_basebackup`) of the newest version installed; undefined without them. */
export const POSTGRES_BIN = (() => {
  const versions = existsSync("/usr/lib/postgresql") ? readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a)) : [];
  return versions.map((version) => `/usr/lib/postgresql/${version}/bin`).find((dir) => existsSync(path.join(dir, "initdb")));
})();

/** One PostgreSQL server of a cluster a test made: a primary, or a streaming standby of it. */
export interface PgNode {
  name: string;
  port: number;
  /** `postgres://postgres@127.0.0.1:<port>/<database>`. */
  url(database?: string): string;
  /** `fast` lets sessions end cleanly; `immediate` is a crash (no shutdown checkpoint, clients see the socket drop). */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  start(): Promise<void>;
  /** Makes a standby the primary (`pg_ctl promote`), waiting until it accepts writes. */
  promote(): Promise<void>;
  /** Everything the server logged so far. */
  log(): string;
}

export interface StandbyOptions {
  /** `recovery_min_apply_delay`: the standby replays each commit this long after it was made, a lag tests can count on. */
  applyDelayMs?: number;
  /** The primary waits for this standby's flush before it acknowledges a commit (`synchronous_standby_names`). */
  synchronous?: boolean;
}

export interface PgCluster {
  primary: PgNode;
  /** A streaming replica of the primary made with `pg_basebackup`, started and caught up. */
  addStandby(options?: StandbyOptions): Promise<PgNode>;
  /** Stops every server at once and removes their files. */
  destroy(): Promise<void>;
}

/**
 * Runs a server program as the `postgres` user when the tests run as root (PostgreSQL refuses root), as the
 * tests' own user otherwise.
 */
function asPostgres(program: string, args: string[], timeoutMs = 60_000) {
  const file = path.join(POSTGRES_BIN!, program);
  const root = process.getuid?.() === 0;
  return run(root ? "runuser" : file, root ? ["-u", "postgres", "--", file, ...args] : args, { timeout: timeoutMs });
}

/** The `postgres` user's ids when running as root, so that the files a server owns are its own. */
function postgresOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith("postgres:"));
  if (!line) throw new Error("no postgres user to run PostgreSQL as");
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * A disposable PostgreSQL cluster in a temporary directory, on ports of its own, for tests of replicas and failover:
 * a primary that streams its WAL (trust authentication on 127.0.0.1, replication allowed), to which standbys are added.
 * Never the machine's own server.
 */
export async function startCluster(): Promise<PgCluster> {
  if (!POSTGRES_BIN) throw new Error("PostgreSQL's server programs are not installed (/usr/lib/postgresql/<version>/bin)");
  const root = mkdtempSync(path.join(tmpdir(), "fitness-pgcluster-"));
  const owner = postgresOwner();
  if (owner) chownSync(root, owner.uid, owner.gid);
  const nodes: PgNode[] = [];
  const synchronous: string[] = [];

  const node = (name: string, port: number): PgNode => {
    const dataDir = path.join(root, name);
    const logFile = path.join(root, `${name}.log`);
    const self: PgNode = {
      name,
      port,
      url: (database = "postgres") => `postgres://postgres@127.0.0.1:${port}/${database}`,
      async stop(mode = "fast") {
        await asPostgres("pg_ctl", ["stop", "-D", dataDir, "-m", mode, "-w"]).catch(() => undefined);
      },
      async start() {
        await asPostgres("pg_ctl", ["start", "-D", dataDir, "-l", logFile, "-w", "-t", "60"]);
      },
      async promote() {
        await asPostgres("pg_ctl", ["promote", "-D", dataDir, "-w", "-t", "60"]);
      },
      log: () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : ""),
    };
    nodes.push(self);
    return self;
  };

  const primary = node("primary", await freePort());
  const primaryDir = path.join(root, "primary");
  await asPostgres("initdb", ["-D", primaryDir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"]);
  appendFileSync(
    path.join(primaryDir, "postgresql.conf"),
    [
      "listen_addresses = '127.0.0.1'",
      `port = ${primary.port}`,
      "unix_socket_directories = ''",
      "wal_level = replica",
      "max_wal_senders = 10",
      "wal_keep_size = '128MB'",
      "hot_standby = on",
      "hot_standby_feedback = on",
      "shared_buffers = '32MB'",
      "max_connections = 200",
      // Disposable: durability against a machine crash is not what these tests are about (a server crash is: the
      // kernel keeps what was written).
      "fsync = off",
      "",
    ].join("\n"),
  );
  writeFileSync(path.join(primaryDir, "pg_hba.conf"), ["host all all 127.0.0.1/32 trust", "host replication all 127.0.0.1/32 trust", ""].join("\n"));
  await primary.start();

  return {
    primary,
    async addStandby(options = {}) {
      const name = `standby${nodes.length}`;
      const standby = node(name, await freePort());
      const dataDir = path.join(root, name);
      await asPostgres("pg_basebackup", [
        "-h",
        "127.0.0.1",
        "-p",
        String(primary.port),
        "-U",
        "postgres",
        "-D",
        dataDir,
        "-R",
        "-X",
        "stream",
        "--checkpoint=fast",
        "--no-sync",
      ]);
      appendFileSync(
        path.join(dataDir, "postgresql.auto.conf"),
        [
          `port = ${standby.port}`,
          // Named, so that the primary can wait for it (synchronous_standby_names matches application_name).
          `primary_conninfo = 'host=127.0.0.1 port=${primary.port} user=postgres application_name=${name}'`,
          ...(options.applyDelayMs ? [`recovery_min_apply_delay = '${options.applyDelayMs}ms'`] : []),
          "",
        ].join("\n"),
      );
      await standby.start();
      if (options.synchronous) {
        synchronous.push(name);
        const admin = await import("postgres").then(({ default: postgres }) => postgres(primary.url(), { max: 1, onnotice: () => undefined }));
        try {
          await admin.unsafe(`alter system set synchronous_standby_names = 'FIRST 1 (${synchronous.join(", ")})'`);
          await admin.unsafe("select pg_reload_conf()");
          // Until the standby is streaming and named synchronous, a commit would not wait for it yet.
          for (let attempt = 0; attempt < 100; attempt++) {
            const [row] = await admin<{ state: string }[]>`select sync_state as state from pg_stat_replication where application_name = ${name}`;
            if (row?.state === "sync") break;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        } finally {
          await admin.end();
        }
      }
      return standby;
    },
    async destroy() {
      await Promise.all(nodes.map((each) => each.stop("immediate")));
      rmSync(root, { recursive: true, force: true });
    },
  };
}
