import fs from "node:fs";
import type { AppConfig } from "../env.ts";
import { type Database, openDatabase } from "./client.ts";

/** The configured database, opened and migrated. */
export async function openMigratedDatabase(config: Pick<AppConfig, "dataDir" | "databaseUrl">): Promise<Database> {
  fs.mkdirSync(config.dataDir, { recursive: true });
  const database = await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir });
  try {
    await database.migrate();
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
