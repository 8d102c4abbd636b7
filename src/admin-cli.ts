import { loadConfig } from "./platform/config.js";
import { openDatabase } from "./platform/db/database.js";
import { userRepository } from "./modules/users/user.repository.js";

/** `npm run admin -- grant <email>`: makes an existing account an administrator. */
const [command, email] = process.argv.slice(2);
if (command !== "grant" || !email) {
  console.error("usage: npm run admin -- grant <email>");
  process.exit(2);
}
const config = loadConfig();
const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await database.migrate();
  await userRepository.grantAdmin(database.db, [email]);
  const user = await userRepository.findByEmail(database.db, email.trim());
  if (!user?.isAdmin) {
    console.error(`no account with e-mail ${email}`);
    process.exitCode = 1;
  } else {
    console.log(`${user.email} is an administrator`);
  }
} finally {
  await database.close();
}
