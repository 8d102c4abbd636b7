import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/platform/config.js";
import { readyLine } from "../../src/platform/startup-messages.js";

const secret = { JWT_SECRET: "a-secret-of-at-least-32-bytes-for-tests" };

describe("the ready line", () => {
  it("names PostgreSQL, SMTP and the object store without their passwords or keys", () => {
    const config = loadConfig({
      ...secret,
      HOST: "10.0.0.5",
      DATABASE_URL: "postgres://app:db-password@db.internal:5432/fitness?sslmode=require",
      SMTP_URL: "smtps://mailer:smtp-password@smtp.example.com:465",
      STORAGE_URL: "s3://fitness-images/prod",
      S3_ENDPOINT: "http://minio.internal:9000",
      AWS_ACCESS_KEY_ID: "key-id",
      AWS_SECRET_ACCESS_KEY: "s3-secret",
    });
    expect(readyLine(config, 8080)).toBe(
      "ready: REST http://10.0.0.5:8080/api/docs, GraphQL http://10.0.0.5:8080/graphql; database: PostgreSQL app@db.internal:5432/fitness; " +
        "e-mails: SMTP smtp.example.com:465; images: s3://fitness-images/prod at minio.internal:9000",
    );
  });

  it("names every host of a multi-host DATABASE_URL (contract §17), still without the password", () => {
    const config = loadConfig({ ...secret, DATABASE_URL: "postgres://app:db-password@pg1:5432,pg2:5433/fitness?target_session_attrs=read-write" });
    expect(readyLine(config, 3000)).toContain("database: PostgreSQL app@pg1:5432,pg2:5433/fitness;");
  });

  it("gives a wildcard or loopback address as localhost, an IPv6 one in brackets", () => {
    for (const host of ["0.0.0.0", "::", "127.0.0.1", "::1"]) {
      expect(readyLine(loadConfig({ ...secret, HOST: host }), 3000)).toContain("REST http://localhost:3000/api/docs, GraphQL http://localhost:3000/graphql;");
    }
    expect(readyLine(loadConfig({ ...secret, HOST: "fd00::5" }), 3000)).toContain("REST http://[fd00::5]:3000/api/docs");
  });
});
