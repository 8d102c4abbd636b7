import { dataDirFolders, type Config } from "./config.js";

// The lines a person starting the service reads; the JSON log lines beside them are for machines.

/** Before the database is opened and migrated, which the first time on PGlite takes a while. */
export const STARTING = "starting: opening the database and applying its migrations…";

/** Once listening: where to reach the service and where it keeps what it stores (no password or key). */
export function readyLine(config: Config, port: number): string {
  const base = `http://${browsableHost(config.host)}:${port}`;
  const folders = dataDirFolders(config.dataDir);
  const database = config.databaseUrl ? `PostgreSQL ${withoutCredentials(config.databaseUrl)}` : `PGlite in ${folders.pglite}`;
  const mail = config.smtpUrl ? `SMTP ${new URL(config.smtpUrl).host}` : `.eml files in ${folders.mail}`;
  const storage = config.objectStorage;
  const images = storage
    ? `s3://${storage.bucket}${storage.prefix ? `/${storage.prefix}` : ""}${storage.endpoint ? ` at ${new URL(storage.endpoint).host}` : ""}`
    : folders.uploads;
  return `ready: REST ${base}/api/docs, GraphQL ${base}/graphql; database: ${database}; e-mails: ${mail}; images: ${images}`;
}

export const portInUse = (port: number) => `Port ${port} is already in use: stop the process that holds it, or choose another port with PORT=…`;

/** A wildcard or loopback address is reached as localhost; any other as itself. */
function browsableHost(host: string): string {
  if (["0.0.0.0", "::", "127.0.0.1", "::1", "localhost"].includes(host)) return "localhost";
  return host.includes(":") ? `[${host}]` : host;
}

/**
 * user@host:port/database: the URL's password and parameters stay out of the output. Read by hand: a multi-host URL
 * (`h1:5432,h2:5433`, contract §17) is no WHATWG URL.
 */
function withoutCredentials(databaseUrl: string): string {
  const [, user, hosts, database] = /^postgres(?:ql)?:\/\/(?:([^:@/]*)(?::[^@/]*)?@)?([^/?]*)([^?]*)/.exec(databaseUrl) ?? [];
  return `${user ? `${decodeURIComponent(user)}@` : ""}${hosts ?? ""}${database ?? ""}`;
}
