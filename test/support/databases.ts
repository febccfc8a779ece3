import crypto from "node:crypto";
import pg from "pg";
import { type Database, openDatabase } from "../../src/server/db/client.ts";

export interface DatabaseTarget {
  name: "pglite" | "postgres";
  /** A new, migrated, empty database; close() also drops it. */
  open(): Promise<Database>;
}

async function openFreshPostgres(baseUrl: string): Promise<Database> {
  const name = `penchain_test_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  await database.migrate();
  return {
    ...database,
    close: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: baseUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
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
