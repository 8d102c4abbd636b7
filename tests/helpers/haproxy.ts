import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { accepts, freePort } from "./ports.js";

/** Where Debian's package puts HAProxy (`apt-get install haproxy`); undefined when it is not installed. */
export const HAPROXY_BINARY = ["/usr/sbin/haproxy", "/usr/bin/haproxy"].find((file) => existsSync(file));

/** The configuration docker-compose.yml's `scale` profile runs. */
const DEPLOYED_CONFIG = path.resolve(import.meta.dirname, "../../deploy/haproxy.cfg");
/** Its backend, whose servers are the instances. */
const BACKEND = "instances";

/** HAProxy in front of instances of the service, started by the test itself. */
export interface Haproxy {
  /** `http://127.0.0.1:<port>`: where clients send their requests. */
  url: string;
  /**
   * Points the `index`th server (in the order given to startHaproxy) at `base` (`http://host:port`), as Docker's DNS
   * would a restarted container's new address; it takes requests once its health checks pass.
   */
  setServer(index: number, base: string): Promise<void>;
  /** Each server's state as HAProxy sees it (`UP`, `DOWN`, `UP 1/2` while rising…), in order. */
  serverStates(): Promise<string[]>;
  /** Resolves once every server is UP; rejected past `deadlineMs`. */
  allUp(deadlineMs?: number): Promise<void>;
  /** Everything it logged so far (one line per request, `option httplog`). */
  log(): string;
  stop(): Promise<void>;
}

/**
 * Starts HAProxy on a port of its own with deploy/haproxy.cfg, its servers being the instances at `bases`
 * (`http://host:port` each, as many as the file declares): what is tested is what is deployed. An admin socket in a
 * temporary directory lets the test move a server to a restarted instance's new port.
 */
export async function startHaproxy(bases: string[], startupMs = 10_000): Promise<Haproxy> {
  if (!HAPROXY_BINARY) throw new Error("haproxy is not installed (apt-get install haproxy)");
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), "fitness-haproxy-"));
  const socket = path.join(dir, "admin.sock");
  let servers = 0;
  const config = readFileSync(DEPLOYED_CONFIG, "utf8")
    .split("\n")
    .map((line) => {
      if (/^global\b/.test(line)) return `${line}\n  stats socket ${socket} level admin`;
      if (/^\s+bind\s/.test(line)) return `  bind 127.0.0.1:${port}`;
      const server = /^(\s+server\s+\S+\s+)\S+(.*)$/.exec(line);
      if (!server) return line;
      const base = bases[servers++];
      return base ? `${server[1]}${new URL(base).host}${server[2]}` : line;
    })
    .join("\n");
  if (servers !== bases.length) throw new Error(`${DEPLOYED_CONFIG} declares ${servers} servers, not ${bases.length}`);
  writeFileSync(path.join(dir, "haproxy.cfg"), config);

  // -db: in the foreground, logging to its standard output.
  const child: ChildProcess = spawn(HAPROXY_BINARY, ["-db", "-f", path.join(dir, "haproxy.cfg")], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let running = true;
  void exited.then(() => (running = false));

  const stop = async () => {
    if (running) child.kill("SIGTERM");
    const stopped = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000))]);
    if (!stopped) {
      child.kill("SIGKILL");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };

  /** One command on the admin socket; its answer. */
  const command = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const admin = connect(socket);
      let answer = "";
      admin.on("data", (chunk) => (answer += chunk));
      admin.once("error", reject);
      admin.once("close", () => resolve(answer));
      admin.end(`${text}\n`);
    });
  const serverStates = async () => {
    // `show stat`'s CSV: a header line (`# pxname,svname,…,status,…`), then a line per frontend, backend and server.
    const [header, ...rows] = (await command("show stat")).trim().split("\n");
    const columns = header.replace(/^# /, "").split(",");
    const [proxy, name, status] = ["pxname", "svname", "status"].map((column) => columns.indexOf(column));
    return rows
      .map((row) => row.split(","))
      .filter((cells) => cells[proxy] === BACKEND && cells[name] !== "BACKEND")
      .map((cells) => cells[status]);
  };

  const until = Date.now() + startupMs;
  while (!(await accepts(port))) {
    if (!running || Date.now() > until) {
      await stop();
      throw new Error(`haproxy did not start listening on ${port}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const names = [...config.matchAll(/^\s+server\s+(\S+)/gm)].map((match) => match[1]);
  return {
    url: `http://127.0.0.1:${port}`,
    async setServer(index, base) {
      const { hostname, port: serverPort } = new URL(base);
      const answer = await command(`set server ${BACKEND}/${names[index]} addr ${hostname} port ${serverPort}`);
      if (!/changed/.test(answer)) throw new Error(`haproxy did not move ${names[index]} to ${base}: ${answer}`);
    },
    serverStates,
    async allUp(deadlineMs = 20_000) {
      const deadline = Date.now() + deadlineMs;
      let states = await serverStates();
      while (!states.every((state) => state === "UP")) {
        if (Date.now() > deadline) throw new Error(`haproxy's servers are not all up: ${states.join(", ")}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
        states = await serverStates();
      }
    },
    log: () => output,
    stop,
  };
}
