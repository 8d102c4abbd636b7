/**
 * Where a `--cpu-prof` profile of the service spent its busy time: self time by category (the libraries on a request's
 * path, GC, our own code) and the functions with the most self time. Idle time is left out, so shares are of busy time.
 *
 *   npx tsx bench/api/cpu-profile.ts [--skip-ms=N] file.cpuprofile…
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The first match names the category; the packages of one concern are grouped. */
const CATEGORIES: Array<[string, RegExp]> = [
  ["GC", /^\(garbage collector\)$/],
  ["drizzle (SQL building, row mapping)", /node_modules\/drizzle-orm\//],
  ["postgres driver", /node_modules\/postgres\//],
  ["graphql-js", /node_modules\/graphql\//],
  ["apollo", /node_modules\/@apollo\//],
  ["type-graphql", /node_modules\/type-graphql\//],
  [
    "express & middlewares",
    /node_modules\/(express|router|body-parser|helmet|cors|finalhandler|send|serve-static|on-finished|content-type|type-is|qs|accepts|negotiator|mime-types|vary|etag|fresh|parseurl|proxy-addr)\//,
  ],
  ["jwt", /node_modules\/(jsonwebtoken|jws|jwa|safe-buffer|ms|lodash\.[a-z]+)\//],
  ["zod", /node_modules\/zod\//],
  ["dataloader", /node_modules\/dataloader\//],
  ["metrics & logging", /node_modules\/(prom-client|pino[^/]*)\//],
  ["other packages", /node_modules\//],
  ["our code", /\/(src|rest-compat)\//],
  ["node core", /^node:|^$/],
];

export interface ProfileSummary {
  busyMs: number;
  categories: Array<{ name: string; ms: number; share: number }>;
  functions: Array<{ name: string; category: string; ms: number; share: number }>;
}

/** `skipMs`: the samples of the profile's first milliseconds (the start-up: loading modules, building the schema) are left out. */
export function summarizeProfile(file: string, skipMs = 0): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map<number, number>();
  let elapsed = 0;
  profile.samples.forEach((id, i) => {
    elapsed += profile.timeDeltas[i] ?? 0;
    if (elapsed >= skipMs * 1000) selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const categories = new Map<string, number>();
  const functions = new Map<string, { category: string; micros: number }>();
  let busy = 0;
  for (const [id, micros] of selfMicros) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === "(idle)") continue;
    busy += micros;
    const category =
      functionName === "(program)"
        ? "(program): native, compiler"
        : (CATEGORIES.find(([, pattern]) => pattern.test(functionName === "(garbage collector)" ? functionName : url))?.[0] ?? "node core");
    categories.set(category, (categories.get(category) ?? 0) + micros);
    const where = url.includes("node_modules/") ? url.slice(url.lastIndexOf("node_modules/") + 13) : url.replace(/^.*\/dist\//, "");
    const name = `${functionName || "(anonymous)"} ${where}:${lineNumber + 1}`;
    const entry = functions.get(name) ?? { category, micros: 0 };
    entry.micros += micros;
    functions.set(name, entry);
  }
  const share = (micros: number) => micros / busy;
  return {
    busyMs: busy / 1000,
    categories: [...categories].sort((a, b) => b[1] - a[1]).map(([name, micros]) => ({ name, ms: micros / 1000, share: share(micros) })),
    functions: [...functions]
      .sort((a, b) => b[1].micros - a[1].micros)
      .map(([name, { category, micros }]) => ({ name, category, ms: micros / 1000, share: share(micros) })),
  };
}

export function printProfileSummary(summary: ProfileSummary, top = 15) {
  const percent = (share: number) => `${(share * 100).toFixed(1).padStart(5)}%`;
  console.log(`  busy ${(summary.busyMs / 1000).toFixed(1)} s of CPU; self time by category:`);
  for (const { name, share } of summary.categories) console.log(`    ${percent(share)}  ${name}`);
  console.log("  functions with the most self time:");
  for (const { name, share } of summary.functions.slice(0, top)) console.log(`    ${percent(share)}  ${name}`);
}

/**
 * Two profiles of the same read, each divided by the answers its server gave while profiled: where the CPU time per
 * answer went up or down, by category and by function (µs per answer; functions are matched by name and place in
 * dist/, so a function moved to another line shows as one gone and one new).
 */
export function printProfileComparison(now: { summary: ProfileSummary; answers: number }, before: { summary: ProfileSummary; answers: number }, top = 20) {
  const perAnswer = (entries: Array<{ name: string; ms: number }>, answers: number) => new Map(entries.map(({ name, ms }) => [name, (ms * 1000) / answers]));
  const rows = (nowEntries: Map<string, number>, beforeEntries: Map<string, number>) =>
    [...new Set([...nowEntries.keys(), ...beforeEntries.keys()])].map((name) => {
      const [a, b] = [nowEntries.get(name) ?? 0, beforeEntries.get(name) ?? 0];
      return { name, now: a, before: b, delta: a - b };
    });
  const micros = (value: number) => value.toFixed(1).padStart(7);
  const signed = (value: number) => `${value >= 0 ? "+" : ""}${value.toFixed(1)}`.padStart(7);
  const busy = (entry: { summary: ProfileSummary; answers: number }) => (entry.summary.busyMs * 1000) / entry.answers;
  console.log(`  µs of CPU per answer, now vs before: busy ${micros(busy(now))} vs ${micros(busy(before))} (${signed(busy(now) - busy(before))})`);
  for (const row of rows(perAnswer(now.summary.categories, now.answers), perAnswer(before.summary.categories, before.answers)).sort((a, b) => b.now - a.now))
    console.log(`    ${micros(row.now)} vs ${micros(row.before)} ${signed(row.delta)}  ${row.name}`);
  console.log("  functions whose self time per answer moved most:");
  const functions = rows(perAnswer(now.summary.functions, now.answers), perAnswer(before.summary.functions, before.answers));
  for (const row of functions.sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta)).slice(0, top))
    console.log(`    ${micros(row.now)} vs ${micros(row.before)} ${signed(row.delta)}  ${row.name}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const skipMs = Number(args.find((arg) => arg.startsWith("--skip-ms="))?.slice(10) ?? 0);
  for (const file of args.filter((arg) => !arg.startsWith("--"))) {
    console.log(file);
    printProfileSummary(summarizeProfile(file, skipMs), 30);
  }
}
