import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/platform/config.js";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "fitness-config-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const productionSafe = {
  NODE_ENV: "production",
  JWT_SECRET: "a-production-secret-of-at-least-32-bytes!",
  PUBLIC_BASE_URL: "https://api.fitness.example",
  ALLOW_SANDBOX_PAYMENTS: "true",
};

describe("configuration", () => {
  it("applies the documented defaults", () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      env: "development",
      port: 3000,
      host: "0.0.0.0",
      dataDir,
      databaseUrl: undefined,
      databasePoolMode: "session",
      databaseDirectUrl: undefined,
      databasePoolSize: 10,
      databaseReplicaUrls: [],
      databaseReplicaMaxLagMs: 10_000,
      publicBaseUrl: "http://localhost:3000",
      webAppUrl: "http://localhost:3000",
      webAppConfigured: false,
      smtpUrl: undefined,
      pixEventSecret: undefined,
      cardEventSecret: undefined,
      firebaseProjectId: undefined,
      adminEmails: [],
      authRateLimitPerMinute: 10,
      loginFailuresPerEmail: 5,
      freeTrainerMaxStudents: 2,
      graphqlMaxDepth: 10,
      graphqlMaxComplexity: 5000,
      graphqlMaxTokens: 1000,
      http: { headersTimeoutMs: 10_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 5_000, maxConnectionsPerAddress: 512 },
      shutdownDrainMs: 0,
      logLevel: "info",
    });
  });

  it("generates the development JWT secret once under DATA_DIR and reuses it", () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir }).jwtSecret;
    expect(Buffer.byteLength(first)).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dataDir, "jwt-secret"), "utf8")).toBe(first);
    expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).toBe(first);
  });

  it("lets the specific webhook secrets override WEBHOOK_SECRET", () => {
    const config = loadConfig({ DATA_DIR: tempDir(), WEBHOOK_SECRET: "shared", PIX_WEBHOOK_SECRET: "pix" });
    expect(config.pixEventSecret).toBe("pix");
    expect(config.cardEventSecret).toBe("shared");
  });

  it("normalizes ADMIN_EMAILS to trimmed lower-case addresses", () => {
    expect(loadConfig({ DATA_DIR: tempDir(), ADMIN_EMAILS: " Boss@Example.com, ,ops@example.com " }).adminEmails).toEqual([
      "boss@example.com",
      "ops@example.com",
    ]);
  });

  it.each([
    ["PORT", "http"],
    ["DATABASE_URL", "mysql://x"],
    ["SMTP_URL", "http://mail"],
    ["AUTH_RATE_LIMIT_PER_MINUTE", "-1"],
    ["LOG_LEVEL", "loud"],
    ["PUBLIC_BASE_URL", "ftp://files"],
    ["HTTP_REQUEST_TIMEOUT_MS", "0"],
    ["HTTP_KEEP_ALIVE_TIMEOUT_MS", "5s"],
    ["MAX_CONNECTIONS_PER_ADDRESS", "-1"],
    ["SHUTDOWN_DRAIN_MS", "2s"],
    ["TRUST_PROXY", "true"],
    ["TRUST_PROXY", "10.0.0.0/33"],
    ["TRUST_PROXY", "loopback,haproxy"],
    ["STORAGE_URL", "https://bucket.example"],
    ["STORAGE_URL", "s3://Upper_Case"],
    ["STORAGE_URL", "s3://images/a//b"],
    ["STORAGE_URL", "s3://images/with space"],
    ["S3_ENDPOINT", "minio:9000"],
    ["S3_PUBLIC_URL", "cdn.example"],
  ])("refuses an invalid %s, naming it", (name, value) => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), [name]: value })).toThrow(new RegExp(name));
  });

  it("keeps images under DATA_DIR/uploads without STORAGE_URL", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).objectStorage).toBeUndefined();
  });

  it.each([
    ["s3://images", { bucket: "images", prefix: "" }],
    ["s3://images/", { bucket: "images", prefix: "" }],
    ["s3://my.images-1/fitness/uploads/", { bucket: "my.images-1", prefix: "fitness/uploads" }],
  ])("reads STORAGE_URL=%s into the bucket and the key prefix", (storageUrl, expected) => {
    expect(loadConfig({ DATA_DIR: tempDir(), STORAGE_URL: storageUrl }).objectStorage).toEqual({
      ...expected,
      endpoint: undefined,
      region: "us-east-1",
      credentials: undefined,
      publicUrl: undefined,
    });
  });

  it("takes the S3 endpoint, region, keys and public URL with STORAGE_URL", () => {
    const config = loadConfig({
      DATA_DIR: tempDir(),
      STORAGE_URL: "s3://images/uploads",
      S3_ENDPOINT: "http://minio:9000",
      S3_REGION: "sa-east-1",
      AWS_ACCESS_KEY_ID: "key-id",
      AWS_SECRET_ACCESS_KEY: "secret-key",
      S3_PUBLIC_URL: "https://cdn.example.com/",
    });
    expect(config.objectStorage).toEqual({
      bucket: "images",
      prefix: "uploads",
      endpoint: "http://minio:9000",
      region: "sa-east-1",
      credentials: { accessKeyId: "key-id", secretAccessKey: "secret-key" },
      publicUrl: "https://cdn.example.com",
    });
  });

  it.each([
    ["an access key id without its secret", { STORAGE_URL: "s3://images", AWS_ACCESS_KEY_ID: "key-id" }, /AWS_SECRET_ACCESS_KEY: must be set together/],
    ["a secret without its key id", { STORAGE_URL: "s3://images", AWS_SECRET_ACCESS_KEY: "the-secret-value" }, /AWS_SECRET_ACCESS_KEY: must be set together/],
    ["S3_ENDPOINT without STORAGE_URL", { S3_ENDPOINT: "http://minio:9000" }, /STORAGE_URL: must be set when S3_ENDPOINT or S3_PUBLIC_URL is/],
    ["S3_PUBLIC_URL without STORAGE_URL", { S3_PUBLIC_URL: "https://cdn.example.com" }, /STORAGE_URL: must be set when/],
  ])("refuses %s, naming the setting and never echoing a value", (_label, change, message) => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), ...change })).toThrow(message);
    expect(() => loadConfig({ DATA_DIR: tempDir(), ...change })).not.toThrow(/the-secret-value/);
  });

  it("takes the HTTP limits from the environment, 0 lifting the bound on connections per address", () => {
    const config = loadConfig({
      DATA_DIR: tempDir(),
      HTTP_HEADERS_TIMEOUT_MS: "2000",
      HTTP_REQUEST_TIMEOUT_MS: "120000",
      HTTP_KEEP_ALIVE_TIMEOUT_MS: "65000",
      MAX_CONNECTIONS_PER_ADDRESS: "0",
    });
    expect(config.http).toEqual({ headersTimeoutMs: 2_000, requestTimeoutMs: 120_000, keepAliveTimeoutMs: 65_000, maxConnectionsPerAddress: 0 });
  });

  it("takes a transaction-mode pooler with a direct connection or Redis, and refuses it with neither, naming the variables in one line", () => {
    const pooled = { DATA_DIR: tempDir(), DATABASE_URL: "postgres://app@pgbouncer:6432/app", DATABASE_POOL_MODE: "transaction", DATABASE_POOL_SIZE: "40" };
    expect(loadConfig({ ...pooled, DATABASE_DIRECT_URL: "postgres://app@primary:5432/app" })).toMatchObject({
      databasePoolMode: "transaction",
      databaseDirectUrl: "postgres://app@primary:5432/app",
      databasePoolSize: 40,
    });
    expect(loadConfig({ ...pooled, REDIS_URL: "redis://redis:6379" })).toMatchObject({ databasePoolMode: "transaction", databaseDirectUrl: undefined });
    expect(() => loadConfig(pooled)).toThrow(ConfigError);
    expect(() => loadConfig(pooled)).toThrow(/^DATABASE_DIRECT_URL \(or REDIS_URL\) must be set when DATABASE_POOL_MODE=transaction[^\n]*$/);
  });

  it("takes a multi-host DATABASE_URL and a connect timeout, 3 s unless said", () => {
    const multiHost = "postgres://app@pg1:5432,pg2:5433/app?target_session_attrs=read-write";
    expect(loadConfig({ DATA_DIR: tempDir(), DATABASE_URL: multiHost })).toMatchObject({ databaseUrl: multiHost, databaseConnectTimeoutMs: 3000 });
    expect(loadConfig({ DATA_DIR: tempDir(), DATABASE_CONNECT_TIMEOUT_MS: "1500" })).toMatchObject({ databaseConnectTimeoutMs: 1500 });
    expect(() => loadConfig({ DATA_DIR: tempDir(), DATABASE_CONNECT_TIMEOUT_MS: "0" })).toThrow(ConfigError);
  });

  it("takes the proxies trusted to name the client (TRUST_PROXY): none by default, a count, or addresses and ranges", () => {
    const trustProxy = (value?: string) => loadConfig({ DATA_DIR: tempDir(), ...(value === undefined ? {} : { TRUST_PROXY: value }) }).trustProxy;
    expect(trustProxy()).toBe(false);
    expect(trustProxy("1")).toBe(1);
    expect(trustProxy("loopback, 10.0.0.0/8,fd00::/8, 192.0.2.7")).toEqual(["loopback", "10.0.0.0/8", "fd00::/8", "192.0.2.7"]);
  });

  it("takes comma-separated replicas of a PostgreSQL primary and their lag limit, and refuses them without the primary or malformed", () => {
    const primary = { DATA_DIR: tempDir(), DATABASE_URL: "postgres://app@primary:5432/app" };
    expect(
      loadConfig({
        ...primary,
        DATABASE_REPLICA_URLS: "postgres://app@replica1:5432/app, postgresql://app@pooler2:6432/app",
        DATABASE_REPLICA_MAX_LAG_MS: "2500",
      }),
    ).toMatchObject({ databaseReplicaUrls: ["postgres://app@replica1:5432/app", "postgresql://app@pooler2:6432/app"], databaseReplicaMaxLagMs: 2_500 });
    expect(() => loadConfig({ DATA_DIR: tempDir(), DATABASE_REPLICA_URLS: "postgres://app@replica1:5432/app" })).toThrow(
      /DATABASE_REPLICA_URLS: needs DATABASE_URL/,
    );
    expect(() => loadConfig({ ...primary, DATABASE_REPLICA_URLS: "postgres://app@replica1:5432/app,replica2" })).toThrow(/DATABASE_REPLICA_URLS/);
    expect(() => loadConfig({ ...primary, DATABASE_REPLICA_MAX_LAG_MS: "0" })).toThrow(/DATABASE_REPLICA_MAX_LAG_MS/);
  });

  it("refuses a headers timeout longer than the request timeout, naming it", () => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), HTTP_HEADERS_TIMEOUT_MS: "70000" })).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS/,
    );
  });

  it("starts in production with every secret set", () => {
    const config = loadConfig({ ...productionSafe, DATA_DIR: tempDir() });
    expect(config.env).toBe("production");
    expect(config.jwtSecret).toBe(productionSafe.JWT_SECRET);
  });

  it.each([
    ["a missing JWT_SECRET", { JWT_SECRET: "" }, /JWT_SECRET/],
    ["a JWT_SECRET under 32 bytes", { JWT_SECRET: "short-secret" }, /JWT_SECRET/],
    ["a missing PUBLIC_BASE_URL", { PUBLIC_BASE_URL: "" }, /PUBLIC_BASE_URL/],
    ["sandbox payments not allowed explicitly", { ALLOW_SANDBOX_PAYMENTS: "" }, /ALLOW_SANDBOX_PAYMENTS/],
  ])("refuses to start in production with %s", (_label, change, message) => {
    expect(() => loadConfig({ ...productionSafe, ...change, DATA_DIR: tempDir() })).toThrow(ConfigError);
    expect(() => loadConfig({ ...productionSafe, ...change, DATA_DIR: tempDir() })).toThrow(message);
  });
});
