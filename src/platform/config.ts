import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import type { HttpServerLimits } from "./http/http-server.js";

/** How long a host may take to accept a connection, and a statement to get one, unless DATABASE_CONNECT_TIMEOUT_MS says. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 3_000;

/** Every setting of contract §11, validated once at start-up. */
export interface Config {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** `transaction`: DATABASE_URL is a transaction-mode pooler (PgBouncer); nothing session-scoped goes through it (contract §17). */
  databasePoolMode: "session" | "transaction";
  /** A direct connection to the primary for what lives in a session (migrations, LISTEN, the job engine); unset: DATABASE_URL. */
  databaseDirectUrl: string | undefined;
  /** Connections of the query pool. */
  databasePoolSize: number;
  /** How long a host may take to accept a connection, and a statement to get one, before the request answers 503 (contract §17). */
  databaseConnectTimeoutMs: number;
  /** Streaming replicas (direct, or through a pooler of their own) that reads which may be a few seconds stale go to (contract §17). */
  databaseReplicaUrls: string[];
  /** A replica further behind the primary than this serves nothing. */
  databaseReplicaMaxLagMs: number;
  /** Images in S3-compatible object storage (`STORAGE_URL=s3://…`); undefined: the local directory `DATA_DIR/uploads` (contract §16). */
  objectStorage: ObjectStorageConfig | undefined;
  /** OpenTelemetry: traces go to this OTLP/HTTP endpoint (contract §16); none when unset. */
  otelEndpoint: string | undefined;
  /** Redis for the instance bus (live updates, session news) instead of PostgreSQL's LISTEN/NOTIFY (contract §16). */
  redisUrl: string | undefined;
  jwtSecret: string;
  publicBaseUrl: string;
  webAppUrl: string;
  /** WEB_APP_URL is set: e-mail links lead to that web app; unset, to this service's own pages (MailLinks). */
  webAppConfigured: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  pixEventSecret: string | undefined;
  cardEventSecret: string | undefined;
  stripeSecretKey: string | undefined;
  stripeApiBase: string | undefined;
  pixApiUrl: string | undefined;
  pixApiKey: string | undefined;
  pixDevMode: boolean;
  allowSandboxPayments: boolean;
  firebaseProjectId: string | undefined;
  firebaseJwksUrl: string;
  adminEmails: string[];
  authRateLimitPerMinute: number;
  loginFailuresPerEmail: number;
  /** What each (app or personal token, user) pair may spend (contract §18.4). */
  apiBudgets: { costBucket: number; costRestorePerSecond: number; requestsPer15Min: number; requestsPerDay: number };
  freeTrainerMaxStudents: number;
  graphqlMaxDepth: number;
  graphqlMaxComplexity: number;
  graphqlMaxTokens: number;
  /** The largest GraphQL answer, in bytes of JSON. */
  graphqlMaxResponseBytes: number;
  /** The most items the capped lists of one GraphQL request may hold together. */
  graphqlMaxListItems: number;
  http: HttpServerLimits;
  /**
   * After SIGTERM, how long the instance goes on taking connections (answering each request with `Connection: close`,
   * /readyz with 503) before it stops listening: time for a load balancer's health checks to stop sending it requests.
   */
  shutdownDrainMs: number;
  /**
   * Express's `trust proxy`: the proxies (a load balancer) whose `X-Forwarded-For` names the client, so that limits per
   * client address (the auth rate limit) count each client, not the balancer. False: the connection's own address.
   */
  trustProxy: false | number | string[];
  logLevel: string;
  /** Production only: webhook URLs may resolve to private addresses (contract §16). */
  webhooksAllowPrivateUrls: boolean;
}

export interface ObjectStorageConfig {
  bucket: string;
  /** Key prefix of every image, without slashes at either end ("" for none). */
  prefix: string;
  /** An S3-compatible store's address (MinIO, R2…), addressed path-style; undefined: AWS S3 itself. */
  endpoint: string | undefined;
  region: string;
  /** Undefined: the AWS SDK's default chain (environment, shared files, the instance's role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** A CDN (or the bucket's public address) serving the objects by key: image URLs point there instead of `/uploads/`. */
  publicUrl: string | undefined;
}

const GOOGLE_SECURETOKEN_JWKS = "https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com";

