import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../../../src/server/db/schema.ts";
import { databaseTargets } from "../../support/databases.ts";

const postgres = databaseTargets.find((target) => target.name === "postgres");

describe.skipIf(!postgres)("statements on PostgreSQL", () => {
  it("are prepared once per connection, and only a bounded number of distinct ones", async () => {
    const database = await postgres?.open();
    if (!database) throw new Error("no PostgreSQL");
    try {
      // One query at a time: the pool keeps using its one connection, whose prepared statements are listed below.
      const byEmail = () => database.db.select({ id: users.id }).from(users).where(sql`${users.email} = ${"a@b.c"}`);
      for (let round = 0; round < 3; round++) expect(await byEmail()).toEqual([]);
      const prepared = async () =>
        (
          (await database.db.execute(sql`select statement from pg_prepared_statements`)) as unknown as {
            rows: { statement: string }[];
          }
        ).rows.map((row) => row.statement);
      const text = byEmail().toSQL().sql;
      expect((await prepared()).filter((statement) => statement === text)).toHaveLength(1);

      // Statements whose text varies stop being named past the bound: the connection keeps at most 1,000.
      for (let index = 0; index < 1100; index++) {
        await database.db.execute(sql.raw(`select ${index} as n`));
      }
      const kept = await prepared();
      expect(kept.length).toBeLessThanOrEqual(1000);
      expect(kept).toContain("select 0 as n");
      expect(kept).not.toContain("select 1099 as n");
    } finally {
      await database.close();
    }
  });
});
