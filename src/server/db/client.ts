import path from "node:path";
import type { Logger } from "drizzle-orm";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { lockDataDir } from "./data-dir-lock.ts";
import { isPostgresUnavailable } from "./errors.ts";
import * as schema from "./schema.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** How TypeScript names become column names, for every way the app reaches its database. */
export const CASING = "snake_case";

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  migrate(): Promise<void>;
  ping(): Promise<void>;
  /** Whether an error means the database cannot be reached right now (it will be retried, not fixed by the caller). */
  isUnavailable(error: unknown): boolean;
  close(): Promise<void>;
}

export type DatabaseOptions = (
  | { url: string }
  /** PGlite under `<dataDir>/db`, which this process then owns; no `dataDir`: in memory (tests). */
  | { dataDir?: string }
) & { logger?: Logger };

const migrationsFolder = path.join(import.meta.dirname, "migrations");
// Any constant shared by every instance: it serialises migrations when several servers start at once.
const MIGRATION_LOCK_KEY = 7_337_001;

// Each driver is loaded when it is opened: a server on PostgreSQL never loads PGlite, nor one on PGlite the pg pool.
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return "url" in options ? openPostgres(options.url, options.logger) : openPglite(options.dataDir, options.logger);
}

async function openPglite(dataDir: string | undefined, logger: Logger | undefined): Promise<Database> {
  const [{ PGlite }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  const unlock = dataDir ? lockDataDir(dataDir) : () => {};
  try {
    // 32 MB of shared buffers, not PostgreSQL's 128: WebAssembly zeroes them at every start (docs/decisions/002).
    const options = { startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=32MB"] };
    const client = dataDir ? await PGlite.create(path.join(dataDir, "db"), options) : await PGlite.create(options);
    const db = drizzlePglite({ client, schema, casing: CASING, ...(logger ? { logger } : {}) });
    return {
      db,
      kind: "pglite",
      migrate: () => migratePglite(db, { migrationsFolder }),
      ping: async () => void (await db.execute(sql`select 1`)),
      // In-process: it cannot go away while the server runs.
      isUnavailable: () => false,
      close: async () => {
        await client.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

/** At most this many distinct statements are prepared, on each connection. */
const MAX_PREPARED = 1000;
const STATEMENT = /^\s*(select|with|insert|update|delete)\b/i;

/**
 * node-postgres sends each query unnamed, so PostgreSQL parses and plans it anew every time: for the app's larger
 * statements (a like, a notification, a post with its author) planning cost more than running them. Each statement
 * the app sends is named after its text instead, which makes it a prepared statement on every connection that runs
 * it: parsed once per connection, and planned once when its plan does not depend on its values. Only the first
 * MAX_PREPARED distinct texts are named, so statements whose text varies (a list of ids of any length) cannot make a
 * connection keep statements without bound.
 */
function preparingStatements(pool: import("pg").Pool) {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (name === undefined && names.size < MAX_PREPARED && STATEMENT.test(text)) {
      name = `penchain_${names.size}`;
      names.set(text, name);
    }
    return name;
  };
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const named = (config: unknown) => {
      if (config === null || typeof config !== "object" || "submit" in config) return config;
      const { text, name } = config as { text?: unknown; name?: unknown };
      if (typeof text !== "string" || name) return config;
      const prepared = nameOf(text);
      return prepared ? { ...config, name: prepared } : config;
    };
    (client as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => query(named(config), ...rest);
  });
}

async function openPostgres(url: string, logger: Logger | undefined): Promise<Database> {
  const [{ default: pg }, { drizzle: drizzleNodePg }, { migrate: migrateNodePg }] = await Promise.all([
    import("pg"),
    import("drizzle-orm/node-postgres"),
    import("drizzle-orm/node-postgres/migrator"),
  ]);
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
  preparingStatements(pool);
  const parsed = new URL(url);
  const server = { host: parsed.hostname, port: Number(parsed.port || 5432) };
  // An idle client losing its connection must not crash the process; the next query reports the failure.
  pool.on("error", () => {});
  const db = drizzleNodePg({ client: pool, schema, casing: CASING, ...(logger ? { logger } : {}) });
  return {
    db,
    kind: "postgres",
    migrate: async () => {
      const client = await pool.connect();
      try {
        await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
        await migrateNodePg(drizzleNodePg({ client, casing: CASING }), { migrationsFolder });
      } finally {
        await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
        client.release();
      }
    },
    ping: async () => void (await pool.query("select 1")),
    isUnavailable: (error) => isPostgresUnavailable(error, server),
    close: () => pool.end(),
  };
}
