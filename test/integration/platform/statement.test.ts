import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../../src/server/db/client.ts";
import { categories, users } from "../../../src/server/db/schema.ts";
import { preparedFor, statement } from "../../../src/server/db/statement.ts";
import { databaseTargets } from "../../support/databases.ts";

describe.each(databaseTargets)("statements built once, on $name", (target) => {
  let database: Database;
  let userId: string;
  beforeAll(async () => {
    database = await target.open();
    const [user] = await database.db
      .insert(users)
      .values({ firstName: "A", lastName: "B", handle: "ab", email: "a@b.example", passwordHash: "x" })
      .returning({ id: users.id });
    userId = user?.id as string;
  });
  afterAll(() => database.close());

  it("builds a hand-written statement's text once and fills in each call's values, on the pool and in a transaction", async () => {
    let builds = 0;
    type Values = { title: string; userId: string; tail: string | null };
    const titled = statement<Values, { id: string; title: string; tail: string | null }>(() => {
      builds++;
      return sql`
        insert into ${categories} (title, user_id) values (${sql.placeholder("title")}, ${sql.placeholder("userId")})
        returning id, title, ${sql.placeholder("tail")}::text as tail`;
    });
    const hostile = "Second'); drop table categories; --";
    const [first] = await titled(database.db, { title: "First", userId, tail: "one" });
    const [second] = await titled(database.db, { title: hostile, userId, tail: null });
    expect(first).toMatchObject({ title: "First", tail: "one" });
    expect(second).toMatchObject({ title: hostile, tail: null });
    const [third] = await database.db.transaction((tx) => titled(tx, { title: "Third", userId, tail: "three" }));
    expect(third).toMatchObject({ title: "Third", tail: "three" });
    expect(builds).toBe(1);
    const titles = await database.db.select({ title: categories.title }).from(categories);
    expect(titles.map((row) => row.title).sort()).toEqual(["First", hostile, "Third"]);
    // A value left out is an error, never a statement run without it.
    await expect(titled(database.db, { title: "Fourth", userId } as unknown as Values)).rejects.toThrow(/placeholder/i);
  });

  it("prepares a built query once per database, and apart for a transaction", async () => {
    let builds = 0;
    const byTitle = preparedFor((db) => {
      builds++;
      return db
        .select({ title: categories.title })
        .from(categories)
        .where(eq(categories.title, sql.placeholder("title")))
        .prepare("category_by_title_test");
    });
    expect(await byTitle(database.db).execute({ title: "First" })).toEqual([{ title: "First" }]);
    expect(await byTitle(database.db).execute({ title: "Nobody" })).toEqual([]);
    expect(builds).toBe(1);
    await database.db.transaction(async (tx) => {
      expect(await byTitle(tx).execute({ title: "Third" })).toEqual([{ title: "Third" }]);
    });
    expect(builds).toBe(2);
  });
});
