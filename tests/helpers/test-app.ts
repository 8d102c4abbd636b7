import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { TestClock } from "pg-boss";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { createApp, type App } from "../../src/app.js";
import { createPasswordHasher, type PasswordHasher } from "../../src/platform/auth/password-hasher.js";
import { ManualClock } from "../../src/platform/clock.js";
import { loadConfig, type Config } from "../../src/platform/config.js";
import type { DatabaseHandle } from "../../src/platform/db/database.js";
import { createHttpServer } from "../../src/platform/http/http-server.js";
import { createLogger } from "../../src/platform/logger.js";
import { anotherConnectionToWorkerDatabase, resetDatabase } from "./database.js";
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
  private dataDir = "";
  private closeDatabase: () => Promise<void> = async () => undefined;

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
    let parsed: unknown = text;
    if ((response.headers.get("content-type") ?? "").includes("json") && text) parsed = JSON.parse(text);
    return { status: response.status, body: parsed as T, headers: response.headers, text };
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
