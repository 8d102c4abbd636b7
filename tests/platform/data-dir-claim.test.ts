import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { holdDataDirectory } from "../helpers/service-process.js";
import { claimDataDirectory, DataDirLockedError, OwnerRefusal, sendToOwner, type DataDirClaim } from "../../src/platform/db/data-dir-claim.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A database directory (never opened here: the claim is about who may open it). */
function databaseDir(): string {
  const parent = mkdtempSync(path.join(tmpdir(), "fitness-claim-"));
  cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
  return path.join(parent, "pglite");
}

async function claim(dir: string): Promise<DataDirClaim> {
  const taken = await claimDataDirectory(dir);
  cleanups.push(() => taken.release());
  return taken;
}

/** A lock file as another process would have left it. */
function leaveLock(dir: string, owner: { pid: number; start: string | null }) {
  writeFileSync(`${dir}.lock`, JSON.stringify({ ...owner, host: hostname(), token: "left-behind" }));
}

describe("a database directory's claim", () => {
  it("refuses a second claim while the first holds it, naming the directory and the owner; released, it can be taken again", async () => {
    const dir = databaseDir();
    const first = await claimDataDirectory(dir);
    const refused = await claimDataDirectory(dir).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DataDirLockedError);
    expect((refused as Error).message).toBe(`the database directory ${dir} is in use by process ${process.pid} on ${hostname()}`);

    await first.release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
    await claim(dir);
  });

  it("answers commands on its socket, only its owner's user may use it", async () => {
    const dir = databaseDir();
    expect(await sendToOwner(dir, { command: "grant" })).toBeNull();

    const owner = await claim(dir);
    expect(statSync(owner.socketPath!).mode & 0o777).toBe(0o600);
    await expect(sendToOwner(dir, { command: "grant" })).rejects.toThrow(
      new OwnerRefusal("the process that owns the database is not taking commands (yet): run this again in a moment"),
    );

    owner.serve(async (command) => {
      if ((command as { command: string }).command !== "grant") throw new Error("unknown command");
      return { granted: ["ana@example.com"] };
    });
    expect(await sendToOwner(dir, { command: "grant" })).toEqual({ granted: ["ana@example.com"] });
    await expect(sendToOwner(dir, { command: "revoke" })).rejects.toThrow(new OwnerRefusal("unknown command"));
  });

  it("holds without a socket where none can be made (a path too long for one), refusing a second claim", async () => {
    const dir = path.join(databaseDir(), "x".repeat(120), "pglite");
    mkdirSync(path.dirname(dir), { recursive: true });
    const own = await claimDataDirectory(dir);
    expect(own.socketPath).toBeNull();
    await own.release();

    const owner = await holdDataDirectory(dir);
    cleanups.push(() => owner.child.kill("SIGKILL"));
    expect(await sendToOwner(dir, { command: "grant" })).toBeNull();
    await expect(claimDataDirectory(dir)).rejects.toThrow(`the database directory ${dir} is in use by process ${owner.child.pid}`);
  });

  it("is given up even while a client holds a connection open without finishing its command", async () => {
    const dir = databaseDir();
    const owner = await claimDataDirectory(dir);
    const client = createConnection(owner.socketPath!);
    const closed = new Promise((resolve) => client.on("close", resolve));
    client.on("error", () => undefined);
    await new Promise((resolve) => client.once("connect", resolve));
    client.write('{"command":');

    await owner.release();
    await closed;
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it("holds while its owner process lives, even when its socket is gone, and is taken over once that process is killed", async () => {
    const dir = databaseDir();
    const owner = await holdDataDirectory(dir);
    cleanups.push(() => owner.child.kill("SIGKILL"));

    unlinkSync(path.join(path.dirname(dir), "admin.sock"));
    await expect(claimDataDirectory(dir)).rejects.toThrow(`is in use by process ${owner.child.pid}`);

    owner.child.kill("SIGKILL");
    await owner.exited;
    await claim(dir);
  }, 30_000);

  // A container's service is pid 1 on every start: the pid a lock names may now be another process, or this one.
  it.runIf(existsSync("/proc/self/stat"))("is taken over when the process its lock names started after the lock was taken", async () => {
    const dir = databaseDir();
    leaveLock(dir, { pid: process.ppid, start: "1" });
    await claim(dir);
  });

  it("is taken over when its lock names this very process", async () => {
    const dir = databaseDir();
    leaveLock(dir, { pid: process.pid, start: null });
    await claim(dir);
  });
});
