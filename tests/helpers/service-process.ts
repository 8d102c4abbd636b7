import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export interface ServiceProcess {
  child: ChildProcess;
  /** Everything it wrote so far, stdout and stderr. */
  output: () => string;
  /** What it wrote to stderr so far. */
  errors: () => string;
  /** Resolves once it has written `fragment` to stdout; rejected when it exits first. */
  said: (fragment: string) => Promise<void>;
  /** Its exit code, once its output is all read. */
  exited: Promise<number | null>;
  /** `http://127.0.0.1:<port>` once it listens; rejected when it exits first. */
  base: Promise<string>;
}

/**
 * Starts the service (`src/main.ts`) as a child process on a port the system picks (PORT=0), read back from its
 * "listening" log line: a port chosen here and handed over could be taken by another worker's app meanwhile, and the
 * test would then talk to that app. `env` goes over the test's own environment (say DATA_DIR and DATABASE_URL).
 */
export function startService(env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "src/main.ts")], {
    cwd: root,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", NODE_ENV: "development", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  // Once its output is all read too ("exit" may come before the last of it).
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const base = new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk) => {
      text += chunk;
      const port = /"port":(\d+).*"msg":"listening"/.exec(text)?.[1];
      if (port) resolve(`http://127.0.0.1:${port}`);
    });
    void exited.then((code) => reject(new Error(`the service exited (${code}) before listening:\n${text}`)));
  });
  base.catch(() => undefined);
  let errors = "";
  child.stderr?.on("data", (chunk) => {
    text += chunk;
    errors += chunk;
  });
  const said = (fragment: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!text.includes(fragment)) return;
        child.stdout?.off("data", check);
        resolve();
      };
      child.stdout?.on("data", check);
      check();
      void exited.then(() => reject(new Error(`the service exited without saying ${fragment}:\n${text}`)));
    });
  return { child, output: () => text, errors: () => errors, exited, base, said };
}

export async function waitForHealth(base: string, deadlineMs = 45_000) {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if ((await fetch(`${base}/readyz`)).status === 200) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("service did not become ready");
}

/**
 * Another process that claims the PGlite directory `dir` (as a service does when it opens it) and holds it until
 * killed; resolved once the claim is taken.
 */
export async function holdDataDirectory(dir: string): Promise<{ child: ChildProcess; exited: Promise<unknown> }> {
  const script = `import { claimDataDirectory } from "./src/platform/db/data-dir-claim.ts";
    await claimDataDirectory(${JSON.stringify(dir)}); console.log("claimed"); setInterval(() => undefined, 60_000);`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("claimed") && resolve());
    void exited.then(() => reject(new Error("the claiming process exited")));
  });
  return { child, exited };
}
