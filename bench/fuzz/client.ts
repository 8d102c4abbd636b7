import http from "node:http";

/** One hostile request, as sent: `path` is already encoded, `body` exact bytes. */
export interface FuzzRequest {
  /** "POST /trainings/{id}/execution": the operation, as the OpenAPI document names it. */
  operation: string;
  /** What is hostile about it. */
  label: string;
  /** Who sends it: a role, "anonymous", or the hostile credential's label. */
  as: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface Answer {
  status: number;
  contentType: string;
  body: Buffer;
  elapsedMs: number;
  /** Set when no answer came: the socket failed, or nothing arrived within the timeout. */
  error?: string;
}

/** Sends `request` on `agent`; never rejects: no answer is reported in `error`, after at most `timeoutMs`. */
export function send(agent: http.Agent, base: URL, request: FuzzRequest, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve) => {
    const started = performance.now();
    const headers = { ...request.headers };
    if (request.body && !Object.keys(headers).some((name) => name.toLowerCase() === "content-length")) headers["content-length"] = String(request.body.length);
    let req: http.ClientRequest;
    try {
      req = http.request({ host: base.hostname, port: base.port, method: request.method, path: request.path, agent, headers });
    } catch (error) {
      // Node refuses to send some byte sequences at all (a raw space in the path): not the server's doing.
      resolve({ status: -1, contentType: "", body: Buffer.alloc(0), elapsedMs: 0, error: `not sendable: ${(error as Error).message}` });
      return;
    }
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const done = (answer: Omit<Answer, "elapsedMs">) => {
      clearTimeout(timer);
      resolve({ ...answer, elapsedMs: performance.now() - started });
    };
    const failed = (error: string) => done({ status: -1, contentType: "", body: Buffer.alloc(0), error });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => done({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), body: Buffer.concat(chunks) }));
      res.on("error", (error) => failed(error.message));
    });
    req.on("error", (error) => failed(error.message));
    req.end(request.body);
  });
}

/**
 * A late answer (over 2 s, or none within the timeout) sent again with nothing else running is judged `…, alone too`
 * when still late, `… alongside others` when not (it waited behind another request's work); plain when not re-sent.
 */
export type Reason =
  | "5xx"
  | "slow"
  | "slow, alone too"
  | "slow alongside others"
  | "no answer"
  | "no answer, alone too"
  | "no answer alongside others"
  | "stack trace"
  | "SQL text"
  | "app crash"
  | "health";

export const SLOW_MS = 2_000;

/** Traces of a stack: frames, source positions, error dumps, stack properties, module paths. */
const STACK_PATTERNS: RegExp[] = [
  /(?:\\n|\n)\s*at \S[^\n]*?:\d+:\d+/,
  /[\w/.-]+\.(?:ts|js|mjs|cjs):\d+/,
  /\b(?:[A-Z][a-z]+)+Error: /,
  /(?:^|\\n|\n|")Error: /,
  /"stack(?:trace)?"\s*:/,
  /node_modules|file:\/\//,
];

/** SQL and the database's own words. */
const SQL_PATTERNS: RegExp[] = [
  /\bselect\s/i,
  /\binsert\s+into\b/i,
  /\bdelete\s+from\b/i,
  /\bsyntax error at\b/i,
  /\bviolates\b/i,
  /\brelation "/i,
  /\bduplicate key\b/i,
  /\bpostgres/i,
  /\bFailed query\b/i,
];

const isText = (contentType: string) => contentType === "" || /json|text|html|xml|javascript/i.test(contentType);

/**
 * What is wrong with an answer: a 5xx, no answer, one over 2 s, a stack trace or SQL text in the body. A match the
 * request itself carries (an echoed name) is not the server's.
 */
export function problemsOf(request: FuzzRequest, answer: Answer): Array<{ reason: Reason; detail: string }> {
  const problems: Array<{ reason: Reason; detail: string }> = [];
  if (answer.error) {
    if (!answer.error.startsWith("not sendable")) problems.push({ reason: "no answer", detail: answer.error });
    return problems;
  }
  if (answer.status >= 500) problems.push({ reason: "5xx", detail: String(answer.status) });
  if (answer.elapsedMs > SLOW_MS) problems.push({ reason: "slow", detail: `${Math.round(answer.elapsedMs)} ms` });
  if (isText(answer.contentType) && answer.body.length > 0) {
    const text = answer.body.toString("utf8");
    const sent = `${request.path}\n${request.body?.toString("utf8") ?? ""}`.toLowerCase();
    const leak = (patterns: RegExp[]) => {
      for (const pattern of patterns) {
        const match = pattern.exec(text);
        if (match && !sent.includes(match[0].toLowerCase())) return match[0];
      }
      return null;
    };
    const stack = leak(STACK_PATTERNS);
    if (stack) problems.push({ reason: "stack trace", detail: JSON.stringify(stack) });
    const sql = leak(SQL_PATTERNS);
    if (sql) problems.push({ reason: "SQL text", detail: JSON.stringify(sql) });
  }
  return problems;
}
