import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { connect } from "node:net";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { rowsOf } from "../helpers/database.js";
import type { ApiResponse, TestApp } from "../helpers/test-app.js";

export const IN_FLIGHT = { message: "Requisição em andamento para esta chave de idempotência", success: false };
export const REUSED = { message: "Chave de idempotência já usada com outra requisição", success: false };
export const INVALID_KEY = { message: "Parâmetro inválido: Idempotency-Key", success: false };
export const HOUR_MS = 60 * 60_000;
export const DAY_MS = 24 * HOUR_MS;

/** The header of a request that sends `key`. */
/** Every key a test sent, so that keyRows can name a stored row by the client's key it stands for. */
const sentKeys = new Set<string>();

export const keyed = (key: string, headers: Record<string, string> = {}) => {
  sentKeys.add(key);
  return { ...headers, "idempotency-key": key };
};

/**
 * `again` is `first` sent back from the key's store: the same status, Content-Type, Location and body bytes, marked
 * `Idempotent-Replayed: true` (which the first answer is not).
 */
export function expectReplay(again: ApiResponse, first: ApiResponse): void {
  expect(first.headers.get("idempotent-replayed")).toBeNull();
  expect(again.headers.get("idempotent-replayed")).toBe("true");
  expect(again.status).toBe(first.status);
  expect(again.headers.get("content-type")).toBe(first.headers.get("content-type"));
  expect(again.headers.get("location")).toBe(first.headers.get("location"));
  expect(again.text).toBe(first.text);
}

/** A fresh answer, not a replay. */
export function expectFresh(res: ApiResponse): void {
  expect(res.headers.get("idempotent-replayed")).toBeNull();
}

export interface KeyRow {
  scope: string;
  key: string;
  state: string;
  status: number | null;
  user_id: number | null;
}

/**
 * The rows of idempotency_keys, oldest claim first, each `key` the client's key its stored digest stands for (among the
 * keys sent with `keyed` or given here); a row whose digest matches none keeps what is stored.
 */
export async function keyRows(t: TestApp, ...alsoSent: string[]): Promise<KeyRow[]> {
  const stored = rowsOf<KeyRow>(await t.db.execute(sql`select scope, key, state, status, user_id from idempotency_keys order by created_at, key`));
  const candidates = [...sentKeys, ...alsoSent];
  return stored.map((row) => {
    const sent = candidates.find((key) => t.app.services.idempotency.sealOf(row.scope, key).storedKey === row.key);
    return { ...row, key: sent ?? row.key };
  });
}

export async function countOf(t: TestApp, table: string): Promise<number> {
  const [row] = rowsOf<{ n: number }>(await t.db.execute(sql.raw(`select count(*)::int as n from "${table}"`)));
  return row.n;
}

/** Waits (polling the database) until `check` holds. */
export async function until(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Until the key's row is in `state`. */
export const untilKeyState = (t: TestApp, key: string, state: "RUNNING" | "DONE") =>
  until(async () => (await keyRows(t, key)).some((row) => row.key === key && row.state === state), `key ${key} ${state}`);

/** A multipart form as the bytes a client sends, with its Content-Type (its boundary): a retry sends the same bytes. */
export async function multipartBytes(form: FormData): Promise<{ bytes: Buffer; contentType: string }> {
  const encoded = new Request("http://localhost/", { method: "POST", body: form });
  return { bytes: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get("content-type")! };
}

/** A request whose body is sent in two parts, the second when the test says: a slow upload held half way. */
export function heldUpload(
  t: TestApp,
  path: string,
  headers: Record<string, string>,
  bytes: Buffer,
): { sendRest(): void; cut(): void; answer: Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> } {
  const url = new URL(t.baseUrl + path);
  const half = Math.floor(bytes.length / 2);
  const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { ...headers, "content-length": bytes.length } });
  const answer = new Promise<{ status: number; headers: IncomingHttpHeaders; text: string }>((resolve, reject) => {
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
  });
  req.flushHeaders();
  req.write(bytes.subarray(0, half));
  return {
    sendRest: () => req.end(bytes.subarray(half)),
    cut: () => req.destroy(),
    answer,
  };
}

/**
 * Sends a whole request over a raw socket and never reads its answer; `cut()` closes the socket: the client's
 * connection lost after the request went out, as on a gym's network.
 */
export function sendWithoutReading(t: TestApp, method: string, path: string, headers: Record<string, string>, body: string): Promise<{ cut(): void }> {
  const url = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      const lines = [`${method} ${path} HTTP/1.1`, `host: ${url.host}`, `content-length: ${Buffer.byteLength(body)}`];
      for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
      socket.write(`${lines.join("\r\n")}\r\n\r\n${body}`, () => resolve({ cut: () => socket.destroy() }));
    });
    socket.on("error", reject);
  });
}

/** Sends a raw request (headers as lines, so one may repeat) and reads its answer's status and body. */
export function rawRequest(t: TestApp, head: string[], body = ""): Promise<{ status: number; text: string }> {
  const url = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      const lines = [...head, `host: ${url.host}`, `content-length: ${Buffer.byteLength(body)}`, "connection: close"];
      socket.end(`${lines.join("\r\n")}\r\n\r\n${body}`);
    });
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      resolve({ status: Number(text.split(" ")[1]), text: text.slice(text.indexOf("\r\n\r\n") + 4) });
    });
    socket.on("error", reject);
  });
}
