import "reflect-metadata";
import type { AddressInfo } from "node:net";
import { applyAdminCommand } from "./admin-commands.js";
import { createApp } from "./app.js";
import { systemClock } from "./platform/clock.js";
import { ConfigError, loadConfig } from "./platform/config.js";
import { DataDirLockedError } from "./platform/db/data-dir-claim.js";
import { configuredDatabase, openDatabase } from "./platform/db/database.js";
import { onceReachable } from "./platform/db/database-unavailable.js";
import { createHttpServer, drainHttpServer } from "./platform/http/http-server.js";
import { createLogger } from "./platform/logger.js";
import { STARTING, portInUse, readyLine } from "./platform/startup-messages.js";

const SHUTDOWN_GRACE_MS = 10_000;

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  console.log(STARTING);
  const database = await openDatabase(configuredDatabase(config)).catch((error: unknown) => {
    if (!(error instanceof DataDirLockedError)) throw error;
    // A second service on the same files would lose the first one's writes: one process only, or PostgreSQL.
    console.error(`${error.message}: stop that process first, or give each instance its own DATA_DIR or a DATABASE_URL`);
    process.exit(1);
  });
  // Each step that needs the database waits for it: an instance started during an outage comes up when it answers.
  const onceDatabaseAnswers = <T>(step: () => Promise<T>) =>
    onceReachable(step, (error, retryInMs) =>
      logger.warn({ reason: error instanceof Error ? error.message : String(error), retryInMs }, "database out of reach: starting once it answers"),
    );
  await onceDatabaseAnswers(() => database.migrate());
  logger.info({ database: database.kind }, "migrations applied");

  const app = await createApp({ config, database, clock: systemClock, logger });
  // On the embedded database `npm run admin` cannot open the directory this process owns: it sends its commands here.
  database.dataDirClaim?.serve((command) => applyAdminCommand(app.services, command));
  if (database.dataDirClaim?.socketPath === null) logger.warn("no admin socket in DATA_DIR: npm run admin needs this service stopped");
  if (config.adminEmails.length > 0) {
    const { granted, unknown } = await onceDatabaseAnswers(() => app.services.auth.grantAdmin(config.adminEmails));
    logger.info({ granted, notRegisteredYet: unknown }, "ADMIN_EMAILS applied");
  }

  // Before the first request: an e-mail queued by it kicks its delivery job.
  await onceDatabaseAnswers(() => app.jobs.start());
  logger.info("job engine started");

  const server = createHttpServer(config.http, app.express);
  server.on("upgrade", app.sockets.upgrade);
  server.listen(config.port, config.host, () => {
    // The port bound, which PORT=0 leaves to the system: whoever started the process reads it here.
    const { port } = server.address() as AddressInfo;
    logger.info({ url: `http://${config.host}:${port}`, port, graphql: "/graphql", rest: "/api" }, "listening");
    console.log(readyLine(config, port));
  });
  server.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EADDRINUSE") {
      console.error(portInUse(config.port));
      process.exit(1);
    }
    logger.fatal({ err: error }, "server failed");
    process.exit(1);
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    const force = setTimeout(() => {
      logger.warn("grace period over, closing remaining connections");
      server.closeAllConnections();
    }, config.shutdownDrainMs + SHUTDOWN_GRACE_MS);
    force.unref();
    // Not ready from now on (load balancers stop routing here), WebSockets told to go away (their clients reconnect
    // elsewhere); every answer closes its connection; past SHUTDOWN_DRAIN_MS no new connection is taken: the process
    // exits once none is left.
    void app.beginShutdown();
    await drainHttpServer(server, config.shutdownDrainMs);
    await app.close();
    await database.close();
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
