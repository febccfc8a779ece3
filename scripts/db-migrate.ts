// Applies pending migrations to DATABASE_URL, or to the PGlite folder under DATA_DIR. The server also does this
// at start; this is for deploy pipelines that migrate before rolling out.
import { openDatabase } from "../src/server/db/client.ts";
import { loadConfig } from "../src/server/env.ts";
import { reportStartupError } from "../src/server/main.ts";

try {
  const config = loadConfig();
  const database = await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir });
  await database.migrate();
  await database.close();
  console.log(`Migrated the ${database.kind} database.`);
} catch (error) {
  reportStartupError(error);
}
