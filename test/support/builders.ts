import crypto from "node:crypto";
import type { Db } from "../../src/server/db/client.ts";
import { categories, posts, users } from "../../src/server/db/schema.ts";

const unique = () => crypto.randomBytes(4).toString("hex");

export function buildUser(overrides: Partial<typeof users.$inferInsert> = {}): typeof users.$inferInsert {
  return {
    firstName: "Ada",
    lastName: "Lovelace",
    handle: `ada-${unique()}`,
    email: `ada-${unique()}@example.com`,
    passwordHash: "not-a-real-hash",
    ...overrides,
  };
}

export async function insertUser(db: Db, overrides: Partial<typeof users.$inferInsert> = {}) {
  const [user] = await db.insert(users).values(buildUser(overrides)).returning();
  if (!user) throw new Error("insertUser returned nothing");
  return user;
}

export async function insertCategory(db: Db, userId: string, title = `Category ${unique()}`) {
  const [category] = await db.insert(categories).values({ title, userId }).returning();
  if (!category) throw new Error("insertCategory returned nothing");
  return category;
}

export async function insertPost(
  db: Db,
  overrides: Partial<typeof posts.$inferInsert> & { userId: string; categoryId: string },
) {
  const [post] = await db
    .insert(posts)
    .values({ title: `Post ${unique()}`, description: "<p>Hello</p>", ...overrides })
    .returning();
  if (!post) throw new Error("insertPost returned nothing");
  return post;
}
