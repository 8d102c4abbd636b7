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
      publicBaseUrl: "http://localhost:3000",
      webAppUrl: "http://localhost:3000",
      smtpUrl: undefined,
      pixWebhookSecret: undefined,
      cardWebhookSecret: undefined,
      firebaseProjectId: undefined,
      adminEmails: [],
      authRateLimitPerMinute: 10,
      loginFailuresPerEmail: 5,
      freeTrainerMaxStudents: 2,
      graphqlMaxDepth: 10,
      graphqlMaxComplexity: 5000,
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
    expect(config.pixWebhookSecret).toBe("pix");
    expect(config.cardWebhookSecret).toBe("shared");
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
  ])("refuses an invalid %s, naming it", (name, value) => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), [name]: value })).toThrow(new RegExp(name));
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
