import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

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
