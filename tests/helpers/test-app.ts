import { mkdtempSync, rmSync } from "node:fs";
import http, { type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { TestClock } from "pg-boss";
import { afterAll, beforeAll, beforeEach, inject } from "vitest";
import { createApp, type App } from "../../src/app.js";
import { createPasswordHasher, type PasswordHasher } from "../../src/platform/auth/password-hasher.js";
import { ManualClock } from "../../src/platform/clock.js";
import { loadConfig, type Config } from "../../src/platform/config.js";
import type { DatabaseHandle } from "../../src/platform/db/database.js";
import { createHttpServer } from "../../src/platform/http/http-server.js";
import { createLogger } from "../../src/platform/logger.js";
import { anotherConnectionToWorkerDatabase, resetDatabase } from "./database.js";
import { ContractValidator, saveReached, type ExchangeRequest } from "./openapi-contract.js";
import { TestSmtpServer } from "./smtp-server.js";

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  /** Sent as is (malformed JSON, multipart). */
  raw?: NonNullable<RequestInit["body"]>;
  /** The request breaks the OpenAPI document on purpose: only the answer is checked against it. */
  invalidRequest?: boolean;
}

/** What a raw `fetch` through the app checks: the request may break the document on purpose. */
export interface FetchOptions {
  invalidRequest?: boolean;
}

/** Cost-4 hashing keeps tests fast; the pool is the same code as production. */
let sharedHasher: PasswordHasher | undefined;
const testHasher = () => (sharedHasher ??= createPasswordHasher({ cost: 4, threads: 2 }));

/** One entry of a GraphQL answer's `errors`. */
export type GraphqlError = { message: string; path?: Array<string | number>; extensions: Record<string, any> };

export class TestApp {
  readonly clock: ManualClock;
  /** The job engine's clock (when a test starts the engine): its polls and schedules fire only when a test moves it. */
  readonly jobClock: TestClock;
  readonly smtp: TestSmtpServer;
  readonly logLines: string[] = [];
  baseUrl = "";
  app!: App;
  config!: Config;
  database!: DatabaseHandle;
  private server!: Server;
  private contract!: ContractValidator;
  /** Inside withInvalidRequests: every request breaks the document on purpose. */
  private invalidScopes = 0;
  private dataDir = "";
  private closeDatabase: () => Promise<void> = async () => undefined;

  /** What is wrong with a webhook delivery's body against the served document's `webhooks` section (none: []). */
  webhookEventProblems(body: string): string[] {
    return this.contract.webhookEventProblems(body);
  }

  /**
   * `sibling`: this app is a second instance of the service beside that one, as behind a load balancer: its own
   * process state and (on PostgreSQL) its own connection pool on the same database, the same clocks and SMTP server.
   */
  constructor(
    private readonly env: Record<string, string> = {},
    private readonly sibling?: TestApp,
  ) {
    this.clock = sibling?.clock ?? new ManualClock(new Date());
    this.jobClock = sibling?.jobClock ?? new TestClock();
    this.smtp = sibling?.smtp ?? new TestSmtpServer();
  }

