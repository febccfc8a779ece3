import { and, count, desc, eq, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { categories, comments, posts, users } from "../../db/schema.ts";
import { isPublished } from "../core/post-queries.ts";
import { SITE_ACTOR } from "./followers.ts";
import { articleColumns } from "./objects.ts";

/** What the site's actors answer with, read from the database. */

export async function activeUserExists(db: Db, id: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, id), eq(users.isBlocked, false), isNull(users.suspendedAt)));
  return Boolean(row);
}

/** An account closed by its owner: its emptied actor still answers (its key signs its `Delete`), but is not followed. */
export async function isClosedAccount(db: Db, id: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, id), isNotNull(users.closedAt)));
  return Boolean(row);
}

/** What an actor's outbox lists: the author's published posts, or every published post for the site. */
const postsOf = (identifier: string) =>
  identifier === SITE_ACTOR ? isPublished : and(isPublished, eq(posts.userId, identifier));

export const outboxArticles = (db: Db, identifier: string, limit: number) =>
  db
    .select(articleColumns)
    .from(posts)
    .innerJoin(categories, eq(categories.id, posts.categoryId))
    .where(postsOf(identifier))
    .orderBy(desc(posts.publishedAt), desc(posts.id))
    .limit(limit);

export async function countOutbox(db: Db, identifier: string) {
  const [row] = await db.select({ count: count() }).from(posts).where(postsOf(identifier));
  return row?.count ?? 0;
}

/** NodeInfo's usage: active users, published posts, comments. */
export async function readUsageCounts(db: Db) {
  const rows = await Promise.all([
    db
      .select({ count: count() })
      .from(users)
      .where(and(eq(users.isBlocked, false), isNull(users.suspendedAt))),
    db.select({ count: count() }).from(posts).where(isPublished),
    db.select({ count: count() }).from(comments),
  ]);
  return rows.map(([row]) => row?.count ?? 0);
}
