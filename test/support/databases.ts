import { scratchPostgres } from "../../scripts/lib/scratch-postgres.ts";
import { type Database, openDatabase } from "../../src/server/db/client.ts";

export interface DatabaseTarget {
  name: "pglite" | "postgres";
  /** A new, migrated, empty database; close() also drops it. `url`: where a server process can reach it too. */
  open(): Promise<Database & { url?: string }>;
}

async function openFreshPostgres(baseUrl: string): Promise<Database & { url: string }> {
  const scratch = await scratchPostgres(baseUrl, "penchain_test");
  const database = await openDatabase({ url: scratch.url });
  await database.migrate();
  return {
    ...database,
    url: scratch.url,
    close: async () => {
      await database.close();
      await scratch.drop();
    },
  };
}

export const pgliteTarget: DatabaseTarget = {
  name: "pglite",
  open: async () => {
    const database = await openDatabase({});
    await database.migrate();
    return database;
  },
};

/** Integration tests run on PGlite always, and on PostgreSQL too when TEST_DATABASE_URL names a server. */
export const databaseTargets: DatabaseTarget[] = [
  pgliteTarget,
  ...(process.env.TEST_DATABASE_URL
    ? [{ name: "postgres" as const, open: () => openFreshPostgres(process.env.TEST_DATABASE_URL as string) }]
    : []),
];
