import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/** The node options of package.json's `start` (`node <options> scripts/start.mjs`), which bench:api runs too. */
function startOptions(): string[] {
  const [command, ...rest] = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start.split(/\s+/);
  expect(command).toBe("node");
  expect(rest.at(-1)).toBe("scripts/start.mjs");
  return rest.slice(0, -1);
}

/** The node options of the image's exec-form CMD (`["node", <options>, "dist/src/main.js"]`). */
function imageOptions(): string[] {
  const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(path.join(root, "Dockerfile"), "utf8"))?.[1];
  const [command, ...rest] = JSON.parse(cmd ?? "[]") as string[];
  expect(command).toBe("node");
  expect(rest.at(-1)).toBe("dist/src/main.js");
  return rest.slice(0, -1);
}

describe("start command", () => {
  // The memory bench:api measures is that of `npm start`: the image must run what was measured.
  it("gives the image the V8 options npm start gives node", () => {
    expect(startOptions().length).toBeGreaterThan(0);
    expect(imageOptions()).toEqual(startOptions());
  });

  it("uses options this node accepts", () => {
    const run = spawnSync(process.execPath, [...startOptions(), "-e", "0"], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});

describe("Node.js version guard", () => {
  const { tooOld } = createRequire(import.meta.url)(path.join(root, "scripts/require-node.cjs")) as { tooOld(version: string): string | undefined };
  const howToGet = "npm install -g --prefix ~/.local/node24 node@24 && export PATH=~/.local/node24/bin:$PATH";

  it("names the Node.js package.json's engines need and how to get it, for an older one only", () => {
    expect(tooOld("v21.7.3")).toBe(`Node.js 22 or newer is needed (this is v21.7.3); get Node.js 24 with: ${howToGet}`);
    expect(tooOld("v8.17.0")).toContain("(this is v8.17.0)");
    expect(tooOld("v22.0.0")).toBeUndefined();
    expect(tooOld(process.version)).toBeUndefined();
  });

  // The system's Node of the development machine is 20: npm start, dev and test really run on it there.
  const systemNode = "/usr/bin/node";
  const systemVersion = existsSync(systemNode) ? spawnSync(systemNode, ["--version"], { encoding: "utf8" }).stdout.trim() : undefined;

  /** `npm run <script>` with the system's Node first on PATH (npm runs scripts with the first node there). */
  async function runOnSystemNode(script: string, args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
    const dataDir = mkdtempSync(path.join(tmpdir(), "fitness-old-node-"));
    // Where the guard is missing the service or the watcher would keep running: its whole process group goes.
    const child = spawn("npm", ["run", "--silent", script, "--", ...args], {
      cwd: root,
      detached: true,
      env: { ...process.env, PATH: `${path.dirname(systemNode)}:${process.env.PATH}`, PORT: "0", DATA_DIR: dataDir, DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    onTestFinished(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
      rmSync(dataDir, { recursive: true, force: true });
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const [status] = (await once(child, "exit")) as [number | null];
    return { status, stdout, stderr };
  }

  // Unguarded, `vitest run` would run the whole suite: a filter no file matches has it stop at once.
  it.for([["start"], ["dev"], ["test", "no-such-test-file", "--passWithNoTests"]])(
    "stops npm %s at once on an older Node.js, with that one line",
    async ([script, ...args], { skip }) => {
      if (!systemVersion || !tooOld(systemVersion)) skip(`needs an older Node.js at ${systemNode} (found ${systemVersion ?? "none"})`);
      const run = await runOnSystemNode(script, args);
      expect(run.stderr).toBe(`Node.js 22 or newer is needed (this is ${systemVersion}); get Node.js 24 with: ${howToGet}\n`);
      expect(run.stdout).toBe("");
      expect(run.status).toBe(1);
    },
  );
});
