import { loadConfig } from "../config.js";
import { openDatabase } from "./database.js";

/** `npm run db:migrate`: applies the committed migrations to the configured database. */
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
await database.migrate();
await database.close();
console.log(`migrations applied (${database.kind})`);
