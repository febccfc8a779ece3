import { and, eq, inArray, sql } from "drizzle-orm";
import { reactions } from "../../db/schema.ts";
import type { AuthUser } from "../auth/auth-user.ts";
import type { Deps } from "../deps.ts";
import { requirePublished } from "./post-queries.ts";
import { getPost } from "./posts.ts";

/** A reader's own reactions to some posts, in one query on the reactions key. */
export async function reactionsOf(deps: Pick<Deps, "db">, userId: string, postIds: string[]) {
  if (postIds.length === 0) return new Map<string, "like" | "dislike">();
  const rows = await deps.db
    .select({ postId: reactions.postId, kind: reactions.kind })
    .from(reactions)
    .where(and(inArray(reactions.postId, postIds), eq(reactions.userId, userId)));
  return new Map(rows.map((row) => [row.postId, row.kind]));
}

/**
 * Likes and dislikes are exclusive and toggle (PRODUCT.md, decisions). A per-(post, user) transaction lock
 * serialises one user's clicks, and counts are always counted from the rows, so they stay exact under any concurrency.
 */
export async function react(deps: Pick<Deps, "db">, user: AuthUser, postId: string, kind: "like" | "dislike") {
  await deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${postId}:${user.id}`}, 0))`);
    await requirePublished({ db: tx }, postId);
    const where = and(eq(reactions.postId, postId), eq(reactions.userId, user.id));
    const [current] = await tx.select({ kind: reactions.kind }).from(reactions).where(where);
    if (current?.kind === kind) await tx.delete(reactions).where(where);
    else if (current) await tx.update(reactions).set({ kind }).where(where);
    else await tx.insert(reactions).values({ postId, userId: user.id, kind });
  });
  return getPost(deps, postId, user.id);
}
