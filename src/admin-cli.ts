import type { AdminCommand } from "./admin-commands.js";
import { dataDirFolders, loadConfig } from "./platform/config.js";
import { DataDirLockedError, OwnerRefusal, sendToOwner } from "./platform/db/data-dir-claim.js";
import { configuredDatabase, openDatabase } from "./platform/db/database.js";
import { openInstanceBus } from "./platform/instance-bus.js";
import { grantAdministrators, type AdminGrant } from "./modules/users/auth.service.js";
import { usersChanged } from "./modules/users/session-cache.js";

/**
 * `npm run admin -- grant <email>`: makes an existing account an administrator. On the embedded database a running
 * service owns the directory (no second process may open it): the command goes to that service, over its admin
 * socket; with no service running, or on PostgreSQL, the command line opens the database itself.
 */
const [command, email] = process.argv.slice(2);
if (command !== "grant" || !email) {
  console.error("usage: npm run admin -- grant <email>");
  process.exit(2);
}
const config = loadConfig();
try {
  const request: AdminCommand = { command: "grant", email };
  const fromService = config.databaseUrl ? null : ((await sendToOwner(dataDirFolders(config.dataDir).pglite, request)) as AdminGrant | null);
  const { unknown } = fromService ?? (await grantOnDatabase(email));
  const normalized = email.trim().toLowerCase();
  if (unknown.length > 0) {
    console.error(`no account with e-mail ${normalized}`);
    process.exitCode = 1;
  } else {
    console.log(`${normalized} is an administrator`);
  }
} catch (error) {
  if (error instanceof DataDirLockedError) {
    console.error(`${error.message}, whose admin socket does not answer: run this again once it has started, or stop it first`);
  } else if (error instanceof OwnerRefusal) {
    console.error(error.message);
  } else {
    throw error;
  }
  process.exitCode = 1;
}

async function grantOnDatabase(email: string): Promise<AdminGrant> {
  const database = await openDatabase(configuredDatabase(config));
  try {
    await database.migrate();
    // Running instances (on PostgreSQL) kept the account's sessions: they are told to read them again.
    const bus = await openInstanceBus(database.busCarrier());
    return await grantAdministrators(database.db, [email], (ids) => usersChanged(bus, ids)).finally(() => bus.close());
  } finally {
    await database.close();
  }
}
