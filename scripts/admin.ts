// Admin tasks from the command line:  npm run admin -- promote <email>
// Uses DATABASE_URL, or the PGlite folder under DATA_DIR (stop the server first: one process owns that folder).
import { sql } from "drizzle-orm";
import { openDatabase } from "../src/server/db/client.ts";
import { users } from "../src/server/db/schema.ts";
import { loadConfig } from "../src/server/env.ts";
import { reportStartupError } from "../src/server/main.ts";

const [command, email] = process.argv.slice(2);
if (command !== "promote" || !email) {
  console.error("Usage: npm run admin -- promote <email>");
  process.exit(2);
}

try {
  const config = loadConfig();
  const database = await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir });
  await database.migrate();
  const promoted = await database.db
    .update(users)
    .set({ isAdmin: true, updatedAt: new Date() })
    .where(sql`lower(${users.email}) = lower(${email})`)
    .returning({ email: users.email });
  await database.close();
  if (promoted.length === 0) {
    console.error(`No user has the e-mail ${email}.`);
    process.exit(1);
  }
  console.log(`${promoted[0]?.email} is now an admin.`);
} catch (error) {
  reportStartupError(error);
}