/** `s3://bucket[/prefix]`: S3's bucket naming rules; a prefix of the characters keys may carry unencoded in a URL. */
const STORAGE_URL = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])((?:\/[A-Za-z0-9!_.*'()-]+)*)\/?$/;

const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
const optionalText = z.preprocess(blankToUndefined, z.string().optional());
const flag = z.preprocess(blankToUndefined, z.enum(["true", "false", "1", "0"]).optional()).transform((v) => v === "true" || v === "1");
const count = (fallback: number) => z.preprocess(blankToUndefined, z.coerce.number().int().min(0).default(fallback));
/** The names Express (proxy-addr) gives to address ranges. */
const PROXY_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);
/** An address, a CIDR range (`10.0.0.0/8`) or a named range. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGES.has(entry)) return true;
  const [address, prefix, extra] = entry.split("/");
  const version = isIP(address);
  return version !== 0 && extra === undefined && (prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128)));
}
/** TRUST_PROXY: a count of proxies in front (`1`), or the comma-separated addresses and ranges that are proxies. */
const trustedProxies = z
  .preprocess(blankToUndefined, z.string().optional())
  .refine((value) => value === undefined || /^\d+$/.test(value) || value.split(",").every((entry) => isProxyAddress(entry.trim())), {
    message: "a number of proxies, or comma-separated addresses, CIDR ranges, loopback, linklocal or uniquelocal",
  })
  .transform((value) => (value === undefined ? false : /^\d+$/.test(value) ? Number(value) : value.split(",").map((entry) => entry.trim())));
const milliseconds = (fallback: number) => z.preprocess(blankToUndefined, z.coerce.number().int().min(1).default(fallback));
const url = z.preprocess(blankToUndefined, z.url({ protocol: /^https?$/ }).optional());

const envSchema = z
  .object({
    NODE_ENV: z.preprocess(blankToUndefined, z.enum(["development", "production", "test"]).default("development")),
    PORT: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
    HOST: z.preprocess(blankToUndefined, z.string().default("0.0.0.0")),
    DATA_DIR: z.preprocess(blankToUndefined, z.string().default("./data")),
    DATABASE_URL: z.preprocess(
      blankToUndefined,
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
        .optional(),
    ),
    DATABASE_POOL_MODE: z.preprocess(blankToUndefined, z.enum(["session", "transaction"]).default("session")),
    DATABASE_DIRECT_URL: z.preprocess(
      blankToUndefined,
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
        .optional(),
    ),
    DATABASE_POOL_SIZE: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).default(10)),
    DATABASE_CONNECT_TIMEOUT_MS: z.preprocess(blankToUndefined, z.coerce.number().int().min(100).default(DEFAULT_CONNECT_TIMEOUT_MS)),
    DATABASE_REPLICA_URLS: z.preprocess(
      blankToUndefined,
      z
        .string()
        .transform((urls) => urls.split(",").map((each) => each.trim()))
        .pipe(z.array(z.string().regex(/^postgres(ql)?:\/\//, "must be comma-separated postgres:// URLs")))
        .optional(),
    ),
    DATABASE_REPLICA_MAX_LAG_MS: milliseconds(10_000),
    JWT_SECRET: optionalText,
    PUBLIC_BASE_URL: url,
    WEB_APP_URL: url,
    SMTP_URL: z.preprocess(
      blankToUndefined,
      z
        .string()
        .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
        .optional(),
    ),
    MAIL_FROM: z.preprocess(blankToUndefined, z.string().default("Fitness <no-reply@fitness.local>")),
    WEBHOOK_SECRET: optionalText,
    PIX_WEBHOOK_SECRET: optionalText,
    CARD_WEBHOOK_SECRET: optionalText,
    STRIPE_SECRET_KEY: optionalText,
    STRIPE_API_BASE: url,
    PIX_API_URL: url,
    PIX_API_KEY: optionalText,
    PIX_DEV_MODE: flag,
    ALLOW_SANDBOX_PAYMENTS: flag,
    FIREBASE_PROJECT_ID: optionalText,
    FIREBASE_JWKS_URL: z.preprocess(blankToUndefined, z.url({ protocol: /^https?$/ }).default(GOOGLE_SECURETOKEN_JWKS)),
    ADMIN_EMAILS: optionalText,
    AUTH_RATE_LIMIT_PER_MINUTE: count(10),
    LOGIN_FAILURES_PER_EMAIL: count(5),
    API_COST_BUCKET: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).default(1000)),
    API_COST_RESTORE_PER_SECOND: z.preprocess(blankToUndefined, z.coerce.number().positive().default(50)),
    API_REQUESTS_PER_15_MIN: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).default(600)),
    API_REQUESTS_PER_DAY: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).default(6000)),
    FREE_TRAINER_MAX_STUDENTS: count(2),
    GRAPHQL_MAX_DEPTH: count(10),
    GRAPHQL_MAX_COMPLEXITY: count(5000),
    GRAPHQL_MAX_TOKENS: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).default(1000)),
    GRAPHQL_MAX_RESPONSE_BYTES: count(4 * 1024 * 1024),
    GRAPHQL_MAX_LIST_ITEMS: count(10_000),
    HTTP_HEADERS_TIMEOUT_MS: milliseconds(10_000),
    HTTP_REQUEST_TIMEOUT_MS: milliseconds(60_000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: milliseconds(5_000),
    MAX_CONNECTIONS_PER_ADDRESS: count(512),
    SHUTDOWN_DRAIN_MS: count(0),
    TRUST_PROXY: trustedProxies,
    OTEL_EXPORTER_OTLP_ENDPOINT: url,
    REDIS_URL: z.preprocess(
      blankToUndefined,
      z
        .string()
        .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
        .optional(),
    ),
    STORAGE_URL: z.preprocess(
      blankToUndefined,
      z
        .string()
        .regex(STORAGE_URL, "must be s3://bucket or s3://bucket/prefix (a valid bucket name; the prefix's segments of letters, digits and !-_.*'())")
        .optional(),
    ),
    S3_ENDPOINT: url,
    S3_REGION: z.preprocess(blankToUndefined, z.string().default("us-east-1")),
    AWS_ACCESS_KEY_ID: optionalText,
    AWS_SECRET_ACCESS_KEY: optionalText,
    S3_PUBLIC_URL: url,
    WEBHOOKS_ALLOW_PRIVATE_URLS: flag,
    LOG_LEVEL: z.preprocess(blankToUndefined, z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info")),
  })
  // The headers are part of the request: Node refuses a headers timeout longer than the request's.
  .refine((e) => e.HTTP_HEADERS_TIMEOUT_MS <= e.HTTP_REQUEST_TIMEOUT_MS, {
    path: ["HTTP_HEADERS_TIMEOUT_MS"],
    message: "must not exceed HTTP_REQUEST_TIMEOUT_MS",
  })
  .refine((e) => !e.AWS_ACCESS_KEY_ID === !e.AWS_SECRET_ACCESS_KEY, {
    path: ["AWS_SECRET_ACCESS_KEY"],
    message: "must be set together with AWS_ACCESS_KEY_ID (or neither)",
  })
  // Replicas are PostgreSQL's: the embedded database has none.
  .refine((e) => e.DATABASE_URL || !e.DATABASE_REPLICA_URLS, {
    path: ["DATABASE_REPLICA_URLS"],
    message: "needs DATABASE_URL (the primary)",
  })
  // Without STORAGE_URL images stay on the local disk: an endpoint or CDN set alone is a mistake worth stopping for.
  .refine((e) => e.STORAGE_URL || (!e.S3_ENDPOINT && !e.S3_PUBLIC_URL), {
    path: ["STORAGE_URL"],
    message: "must be set when S3_ENDPOINT or S3_PUBLIC_URL is",
  });

