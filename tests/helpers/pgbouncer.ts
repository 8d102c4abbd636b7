import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { accepts, freePort } from "./ports.js";

/** Where Debian's package puts PgBouncer (`apt-get install pgbouncer`); undefined when it is not installed. */
export const PGBOUNCER_BINARY = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].find((file) => existsSync(file));

/** A PgBouncer in `pool_mode = transaction` in front of one PostgreSQL server, started by the test itself. */
export interface PgBouncer {
  /** `server`'s URL with the host and port replaced by the pooler's. */
  urlFor(server: string): string;
  /** Everything it logged so far. */
  log(): string;
  /** PgBouncer's own process (not runuser's), to read its CPU time. */
  pid(): number;
  stop(): Promise<void>;
}

/**
 * Starts PgBouncer on a port of its own, passing every database through to the server of `serverUrl` with trust
 * authentication for its user. PgBouncer refuses to run as root: as root it runs as the `postgres` user, its
 * configuration, log and pid files in a temporary directory that user can write.
 */
export async function startPgBouncer(serverUrl: string, startupMs = 10_000): Promise<PgBouncer> {
  if (!PGBOUNCER_BINARY) throw new Error("pgbouncer is not installed (apt-get install pgbouncer)");
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username || "postgres");
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), "fitness-pgbouncer-"));
  chmodSync(dir, 0o777);
  const file = (name: string) => path.join(dir, name);
  writeFileSync(file("users.txt"), `"${user}" ""\n`);
  writeFileSync(
    file("pgbouncer.ini"),
    [
      "[databases]",
      `* = host=${server.hostname} port=${server.port || 5432}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${file("users.txt")}`,
      "pool_mode = transaction",
      "max_client_conn = 500",
      "default_pool_size = 20",
      "ignore_startup_parameters = extra_float_digits,options",
      `logfile = ${file("pgbouncer.log")}`,
      `pidfile = ${file("pgbouncer.pid")}`,
      "",
    ].join("\n"),
  );
  const command = [PGBOUNCER_BINARY, file("pgbouncer.ini")];
  const root = process.getuid?.() === 0;
  const child: ChildProcess = spawn(root ? "runuser" : command[0], root ? ["-u", "postgres", "--", ...command] : command.slice(1), {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let errors = "";
  child.stderr?.on("data", (chunk) => (errors += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let running = true;
  void exited.then(() => (running = false));
  const log = () => (existsSync(file("pgbouncer.log")) ? readFileSync(file("pgbouncer.log"), "utf8") : "") + errors;

  const stop = async () => {
    // runuser passes the signal on to PgBouncer, which then exits; the pid file names PgBouncer itself if not.
    if (running) child.kill("SIGTERM");
    const pid = Number(existsSync(file("pgbouncer.pid")) ? readFileSync(file("pgbouncer.pid"), "utf8").trim() : 0);
    const stopped = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000))]);
    if (!stopped) {
      if (pid) process.kill(pid, "SIGKILL");
      child.kill("SIGKILL");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const until = Date.now() + startupMs;
  while (!(await accepts(port))) {
    if (!running || Date.now() > until) {
      await stop();
      throw new Error(`pgbouncer did not start listening on ${port}:\n${log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    urlFor(url) {
      const pooled = new URL(url);
      pooled.hostname = "127.0.0.1";
      pooled.port = String(port);
      return pooled.toString();
    },
    log,
    pid: () => Number(readFileSync(file("pgbouncer.pid"), "utf8").trim()),
    stop,
  };
}
