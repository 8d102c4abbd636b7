import { loadConfig } from "../config.js";
import { DataDirLockedError } from "./data-dir-claim.js";
import { configuredDatabase, openDatabase } from "./database.js";

/** `npm run db:migrate`: applies the committed migrations to the configured database. */
const config = loadConfig();
const database = await openDatabase(configuredDatabase(config)).catch((error: unknown) => {
  if (!(error instanceof DataDirLockedError)) throw error;
  // The embedded database's owner is a running service, which applied the migrations when it started.
  console.error(`${error.message}, which applied the migrations when it started`);
  process.exit(1);
});
await database.migrate();
await database.close();
console.log(`migrations applied (${database.kind})`);