export class ConfigError extends Error {}

/** The folders of DATA_DIR (beside the development JWT secret): the embedded database, `.eml` mail, uploaded images. */
export function dataDirFolders(dataDir: string) {
  return { pglite: path.join(dataDir, "pglite"), mail: path.join(dataDir, "mail"), uploads: path.join(dataDir, "uploads") };
}

/** Reads and validates the environment; production refuses insecure defaults. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join("\n  ")}`);
  }
  const e = parsed.data;
  // LISTEN cannot go through a transaction-mode pooler: the instance bus needs a direct connection, or Redis.
  if (e.DATABASE_POOL_MODE === "transaction" && !e.DATABASE_DIRECT_URL && !e.REDIS_URL) {
    throw new ConfigError(
      "DATABASE_DIRECT_URL (or REDIS_URL) must be set when DATABASE_POOL_MODE=transaction: the instance bus cannot LISTEN through the pooler",
    );
  }
  const production = e.NODE_ENV === "production";
  const dataDir = path.resolve(e.DATA_DIR);

  if (production) {
    const problems: string[] = [];
    if (!e.JWT_SECRET || Buffer.byteLength(e.JWT_SECRET) < 32) problems.push("JWT_SECRET must be set to at least 32 bytes");
    if (!e.PUBLIC_BASE_URL) problems.push("PUBLIC_BASE_URL must be set");
    const sandbox = !e.STRIPE_SECRET_KEY || !e.PIX_API_URL;
    if (sandbox && !e.ALLOW_SANDBOX_PAYMENTS) {
      problems.push("STRIPE_SECRET_KEY and PIX_API_URL must be set (or ALLOW_SANDBOX_PAYMENTS=true)");
    }
    if (problems.length > 0) throw new ConfigError(`Refusing to start in production:\n  ${problems.join("\n  ")}`);
  }

  const publicBaseUrl = (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databasePoolMode: e.DATABASE_POOL_MODE,
    databaseDirectUrl: e.DATABASE_DIRECT_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databaseConnectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
    databaseReplicaUrls: e.DATABASE_REPLICA_URLS ?? [],
    databaseReplicaMaxLagMs: e.DATABASE_REPLICA_MAX_LAG_MS,
    redisUrl: e.REDIS_URL,
    objectStorage: e.STORAGE_URL ? objectStorageConfig(e.STORAGE_URL, e) : undefined,
    otelEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
    jwtSecret: e.JWT_SECRET ?? developmentJwtSecret(dataDir),
    publicBaseUrl,
    webAppUrl: (e.WEB_APP_URL ?? publicBaseUrl).replace(/\/+$/, ""),
    webAppConfigured: e.WEB_APP_URL !== undefined,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    pixEventSecret: e.PIX_WEBHOOK_SECRET ?? e.WEBHOOK_SECRET,
    cardEventSecret: e.CARD_WEBHOOK_SECRET ?? e.WEBHOOK_SECRET,
    stripeSecretKey: e.STRIPE_SECRET_KEY,
    stripeApiBase: e.STRIPE_API_BASE,
    pixApiUrl: e.PIX_API_URL,
    pixApiKey: e.PIX_API_KEY,
    pixDevMode: e.PIX_DEV_MODE,
    allowSandboxPayments: e.ALLOW_SANDBOX_PAYMENTS,
    firebaseProjectId: e.FIREBASE_PROJECT_ID,
    firebaseJwksUrl: e.FIREBASE_JWKS_URL,
    adminEmails: (e.ADMIN_EMAILS ?? "")
      .split(",")
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    loginFailuresPerEmail: e.LOGIN_FAILURES_PER_EMAIL,
    apiBudgets: {
      costBucket: e.API_COST_BUCKET,
      costRestorePerSecond: e.API_COST_RESTORE_PER_SECOND,
      requestsPer15Min: e.API_REQUESTS_PER_15_MIN,
      requestsPerDay: e.API_REQUESTS_PER_DAY,
    },
    freeTrainerMaxStudents: e.FREE_TRAINER_MAX_STUDENTS,
    graphqlMaxDepth: e.GRAPHQL_MAX_DEPTH,
    graphqlMaxComplexity: e.GRAPHQL_MAX_COMPLEXITY,
    graphqlMaxTokens: e.GRAPHQL_MAX_TOKENS,
    graphqlMaxResponseBytes: e.GRAPHQL_MAX_RESPONSE_BYTES,
    graphqlMaxListItems: e.GRAPHQL_MAX_LIST_ITEMS,
    http: {
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnectionsPerAddress: e.MAX_CONNECTIONS_PER_ADDRESS,
    },
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    webhooksAllowPrivateUrls: e.WEBHOOKS_ALLOW_PRIVATE_URLS,
  };
}

function objectStorageConfig(
  storageUrl: string,
  e: Pick<z.infer<typeof envSchema>, "S3_ENDPOINT" | "S3_REGION" | "AWS_ACCESS_KEY_ID" | "AWS_SECRET_ACCESS_KEY" | "S3_PUBLIC_URL">,
): ObjectStorageConfig {
  const [, bucket, keyPath] = STORAGE_URL.exec(storageUrl)!;
  return {
    bucket,
    prefix: keyPath.slice(1),
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    credentials: e.AWS_ACCESS_KEY_ID && e.AWS_SECRET_ACCESS_KEY ? { accessKeyId: e.AWS_ACCESS_KEY_ID, secretAccessKey: e.AWS_SECRET_ACCESS_KEY } : undefined,
    publicUrl: e.S3_PUBLIC_URL?.replace(/\/+$/, ""),
  };
}

/** Development only: a random secret generated once and kept under DATA_DIR, so tokens survive restarts. */
function developmentJwtSecret(dataDir: string): string {
  const file = path.join(dataDir, "jwt-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
