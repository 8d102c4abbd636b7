import { randomBytes } from "node:crypto";
import { chmodSync, linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { hostname } from "node:os";
import path from "node:path";

/**
 * An embedded database's directory belongs to one process at a time: two PGlite instances on the same files lose each
 * other's writes and can corrupt them. The owner holds `<dir>.lock` (created exclusively) and listens on the admin
 * socket next to it, `admin.sock` (mode 0600: only who may read the data may use it), where other processes (the
 * admin command line) send the commands the owner then applies through its own services.
 */
export interface DataDirClaim {
  /** Where the owner answers commands; null when it could not listen there. */
  socketPath: string | null;
  /** Answers each command on the socket with `handle`'s result; until then (a service starting, a command line), they are refused. */
  serve(handle: (command: unknown) => Promise<unknown>): void;
  /** Stops answering and gives the directory up (after the database is closed). */
  release(): Promise<void>;
}

/** Who holds a directory, as its lock file says. */
interface Owner {
  pid: number;
  host: string;
  /** The process's start time (Linux: /proc/<pid>/stat), telling it apart from a later process given the same pid. */
  start: string | null;
  /** Tells this claim's lock file apart from any other, so a stale one is never mistaken for a fresh one. */
  token: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly owner: Pick<Owner, "pid" | "host">,
  ) {
    super(`the database directory ${dir} is in use by process ${owner.pid} on ${owner.host}`);
  }
}

/** The owner's answer when it could not apply a command (still starting, or the command failed). */
export class OwnerRefusal extends Error {}

/** The admin socket of the database directory `dir` (a Unix domain socket beside it). */
export function adminSocketPath(dir: string): string {
  return path.join(path.dirname(dir), "admin.sock");
}

/**
 * Takes the database directory `dir` for this process, or throws DataDirLockedError naming its owner. A lock left by
 * a process that is gone (a crash, a container restarted, where the service is pid 1 again) is taken over.
 */
export async function claimDataDirectory(dir: string): Promise<DataDirClaim> {
  const lockPath = `${dir}.lock`;
  const socketPath = adminSocketPath(dir);
  const me: Owner = { pid: process.pid, host: hostname(), start: processStart(process.pid), token: randomBytes(12).toString("hex") };
  while (!createLock(lockPath, me)) {
    const held = readLock(lockPath);
    if (held && (await ownerLives(held, socketPath))) throw new DataDirLockedError(dir, held);
    takeOverStale(lockPath, held);
  }
  // A filesystem that refuses sockets (some bind mounts) or a path too long for one: the lock still holds, and the
  // command line, finding nobody answering, says to stop the service first.
  const server = await listen(socketPath).catch(() => null);
  let handle: ((command: unknown) => Promise<unknown>) | undefined;
  const connections = new Set<Socket>();
  server?.on("connection", (socket) => {
    connections.add(socket);
    socket.on("close", () => connections.delete(socket));
    let request = "";
    socket.setEncoding("utf8");
    socket.on("error", () => undefined);
    socket.on("data", (chunk) => {
      request += chunk;
      if (!request.includes("\n")) return;
      socket.removeAllListeners("data");
      const answer = handle
        ? Promise.resolve()
            .then(() => handle!(JSON.parse(request)))
            .then(
              (result) => ({ result }),
              (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
            )
        : Promise.resolve({ error: "the process that owns the database is not taking commands (yet): run this again in a moment" });
      void answer.then((body) => socket.end(`${JSON.stringify(body)}\n`));
    });
  });
  return {
    socketPath: server ? socketPath : null,
    serve(next) {
      handle = next;
    },
    async release() {
      // The socket first (closing it removes its file), then the lock: whoever looks in between finds this process.
      // A client that never finishes its command does not hold the shutdown up.
      for (const socket of connections) socket.destroy();
      if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
      if (readLock(lockPath)?.token === me.token) unlinkSync(lockPath);
    },
  };
}

/**
 * Sends `command` to the process that owns the database directory `dir` and returns its answer; null when no process
 * answers there. A refusal or failure on the owner's side is thrown as an OwnerRefusal with its message.
 */
export async function sendToOwner(dir: string, command: unknown): Promise<unknown> {
  const socket = createConnection(adminSocketPath(dir));
  socket.setEncoding("utf8");
  let answer = "";
  socket.on("data", (chunk) => (answer += chunk));
  const reached = await new Promise<boolean>((resolve) => {
    socket.once("connect", () => resolve(true));
    socket.once("error", () => resolve(false));
  });
  if (!reached) return null;
  socket.end(`${JSON.stringify(command)}\n`);
  await new Promise<void>((resolve, reject) => {
    socket.once("close", () => resolve());
    socket.once("error", reject);
  });
  if (!answer) throw new OwnerRefusal("the process that owns the database closed the connection without answering");
  const body = JSON.parse(answer) as { result?: unknown; error?: string };
  if (body.error !== undefined) throw new OwnerRefusal(body.error);
  return body.result;
}

/** Listens on `socketPath`, replacing a socket file a former owner left (the lock, held now, says it is gone). */
async function listen(socketPath: string): Promise<Server> {
  for (let attempt = 0; ; attempt++) {
    const server = createServer();
    try {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(socketPath, () => resolve());
      });
      chmodSync(socketPath, 0o600);
      // The owner's work keeps the process alive, not this socket: a command line that owns the directory can exit.
      server.unref();
      return server;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE" || attempt > 0) throw error;
      unlinkSync(socketPath);
    }
  }
}

/**
 * Creates the lock file unless one exists. Written aside and linked into place, so it never exists half written
 * (which a reader would take for a stale lock).
 */
function createLock(lockPath: string, owner: Owner): boolean {
  const draft = `${lockPath}.${owner.token}`;
  writeFileSync(draft, JSON.stringify(owner), { mode: 0o600 });
  try {
    linkSync(draft, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return false;
  } finally {
    unlinkSync(draft);
  }
}

function readLock(lockPath: string): Owner | null {
  try {
    return JSON.parse(readFileSync(lockPath, "utf8")) as Owner;
  } catch {
    // Gone meanwhile, or not a lock this service wrote: either way nobody holds it.
    return null;
  }
}

/**
 * Whether the lock's owner still runs: its socket answers, or, on this host, a process with its pid and start time
 * exists. A process with the same pid that started later is another one (a restarted container's service is pid 1
 * every time), and this very process never is the owner of a lock it did not take.
 */
async function ownerLives(owner: Owner, socketPath: string): Promise<boolean> {
  if (await socketAnswers(socketPath)) return true;
  // Another machine or container: only its socket can say it is there.
  if (owner.host !== hostname() || owner.pid === process.pid) return false;
  if (owner.start !== null) return processStart(owner.pid) === owner.start;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function socketAnswers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(socketPath);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Removes a stale lock so the next attempt can take it. It is moved aside first and checked to be the one judged
 * stale: when two processes take over at once, the second would otherwise remove the lock the first just made.
 */
function takeOverStale(lockPath: string, stale: Owner | null): void {
  const aside = `${lockPath}.${process.pid}.stale`;
  try {
    renameSync(lockPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  const moved = readLock(aside);
  if (moved && moved.token !== stale?.token) {
    // A live claim made since: back where it was (link fails rather than replace a claim made in between).
    try {
      linkSync(aside, lockPath);
    } catch {
      // Another claim is there already: this one lost.
    }
  }
  unlinkSync(aside);
}

/** The start time of process `pid` in clock ticks since boot (Linux), null where /proc does not tell. */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces, inside parentheses): state is field 3, starttime 22.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}
