import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from "@fedify/fedify";
import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { federationKv } from "../db/schema.ts";

const keyArray = (key: readonly string[]) =>
  sql`array[${sql.join(
    key.map((part) => sql`${part}`),
    sql`, `,
  )}]::text[]`;
const expiresAt = (options?: KvStoreSetOptions) =>
  options?.ttl ? new Date(Date.now() + options.ttl.total("millisecond")) : null;
const live = sql`(${federationKv.expiresAt} is null or ${federationKv.expiresAt} > now())`;

async function rows<Row>(db: Db, query: SQL): Promise<Row[]> {
  return ((await db.execute(query)) as unknown as { rows: Row[] }).rows;
}

/**
 * Fedify's key–value store on our own database (the registry has no `@fedify/postgres` for Fedify 2), so PGlite
 * and PostgreSQL both work and every instance shares it: remote documents and keys it cached, activity ids it has
 * seen. An entry with a time to live is gone after it (expired rows are swept by `sweep()`).
 */
export function createFederationKv(db: Db): KvStore & { sweep(): Promise<void> } {
  return {
    async get<T = unknown>(key: KvKey): Promise<T | undefined> {
      const [row] = await rows<{ value: T }>(
        db,
        sql`select ${federationKv.value} as value from ${federationKv} where ${federationKv.key} = ${keyArray(key)} and ${live}`,
      );
      return row?.value;
    },

    async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
      await db.execute(sql`
        insert into ${federationKv} (key, value, expires_at)
        values (${keyArray(key)}, ${JSON.stringify(value)}::jsonb, ${expiresAt(options)})
        on conflict (key) do update set value = excluded.value, expires_at = excluded.expires_at`);
    },

    async delete(key: KvKey): Promise<void> {
      await db.execute(sql`delete from ${federationKv} where ${federationKv.key} = ${keyArray(key)}`);
    },

    /** Sets `key` to `next` only if it holds `expected` now (undefined: holds nothing), in one statement. */
    async cas(key: KvKey, expected: unknown, next: unknown, options?: KvStoreSetOptions): Promise<boolean> {
      const value = sql`${JSON.stringify(next)}::jsonb`;
      const changed =
        expected === undefined
          ? await rows(
              db,
              sql`insert into ${federationKv} (key, value, expires_at)
                values (${keyArray(key)}, ${value}, ${expiresAt(options)})
                on conflict (key) do update set value = excluded.value, expires_at = excluded.expires_at
                where ${federationKv.expiresAt} is not null and ${federationKv.expiresAt} <= now()
                returning 1`,
            )
          : await rows(
              db,
              sql`update ${federationKv} set value = ${value}, expires_at = ${expiresAt(options)}
                where ${federationKv.key} = ${keyArray(key)} and ${live}
                  and ${federationKv.value} = ${JSON.stringify(expected)}::jsonb
                returning 1`,
            );
      return changed.length > 0;
    },

    async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
      const where = prefix ? sql`${federationKv.key}[1:${prefix.length}] = ${keyArray(prefix)} and ${live}` : live;
      const found = await rows<{ key: string[]; value: unknown }>(
        db,
        sql`select ${federationKv.key} as key, ${federationKv.value} as value from ${federationKv} where ${where}`,
      );
      for (const row of found) yield { key: row.key as unknown as KvKey, value: row.value };
    },

    async sweep() {
      await db.execute(sql`delete from ${federationKv} where ${federationKv.expiresAt} <= now()`);
    },
  };
}