  async start(): Promise<void> {
    const connection = await anotherConnectionToWorkerDatabase();
    this.database = connection.handle;
    this.closeDatabase = connection.close;
    const smtpUrl = this.sibling ? this.sibling.config.smtpUrl! : await this.smtp.start();
    this.dataDir = mkdtempSync(path.join(tmpdir(), "fitness-test-"));
    const env = {
      NODE_ENV: "test",
      DATA_DIR: this.dataDir,
      JWT_SECRET: "test-secret-that-is-long-enough-for-hs256-0123456789",
      WEB_APP_URL: "https://app.fitness.test",
      SMTP_URL: smtpUrl,
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      LOGIN_FAILURES_PER_EMAIL: "1000",
      // Every test client is 127.0.0.1, as a load balancer would be, and tests send many requests at once.
      MAX_CONNECTIONS_PER_ADDRESS: "0",
      LOG_LEVEL: "info",
      ...this.env,
    };
    // The server is the production one, with the configured limits; the rest of the configuration names its address.
    this.server = createHttpServer(loadConfig(env).http);
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.config = loadConfig({ PUBLIC_BASE_URL: this.baseUrl, ...env });
    const lines = this.logLines;
    const sink = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(String(chunk));
        callback();
      },
    });
    this.app = await createApp({
      config: this.config,
      database: this.database,
      clock: this.clock,
      logger: createLogger(this.config.logLevel, sink),
      hasher: testHasher(),
      jobClock: this.jobClock,
    });
    this.server.on("request", this.app.express);
    this.server.on("upgrade", this.app.sockets.upgrade);
    // Every exchange of the tests is checked against the document this app serves.
    this.contract = ContractValidator.of(await documentOf(this.baseUrl));
  }

  async reset(): Promise<void> {
    if (this.sibling) return;
    await resetDatabase(this.database);
    this.smtp.clear();
    this.smtp.refuseAll = false;
    this.logLines.length = 0;
    this.clock.set(new Date());
  }

  async stop(): Promise<void> {
    // As main.ts shuts down: not ready, WebSockets told to go away, then the server stops once its requests are answered.
    void this.app.beginShutdown();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    // The password hasher handed in (its threads are shared by every app of this worker) stays open.
    await this.app.close();
    saveReached(inject("openapiCoverageDir"));
    await this.closeDatabase();
    if (!this.sibling) await this.smtp.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  get db() {
    return this.database.db;
  }

  get uploadsDir() {
    return path.join(this.dataDir, "uploads");
  }

  async request<T = any>(method: string, url: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: RequestInit["body"] = options.raw;
    if (options.body !== undefined) {
      headers["content-type"] ??= "application/json";
      body = JSON.stringify(options.body);
    }
    const response = await fetch(this.baseUrl + url, { method, headers, body });
    const text = await response.text();
    await this.contract.check(
      { method, url: new URL(this.baseUrl + url), headers: new Headers(headers), invalidRequest: this.marksInvalid(options), ...sentBody(options) },
      { status: response.status, headers: response.headers, text },
    );
    let parsed: unknown = text;
    if ((response.headers.get("content-type") ?? "").includes("json") && text) parsed = JSON.parse(text);
    return { status: response.status, body: parsed as T, headers: response.headers, text };
  }

  /**
   * `fetch` on the app, for answers read as bytes (a PDF) and for clients that bring their own requests (openapi-fetch):
   * the exchange is checked against the OpenAPI document like the others. Its answer's body is read here.
   */
  fetch = async (input: string | URL | Request, init?: RequestInit, options: FetchOptions = {}): Promise<Response> => {
    const request = new Request(typeof input === "string" && input.startsWith("/") ? this.baseUrl + input : input, init);
    const sent = request.body ? new Uint8Array(await request.clone().arrayBuffer()) : undefined;
    const response = await fetch(request);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const mediaType = (response.headers.get("content-type") ?? "").split(";")[0];
    await this.contract.check(
      { method: request.method, url: new URL(request.url), headers: request.headers, raw: sent, invalidRequest: this.marksInvalid(options) },
      // A binary answer's bytes are not text: only its presence matters to the document.
      {
        status: response.status,
        headers: response.headers,
        text: mediaType === "application/json" || bytes.length === 0 ? new TextDecoder().decode(bytes) : "<bytes>",
      },
    );
    return new Response(response.status === 204 || response.status === 304 ? null : bytes, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };

  /** Runs `send`, whose requests (through helpers that take no options) break the OpenAPI document on purpose. */
  async withInvalidRequests<T>(send: () => Promise<T>): Promise<T> {
    this.invalidScopes += 1;
    try {
      return await send();
    } finally {
      this.invalidScopes -= 1;
    }
  }

  private marksInvalid(options: { invalidRequest?: boolean }): boolean {
    return options.invalidRequest === true || this.invalidScopes > 0;
  }

  get = <T = any>(url: string, options?: RequestOptions) => this.request<T>("GET", url, options);
  post = <T = any>(url: string, options?: RequestOptions) => this.request<T>("POST", url, options);
  put = <T = any>(url: string, options?: RequestOptions) => this.request<T>("PUT", url, options);
  patch = <T = any>(url: string, options?: RequestOptions) => this.request<T>("PATCH", url, options);
  delete = <T = any>(url: string, options?: RequestOptions) => this.request<T>("DELETE", url, options);

  /** A GraphQL operation over HTTP. */
  async graphql<T = any>(query: string, variables?: Record<string, unknown>, token?: string) {
    const response = await this.post<{ data?: T; errors?: GraphqlError[] }>("/graphql", {
      body: { query, variables },
      token,
    });
    return response.body;
  }

  /** Runs the mail worker once: everything due in the outbox goes to the SMTP test server. */
  deliverMail(): Promise<number> {
    return this.app.mailWorker.runOnce();
  }
}

/**
 * GET /api/openapi.json on a connection closed afterwards: an idle kept-alive one would count against the bound on
 * connections per address that some tests set.
 */
function documentOf(baseUrl: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    http
      .get(`${baseUrl}/api/openapi.json`, { agent: false }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>));
        answer.on("error", reject);
      })
      .on("error", reject);
  });
}

/** The body a request sends, as the contract check reads it. */
function sentBody(options: RequestOptions): Pick<ExchangeRequest, "json" | "form" | "raw"> {
  if (options.body !== undefined) return { json: options.body };
  const raw = options.raw;
  if (raw instanceof FormData) return { form: raw };
  if (typeof raw === "string" || raw instanceof Uint8Array) return { raw };
  // Other bodies (a stream, a Blob) are sent unchecked, but still sent.
  return raw === undefined ? {} : { raw: "" };
}

/** One app per test file, data reset before each test. */
export function useTestApp(env: Record<string, string> = {}): TestApp {
  const t = new TestApp(env);
  beforeAll(() => t.start());
  beforeEach(() => t.reset());
  afterAll(() => t.stop());
  return t;
}

/**
 * A second instance of the service beside `first` (started after it, stopped before it): the same database through
 * a pool of its own on PostgreSQL, the same clock and SMTP server. `first` resets the data.
 */
export function useSecondInstance(first: TestApp, env: Record<string, string> = {}): TestApp {
  const second = new TestApp(env, first);
  beforeAll(() => second.start());
  afterAll(() => second.stop());
  return second;
}
