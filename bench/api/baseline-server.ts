/**
 * The bare baseline of issue 11: what any Node API pays per request on this machine — Express 5, the service's own
 * bearer-token check (HS256, the same AccessTokens class), and one row by id through postgres.js with a pool of 10
 * like the service's. Its requests per second are the ceiling a read of the service is compared with.
 *
 * Run as a child of bench/api-load.ts: DATABASE_URL, PORT and JWT_SECRET come from the environment.
 */
import express from "express";
import postgres from "postgres";
import { AccessTokens } from "../../src/platform/auth/access-tokens.js";
import { systemClock } from "../../src/platform/clock.js";

const tokens = new AccessTokens(process.env.JWT_SECRET!, systemClock);
const sql = postgres(process.env.DATABASE_URL!, { max: 10, onnotice: () => undefined });

const app = express();
app.get("/users/:id", async (req, res) => {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
  if (!match || !tokens.verify(match[1])) {
    res.status(401).json({ message: "Unauthorized" });
    return;
  }
  const [user] = await sql`select id, name, email, user_type from users where id = ${Number(req.params.id)}`;
  if (!user) {
    res.status(404).json({ message: "Not found" });
    return;
  }
  res.json(user);
});

const server = app.listen(Number(process.env.PORT), "127.0.0.1");
process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => void sql.end({ timeout: 1 }).then(() => process.exit(0)));
});
