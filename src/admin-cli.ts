import { loadConfig } from "./platform/config.js";
import { openDatabase } from "./platform/db/database.js";
import { openInstanceBus } from "./platform/instance-bus.js";
import { grantAdministrators } from "./modules/users/auth.service.js";
import { usersChanged } from "./modules/users/session-cache.js";

/** `npm run admin -- grant <email>`: makes an existing account an administrator. */
const [command, email] = process.argv.slice(2);
if (command !== "grant" || !email) {
  console.error("usage: npm run admin -- grant <email>");
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await database.migrate();
  // Running instances kept the account's sessions: they are told to read them again.
  const bus = await openInstanceBus(database.busCarrier());
  const { unknown } = await grantAdministrators(database.db, [email], (ids) => usersChanged(bus, ids)).finally(() => bus.close());
  const normalized = email.trim().toLowerCase();
  if (unknown.length > 0) {
    console.error(`no account with e-mail ${normalized}`);
    process.exitCode = 1;
  } else {
    console.log(`${normalized} is an administrator`);
  }
} finally {
  await database.close();
}
